#include "actors/c5c3/rabbitmqvhost/provision.hpp"

#include "actors/c5c3/rabbitmqvhost/topology.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

const k8s::object* at(const std::map<std::int64_t, k8s::object>& m, std::int64_t gen) {
  auto it = m.find(gen);
  return it == m.end() ? nullptr : &it->second;
}

std::string not_installed_message(std::string_view resource) {
  return fmt::format("the cluster serves no {}.rabbitmq.com; install the RabbitMQ Messaging Topology Operator",
                     resource);
}

// One pass of the step; the plan is built up as it goes.
class provisioner {
 public:
  explicit provisioner(const provision_snapshot& s)
      : s_(s), o_(*s.order), n_(o_.ref), now_(std::chrono::floor<std::chrono::seconds>(s.now)) {
    p_.status = o_.status;
  }

  provision_plan run();

 private:
  void fail(std::string_view reason, std::string message, requeue r) {
    p_.vhost_ready = make_condition(condition_type_vhost_ready, false, reason, message, o_.generation);
    p_.requeue = r;
  }
  void set_true(std::string message) {
    p_.vhost_ready = make_condition(condition_type_vhost_ready, true, reason_vhost_provisioned, message, o_.generation);
  }
  std::string provisioned_message() const {
    return fmt::format("vhost \"{}\" and user \"{}\" (generation {}) are provisioned on RabbitmqCluster {}/{}",
                       p_.status.vhost, p_.status.username, p_.status.password_generation,
                       s_.control_plane_namespace, s_.rabbitmq_cluster);
  }
  const k8s::object* live_or_named(const k8s::object* listed, std::string_view kind, std::string_view name) const {
    return listed ? listed : find_named(s_.read_by_name, kind, name);
  }
  provision_plan finish() {
    p_.live = p_.status.password_generation > 0;
    return std::move(p_);
  }

  void prune(const vhost_generations& children, std::int64_t desired);
  requeue mint(const vhost_generations& children, std::int64_t gen);
  void sweep_grace(const vhost_generations& children);

  const provision_snapshot& s_;
  const vhost_order& o_;
  vhost_names n_;
  k8s::time_point now_;
  provision_plan p_;
};

provision_plan provisioner::run() {
  const std::string& ns = s_.control_plane_namespace;
  // 1. The password is backed up through the namespace's own store.
  if (!s_.store.ready) {
    fail(reason_secret_store_not_ready,
         fmt::format("{} \"{}\" in namespace \"{}\" is not ready; the password cannot be backed up to OpenBao",
                     s_.store.kind, s_.store.name, ns),
         requeue_after);
    return finish();
  }

  // 2. The Vhost CR, applied whenever the live one lacks what it carries.
  if (!s_.served.vhost) {
    fail(reason_topology_operator_not_installed, not_installed_message("vhosts"), order_refresh_after);
    return finish();
  }
  k8s::object desired = build_vhost(n_.vhost_child(), ns, n_.vhost(), s_.rabbitmq_cluster,
                                    o_.spec.topology_deletion_policy());
  const k8s::object* vhost = live_or_named(s_.vhost, "Vhost", n_.vhost_child());
  auto ensured = ensure_order_child(o_.ref, desired, vhost);
  if (ensured.refused()) {
    fail(reason_vhost_error, ensured.refusal, std::nullopt);
    return finish();
  }
  std::string vhost_key = ns + "/" + n_.vhost_child();
  if (ensured.write) {
    p_.writes.push_back(*ensured.write);
    fail(reason_waiting_for_vhost, fmt::format("Vhost {} is not Ready yet", vhost_key), on_child_event);
    return finish();
  }
  if (auto msg = topology_failure(*vhost); !msg.empty()) {
    fail(reason_vhost_failed, fmt::format("the topology operator cannot create vhost \"{}\": {}", n_.vhost(), msg),
         requeue_after);
    return finish();
  }
  if (!topology_ready(*vhost)) {
    fail(reason_waiting_for_vhost, fmt::format("Vhost {} is not Ready yet", vhost_key), on_child_event);
    return finish();
  }
  p_.status.vhost = n_.vhost();

  // 3. The generations.
  if (!s_.served.user || !s_.served.permission) {
    fail(reason_topology_operator_not_installed, not_installed_message(!s_.served.user ? "users" : "permissions"),
         order_refresh_after);
    return finish();
  }
  vhost_generations children = key_generations(o_, s_);
  std::int64_t cur = p_.status.password_generation;
  std::int64_t want = vhost_desired_generation(o_, children, now_);
  prune(children, want);

  // 4. Create generation N, or report the live one.
  requeue result;
  if (want > cur) {
    result = mint(children, want);
  } else {
    set_true(provisioned_message());
  }

  // 5. The grace sweep.
  sweep_grace(children);

  // 6. The schedule.
  p_.status.next_rotation = vhost_next_rotation(o_.spec, p_.status);
  p_.requeue = shortest_requeue(result, shortest_requeue(requeue_at(p_.status.next_rotation, now_),
                                                         requeue_at(p_.status.previous_password_delete_at, now_)));
  return finish();
}

void provisioner::prune(const vhost_generations& children, std::int64_t desired) {
  const vhost_status& st = o_.status;
  auto keep = [&](std::int64_t gen) {
    return gen == st.password_generation || gen == desired ||
           (st.previous_password_delete_at && gen == st.previous_password_generation);
  };
  for (auto* kind : {&children.permissions, &children.users, &children.secrets})
    for (auto& [gen, obj] : *kind)
      if (!keep(gen) && !obj.terminating()) p_.writes.push_back(make_delete(obj));
}

requeue provisioner::mint(const vhost_generations& children, std::int64_t gen) {
  const std::string& ns = s_.control_plane_namespace;
  const std::int64_t cur = p_.status.password_generation;
  const std::string broker_user = n_.broker_user(gen);
  auto waiting = [&] {
    if (cur == 0) {
      fail(reason_waiting_for_user,
           fmt::format("User {}/{} or Permission {}/{} of generation {} is not Ready yet", ns, n_.user(gen), ns,
                       n_.permission(gen), gen),
           on_child_event);
    } else {
      // The delivered user stays valid while its successor is created.
      set_true(fmt::format("{}; generation {} is being created", provisioned_message(), gen));
    }
    return on_child_event;
  };

  // The password Secret, generated once.
  order_secret_spec secret{ns,
                           n_.password_secret(gen),
                           {{std::string(key_username), broker_user}},
                           {std::string(key_password)},
                           {{std::string(topology_operator_label), "true"}}};
  auto ensured_secret = ensure_order_secret(
      o_.ref, secret, live_or_named(at(children.secrets, gen), "Secret", secret.name), s_.random);
  if (ensured_secret.ensure.refused()) {
    fail(reason_vhost_error,
         fmt::format("ensuring the password Secret of generation {}: {}", gen, ensured_secret.ensure.refusal),
         std::nullopt);
    return std::nullopt;
  }
  if (ensured_secret.ensure.write) {
    // The User imports the Secret, so it follows once the Secret is written.
    p_.writes.push_back(*ensured_secret.ensure.write);
    return waiting();
  }

  // The User importing it.
  const k8s::object* user = live_or_named(at(children.users, gen), "User", n_.user(gen));
  auto ensured_user = ensure_order_child(
      o_.ref, build_user(n_.user(gen), ns, s_.rabbitmq_cluster, n_.password_secret(gen)), user);
  if (ensured_user.refused()) {
    fail(reason_vhost_error, ensured_user.refusal, std::nullopt);
    return std::nullopt;
  }
  if (ensured_user.write) {
    p_.writes.push_back(*ensured_user.write);
    user = nullptr;  // its state is the answer's
  }

  // The Permission, once the User is Ready: the broker refuses permissions for
  // a user it does not hold yet.
  const k8s::object* permission = nullptr;
  if (user && topology_ready(*user)) {
    permission = live_or_named(at(children.permissions, gen), "Permission", n_.permission(gen));
    auto ensured = ensure_order_child(
        o_.ref, build_permission(n_.permission(gen), ns, s_.rabbitmq_cluster, n_.vhost(), broker_user), permission);
    if (ensured.refused()) {
      fail(reason_vhost_error, ensured.refusal, std::nullopt);
      return std::nullopt;
    }
    if (ensured.write) {
      p_.writes.push_back(*ensured.write);
      permission = nullptr;
    }
  }

  for (const k8s::object* obj : {user, permission}) {
    if (!obj) continue;
    if (auto msg = topology_failure(*obj); !msg.empty()) {
      fail(reason_vhost_failed,
           fmt::format("the topology operator cannot create {} {}/{} of generation {}: {}", obj->kind(),
                       obj->namespace_(), obj->name(), gen, msg),
           requeue_after);
      return requeue_after;
    }
  }
  if (!user || !permission || !topology_ready(*user) || !topology_ready(*permission)) return waiting();

  // Both Ready: status switches.
  if (cur > 0) {
    p_.status.previous_password_generation = cur;
    p_.status.previous_password_delete_at = now_ + std::chrono::duration_cast<std::chrono::seconds>(o_.spec.grace_period);
  }
  p_.status.password_generation = gen;
  p_.status.username = broker_user;
  p_.status.last_rotation = now_;
  set_true(provisioned_message());
  return std::nullopt;
}

void provisioner::sweep_grace(const vhost_generations& children) {
  const auto& delete_at = p_.status.previous_password_delete_at;
  if (!delete_at || now_ < *delete_at) return;
  std::int64_t prev = p_.status.previous_password_generation;
  if (const k8s::object* user = at(children.users, prev)) {
    for (const k8s::object* obj : {at(children.permissions, prev), user})
      if (obj && !obj->terminating()) p_.writes.push_back(make_delete(*obj));
    return;
  }
  // The pass that no longer lists the User.
  if (const k8s::object* secret = at(children.secrets, prev); secret && !secret->terminating())
    p_.writes.push_back(make_delete(*secret));
  p_.status.previous_password_generation = 0;
  p_.status.previous_password_delete_at.reset();
}

}  // namespace

vhost_generations key_generations(const vhost_order& order, const provision_snapshot& s) {
  vhost_names n(order.ref);
  vhost_generations out;
  auto key = [&](const std::vector<k8s::object>& items, const std::string& prefix,
                 std::map<std::int64_t, k8s::object>& into) {
    for (auto& obj : items)
      if (auto gen = generation_of(obj.name(), prefix); gen && owns_order_child(obj, order.ref))
        into.emplace(*gen, obj);
  };
  key(s.users, n.user_prefix(), out.users);
  key(s.permissions, n.permission_prefix(), out.permissions);
  key(s.secrets, n.password_prefix(), out.secrets);
  return out;
}

std::optional<k8s::time_point> vhost_next_rotation(const vhost_spec& spec, const vhost_status& status) {
  if (!spec.schedule_on() || !status.last_rotation) return std::nullopt;
  return *status.last_rotation + std::chrono::duration_cast<k8s::clock::duration>(spec.interval);
}

std::int64_t vhost_desired_generation(const vhost_order& order, const vhost_generations& children,
                                      k8s::time_point now) {
  const std::int64_t declared = order.spec.password_generation;
  const std::int64_t cur = order.status.password_generation;
  if (cur == 0) return declared;
  // A rotation in flight; one the broker refused is given up once a higher
  // generation is declared.
  std::int64_t in_flight = 0;
  for (auto& [gen, user] : children.users)
    if (gen > cur && (topology_failure(user).empty() || gen >= declared)) in_flight = std::max(in_flight, gen);
  if (in_flight > 0) return in_flight;
  // No rotation starts while a grace period runs.
  if (order.status.previous_password_delete_at) return cur;

  auto next = vhost_next_rotation(order.spec, order.status);
  bool rotate = declared > cur || (next && now >= *next);
  auto secret = children.secrets.find(cur);
  if (secret == children.secrets.end() || secret_value(secret->second, key_password).value_or("").empty()) {
    rotate = true;  // the password of the live generation is lost
  } else if (!children.users.contains(cur) || !children.permissions.contains(cur)) {
    rotate = true;  // its User or Permission is lost
  }
  return rotate ? std::max(declared, cur + 1) : cur;
}

}  // namespace c5c3::c5c3::rabbitmqvhost

namespace c5c3::c5c3::rabbitmqvhost {

provision_plan provision_vhost(const provision_snapshot& s) { return provisioner(s).run(); }

}  // namespace c5c3::c5c3::rabbitmqvhost
