#include "sim/world/world.hpp"

#include "sim/world/external_secrets.hpp"
#include "sim/world/memory_identity.hpp"
#include "sim/world/topology_operator.hpp"

#include <fmt/format.h>

#include <map>

namespace c5c3::sim::world {
namespace {

const k8s::gvk rabbitmq_cluster{"rabbitmq.com", "v1beta1", "RabbitmqCluster"};
const k8s::gvk vhost{"rabbitmq.com", "v1beta1", "Vhost"};
const k8s::gvk user{"rabbitmq.com", "v1beta1", "User"};
const k8s::gvk permission{"rabbitmq.com", "v1beta1", "Permission"};
const k8s::gvk secret_store{"external-secrets.io", "v1", "SecretStore"};
const k8s::gvk cluster_secret_store{"external-secrets.io", "v1", "ClusterSecretStore"};
const k8s::gvk push_secret{"external-secrets.io", "v1alpha1", "PushSecret"};

// apiVersion/kind, namespace, name (a rabbitmq.com User is not a K-ORC User)
std::tuple<std::string, std::string, std::string> id_of(const k8s::object& o) {
  return {std::string(o.api_version()) + "/" + std::string(o.kind()), std::string(o.namespace_()), std::string(o.name())};
}

// `planned` rebased on `latest` (the object the server answered to an earlier
// write of this pass): the planned status or metadata on the newest resourceVersion.
k8s::object rebase(const object_write& planned, const k8s::object& latest) {
  auto b = latest.edit();
  if (planned.verb == write_verb::update_status) {
    if (const auto* st = planned.obj.get({"status"})) b.set({"status"}, k8s::copy_json(*st, b.alloc()));
  } else if (const auto* fins = planned.obj.get({"metadata", "finalizers"})) {
    b.set({"metadata", "finalizers"}, k8s::copy_json(*fins, b.alloc()));
  } else {
    b.remove({"metadata", "finalizers"});
  }
  return std::move(b).freeze();
}

}  // namespace

const std::vector<k8s::gvk>& simulated_kinds() {
  static const std::vector<k8s::gvk> kinds = [] {
    std::vector<k8s::gvk> k{rabbitmq_cluster, vhost, user, permission, secret_store, cluster_secret_store, push_secret};
    for (const auto& info : korc_kinds()) k.push_back(korc_gvk(info.kind));
    return k;
  }();
  return kinds;
}

k8s::gvk secret_kind() { return {"", "v1", "Secret"}; }

k8s::gvk control_plane_kind() { return {"c5c3.io", "v1alpha1", "ControlPlane"}; }

const std::vector<k8s::gvk>& optional_kinds() {
  static const std::vector<k8s::gvk> kinds{control_plane_kind()};
  return kinds;
}

world::world(world_api& api, world_options opts) : api_(api), opts_(std::move(opts)) {
  if (!opts_.log) opts_.log = [](const std::string&) {};
  if (!opts_.openbao) opts_.openbao = std::make_shared<kv_store>();
  if (!opts_.identity) opts_.identity = std::make_shared<memory_identity>();
  if (auto m = std::dynamic_pointer_cast<memory_identity>(opts_.identity); m && opts_.admin.password.empty())
    opts_.admin.password = m->admin_password();
  sessions_ = std::make_shared<keystone_sessions>(opts_.identity, opts_.clock);
}

pass_result world::pass() {
  pass_result r;
  now_ = opts_.clock();
  clusters(r);
  if (opts_.topology_operator) topology(r);
  secret_stores(r);
  push_secrets(r);
  control_planes(r);
  korc(r);
  return r;
}

bool world::write_all(const std::vector<object_write>& ws, pass_result& r, answered& latest) {
  for (const auto& w : ws) {
    object_write send = w;
    if (w.verb != write_verb::upsert && w.verb != write_verb::create) {
      if (auto it = latest.find(id_of(w.obj)); it != latest.end()) {
        if (!it->second) continue;  // gone with its last finalizer
        send.obj = rebase(w, it->second);
      }
    }
    auto res = api_.write(send);
    if (res.error) {
      ++r.write_errors;
      opts_.log(fmt::format("{} {}/{}: {}", send.obj.kind(), send.obj.namespace_(), send.obj.name(), *res.error));
      return false;  // the rest depends on this one; the next pass retries
    }
    ++r.writes;
    latest[id_of(w.obj)] = res.obj;
  }
  return true;
}

void world::come_back(pass_result& r, std::chrono::nanoseconds after) {
  auto t = now_ + std::chrono::duration_cast<k8s::clock::duration>(after);
  if (!r.next_pass || t < *r.next_pass) r.next_pass = t;
}

void world::clusters(pass_result& r) {
  for (const auto& c : api_.list(rabbitmq_cluster)) {
    cluster_snapshot s{c, api_.get(secret_kind(), c.namespace_(), default_user_secret_name(c.name())),
                       opts_.real_broker, now_, opts_.random};
    answered latest;
    write_all(reconcile_rabbitmq_cluster(s).writes, r, latest);
  }
}

void world::topology(pass_result& r) {
  for (const auto& kind : {vhost, user, permission}) {
    for (const auto& o : api_.list(kind)) {
      topology_snapshot s;
      s.subject = o;
      s.now = now_;
      s.random = opts_.random;
      auto cluster_ns = o.get_string({"spec", "rabbitmqClusterReference", "namespace"}, o.namespace_());
      auto cluster_name = o.get_string({"spec", "rabbitmqClusterReference", "name"});
      if (!cluster_name.empty()) s.cluster = api_.get(rabbitmq_cluster, cluster_ns, cluster_name);
      if (kind == user) {
        auto import = o.get_string({"spec", "importCredentialsSecret", "name"});
        if (!import.empty()) s.import_secret = api_.get(secret_kind(), o.namespace_(), import);
        s.credentials = api_.get(secret_kind(), o.namespace_(), user_credentials_secret_name(o.name()));
      }
      if (kind == permission) {
        auto ref = o.get_string({"spec", "userReference", "name"});
        if (!ref.empty()) s.referenced_user = api_.get(user, o.namespace_(), ref);
      }
      auto plan = reconcile_topology(s);
      if (plan.requeue_after) come_back(r, *plan.requeue_after);
      answered latest;
      if (!write_all(plan.before_calls, r, latest)) continue;
      broker_error outcome;
      if (!plan.calls.empty()) {
        r.broker_calls += plan.calls.size();
        outcome = opts_.rabbitmq ? run_calls(*opts_.rabbitmq, plan.calls) : broker_error("no broker configured");
        if (outcome) opts_.log(fmt::format("{} {}/{}: {}", o.kind(), o.namespace_(), o.name(), *outcome));
      }
      auto settled = settle(plan, outcome, now_);
      if (settled.requeue_after) come_back(r, *settled.requeue_after);
      write_all(settled.writes, r, latest);
    }
  }
}

void world::secret_stores(pass_result& r) {
  for (const auto& kind : {secret_store, cluster_secret_store}) {
    for (const auto& s : api_.list(kind)) {
      answered latest;
      if (auto w = reconcile_secret_store(s, now_)) write_all({*w}, r, latest);
    }
  }
}

void world::push_secrets(pass_result& r) {
  for (const auto& ps : api_.list(push_secret)) {
    push_snapshot s;
    s.push_secret = ps;
    s.now = now_;
    auto source = ps.get_string({"spec", "selector", "secret", "name"});
    if (!source.empty()) s.source = api_.get(secret_kind(), ps.namespace_(), source);
    if (const auto* refs = ps.get({"spec", "secretStoreRefs"}); refs && refs->IsArray()) {
      for (const auto& ref : refs->GetArray()) {
        auto kind = k8s::get_string(ref, {"kind"}, "SecretStore");
        auto name = k8s::get_string(ref, {"name"});
        auto store = kind == "ClusterSecretStore" ? api_.get(cluster_secret_store, "", name)
                                                  : api_.get(secret_store, ps.namespace_(), name);
        if (store) s.stores.emplace(fmt::format("{}/{}", kind, name), store);
      }
    }
    auto plan = reconcile_push_secret(s);
    answered latest;
    if (!write_all(plan.before, r, latest)) continue;
    apply_remote(*opts_.openbao, plan.remote);
    write_all(plan.after, r, latest);
    if (plan.requeue_after) come_back(r, *plan.requeue_after);
  }
}

}  // namespace c5c3::sim::world
