#include "sim/world/topology_operator.hpp"

#include "sim/world/base64.hpp"

#include <fmt/format.h>

#include <map>

namespace c5c3::sim::world {
namespace {

constexpr std::string_view ready_reason = "SuccessfulCreateOrUpdate";
constexpr std::string_view failed_reason = "FailedCreateOrUpdate";

std::string plural(topology_kind k) {
  switch (k) {
    case topology_kind::vhost: return "vhosts";
    case topology_kind::user: return "users";
    case topology_kind::permission: return "permissions";
  }
  return {};
}

std::string secret_value(const k8s::object& secret, std::string_view key) {
  auto v = base64_decode(secret.get_string({"data", key}));
  return v ? *v : std::string();
}

bool has_secret_key(const k8s::object& secret, std::string_view key) {
  return secret.get({"data", key}) != nullptr;
}

std::string joined_tags(const k8s::object& o) {
  std::string out;
  if (const auto* tags = o.get({"spec", "tags"}); tags && tags->IsArray()) {
    for (const auto& t : tags->GetArray()) {
      if (!t.IsString()) continue;
      if (!out.empty()) out += ",";
      out += k8s::as_string_view(t);
    }
  }
  return out;
}

k8s::object with_finalizer(const k8s::object& o, std::string_view f, bool add) {
  auto b = o.edit();
  if (add) {
    b.add_finalizer(f);
  } else {
    b.remove_finalizer(f);
  }
  return std::move(b).freeze();
}

k8s::object ready_subject(const k8s::object& subject, k8s::time_point now,
                          const std::map<std::string, std::string>& extra_status) {
  auto b = subject.edit();
  // As messaging-topology-operator v1.20: a User also reports PasswordSynced, first.
  std::vector<plain_condition> conds;
  if (subject.kind() == "User") conds.push_back({"PasswordSynced", "True", "SuccessfulPasswordSync", ""});
  conds.push_back({"Ready", "True", std::string(ready_reason), ""});
  replace_conditions(b, conds, now);
  b.set_int({"status", "observedGeneration"}, subject.generation());
  for (const auto& [k, v] : extra_status) {
    if (k == "credentials") {
      b.set_string({"status", "credentials", "name"}, v);
    } else {
      b.set_string({"status", k}, v);
    }
  }
  return std::move(b).freeze();
}

// The step of a live object whose cluster exists: calls and the success writes.
struct declare {
  std::vector<object_write> before_calls;
  std::vector<broker_call> calls;
  std::map<std::string, std::string> extra_status;
  std::optional<std::string> error;  // fails without calling the broker
};

declare declare_vhost(const topology_snapshot& s) {
  declare d;
  d.calls.push_back(put_vhost_call{std::string(s.subject.get_string({"spec", "name"}))});
  return d;
}

k8s::object credentials_secret(const k8s::object& user, const std::string& username,
                               const std::string& password, const std::string& hash) {
  k8s::object_builder b("v1", "Secret", user.namespace_(), user_credentials_secret_name(user.name()));
  b.set_string({"type"}, "Opaque");
  b.set_label(topology_operator_label, "true");
  k8s::owner_reference owner{std::string(user.api_version()), std::string(user.kind()),
                             std::string(user.name()), std::string(user.uid()), true, true};
  if (!owner.uid.empty()) b.add_owner_reference(owner);
  b.set_string({"data", "username"}, base64_encode(username));
  if (hash.empty()) {
    b.set_string({"data", "password"}, base64_encode(password));
  } else {
    b.set_string({"data", "passwordHash"}, base64_encode(hash));
  }
  return std::move(b).freeze();
}

declare declare_user(const topology_snapshot& s) {
  declare d;
  const auto& u = s.subject;
  broker_user bu;
  bu.tags = joined_tags(u);
  auto import_name = u.get_string({"spec", "importCredentialsSecret", "name"});
  if (!import_name.empty()) {
    if (!s.import_secret) {
      d.error = fmt::format("secret \"{}\" not found in namespace \"{}\"", import_name, u.namespace_());
      return d;
    }
    if (s.import_secret.label(topology_operator_label) != std::optional<std::string_view>("true")) {
      d.error = fmt::format(
          "secret \"{}\" must have label {}=true to be used by the Topology Operator", import_name,
          topology_operator_label);
      return d;
    }
    bu.name = secret_value(s.import_secret, "username");
    if (bu.name.empty()) {
      d.error = fmt::format("could not find username key in credentials secret {}", import_name);
      return d;
    }
    bu.password_hash = secret_value(s.import_secret, "passwordHash");
    if (bu.password_hash.empty()) {
      if (!has_secret_key(s.import_secret, "password")) {
        d.error = fmt::format("could not find password or passwordHash key in credentials secret {}",
                              import_name);
        return d;
      }
      bu.password = secret_value(s.import_secret, "password");
    }
  } else if (s.credentials) {
    bu.name = secret_value(s.credentials, "username");
    bu.password = secret_value(s.credentials, "password");
    bu.password_hash = secret_value(s.credentials, "passwordHash");
  }
  if (bu.name.empty()) bu.name = s.random(24);
  if (bu.password.empty() && bu.password_hash.empty()) bu.password = s.random(24);

  if (!import_name.empty()) {
    // As messaging-topology-operator v1.20: imported credentials are not copied; the
    // status names the import Secret itself.
    d.extra_status["credentials"] = std::string(import_name);
  } else {
    auto secret = credentials_secret(u, bu.name, bu.password, bu.password_hash);
    const auto* have = s.credentials ? s.credentials.get({"data"}) : nullptr;
    if (!have || !k8s::json_equal(*have, *secret.get({"data"}))) {
      d.before_calls.push_back({write_verb::upsert, std::move(secret)});
    }
    d.extra_status["credentials"] = user_credentials_secret_name(u.name());
  }
  d.extra_status["username"] = bu.name;
  d.calls.push_back(put_user_call{std::move(bu)});
  return d;
}

// The broker user name a Permission grants to; an error text when unknown.
std::pair<std::string, std::optional<std::string>> permission_user(const topology_snapshot& s) {
  auto user = s.subject.get_string({"spec", "user"});
  if (!user.empty()) return {std::string(user), std::nullopt};
  auto ref = s.subject.get_string({"spec", "userReference", "name"});
  if (ref.empty()) return {{}, "must specify either spec.user or spec.userReference"};
  if (!s.referenced_user) {
    return {{}, fmt::format("failed to get User: users.rabbitmq.com \"{}\" not found", ref)};
  }
  auto name = s.referenced_user.get_string({"status", "username"});
  if (name.empty()) return {{}, fmt::format("User \"{}\" has no status.username yet", ref)};
  return {std::string(name), std::nullopt};
}

permission_set permissions_of(const k8s::object& p) {
  return {std::string(p.get_string({"spec", "permissions", "configure"})),
          std::string(p.get_string({"spec", "permissions", "write"})),
          std::string(p.get_string({"spec", "permissions", "read"}))};
}

declare declare_permission(const topology_snapshot& s) {
  declare d;
  auto [user, err] = permission_user(s);
  if (err) {
    d.error = std::move(err);
    return d;
  }
  d.calls.push_back(put_permissions_call{std::string(s.subject.get_string({"spec", "vhost"})), std::move(user),
                                         permissions_of(s.subject)});
  return d;
}

std::vector<broker_call> delete_calls(topology_kind k, const topology_snapshot& s) {
  const auto& o = s.subject;
  switch (k) {
    case topology_kind::vhost:
      if (o.get_string({"spec", "deletionPolicy"}, "delete") == "retain") return {};
      return {delete_vhost_call{std::string(o.get_string({"spec", "name"}))}};
    case topology_kind::user: {
      auto name = o.get_string({"status", "username"});
      if (name.empty()) return {};
      return {delete_user_call{std::string(name)}};
    }
    case topology_kind::permission: {
      auto [user, err] = permission_user(s);
      if (err) return {};  // the user is unknown: nothing of it to revoke
      return {delete_permissions_call{std::string(o.get_string({"spec", "vhost"})), std::move(user)}};
    }
  }
  return {};
}

}  // namespace

std::string topology_finalizer(topology_kind k) {
  return "deletion.finalizers." + plural(k) + ".rabbitmq.com";
}

std::optional<topology_kind> topology_kind_of(std::string_view kind) {
  if (kind == "Vhost") return topology_kind::vhost;
  if (kind == "User") return topology_kind::user;
  if (kind == "Permission") return topology_kind::permission;
  return std::nullopt;
}

std::string user_credentials_secret_name(std::string_view user) {
  return std::string(user) + "-user-credentials";
}

k8s::object topology_failed(const k8s::object& subject, std::string_view message, k8s::time_point now) {
  auto b = subject.edit();
  replace_conditions(b, {{"Ready", "False", std::string(failed_reason), std::string(message)}}, now);
  return std::move(b).freeze();
}

topology_plan reconcile_topology(const topology_snapshot& s) {
  topology_plan plan;
  const auto& o = s.subject;
  auto kind = topology_kind_of(o.kind());
  if (!o || !kind) return plan;
  const auto finalizer = topology_finalizer(*kind);
  const bool deleting = o.terminating();
  if (deleting && !o.has_finalizer(finalizer)) return plan;

  // The cluster reference.
  std::optional<std::string> ref_error;
  if (o.get_string({"spec", "rabbitmqClusterReference", "name"}).empty()) {
    ref_error = o.get({"spec", "rabbitmqClusterReference", "connectionSecret"})
                    ? "failed to parse RabbitmqClusterReference: connectionSecret is not simulated"
                    : "failed to parse RabbitmqClusterReference: spec.rabbitmqClusterReference.name is empty";
  }
  const bool scaled_to_zero = s.cluster && k8s::get_int(s.cluster.json(), {"spec", "replicas"}) == 0;
  if (deleting && (!s.cluster || scaled_to_zero || ref_error)) {
    // Nothing left to delete from: release the object without the broker.
    plan.on_success.push_back({write_verb::update, with_finalizer(o, finalizer, false)});
    return plan;
  }
  if (!deleting && !ref_error && !s.cluster) {
    plan.requeue_after = missing_cluster_requeue;
    return plan;
  }

  if (deleting) {
    plan.calls = delete_calls(*kind, s);
    plan.on_success.push_back({write_verb::update, with_finalizer(o, finalizer, false)});
    return plan;
  }

  // Live: the finalizer first.
  k8s::object current = o;
  if (!o.has_finalizer(finalizer)) {
    current = with_finalizer(o, finalizer, true);
    plan.before_calls.push_back({write_verb::update, current});
  }
  plan.failure_subject = current;
  std::optional<std::string> error = ref_error;
  if (!error && scaled_to_zero) error = "RabbitmqCluster is scaled to zero replicas; waiting for it to scale up";
  declare d;
  if (!error) {
    switch (*kind) {
      case topology_kind::vhost: d = declare_vhost(s); break;
      case topology_kind::user: d = declare_user(s); break;
      case topology_kind::permission: d = declare_permission(s); break;
    }
    error = d.error;
  }
  if (error) {
    auto failed = topology_failed(current, *error, s.now);
    if (status_differs(current, failed)) plan.before_calls.push_back({write_verb::update_status, failed});
    plan.failure_subject = {};
    plan.requeue_after = missing_cluster_requeue;
    return plan;
  }
  for (auto& w : d.before_calls) plan.before_calls.push_back(std::move(w));
  plan.calls = std::move(d.calls);
  auto ready = ready_subject(current, s.now, d.extra_status);
  if (status_differs(current, ready)) plan.on_success.push_back({write_verb::update_status, std::move(ready)});
  return plan;
}

topology_settled settle(const topology_plan& plan, const broker_error& outcome, k8s::time_point now) {
  topology_settled out;
  if (!outcome) {
    out.writes = plan.on_success;
    out.requeue_after = plan.requeue_after;
    return out;
  }
  out.requeue_after = missing_cluster_requeue;
  if (plan.failure_subject) {
    auto failed = topology_failed(plan.failure_subject, *outcome, now);
    if (status_differs(plan.failure_subject, failed)) out.writes.push_back({write_verb::update_status, failed});
  }
  return out;
}

topology_settled run_topology(const topology_plan& plan, broker& b, k8s::time_point now) {
  return settle(plan, run_calls(b, plan.calls), now);
}

}  // namespace c5c3::sim::world
