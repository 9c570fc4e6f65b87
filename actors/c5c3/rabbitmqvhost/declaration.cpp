#include "actors/c5c3/rabbitmqvhost/declaration.hpp"

#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"

namespace c5c3::c5c3::rabbitmqvhost {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", "RabbitMQVhost"}; }
k8s::gvk vhost_gvk() { return {"rabbitmq.com", "v1beta1", "Vhost"}; }
k8s::gvk user_gvk() { return {"rabbitmq.com", "v1beta1", "User"}; }
k8s::gvk permission_gvk() { return {"rabbitmq.com", "v1beta1", "Permission"}; }
k8s::gvk push_secret_gvk() { return {"external-secrets.io", "v1alpha1", "PushSecret"}; }
k8s::gvk rabbitmq_cluster_gvk() { return {"rabbitmq.com", "v1beta1", "RabbitmqCluster"}; }
k8s::gvk secret_gvk() { return {"", "v1", "Secret"}; }
std::string rabbitmq_secret_selector() { return "app.kubernetes.io/part-of=rabbitmq"; }

namespace {

rt::ownership_keys keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

// The ControlPlane of a live order (the broker and the store are read for
// the legs only).
const k8s::object* live_control_plane(const rt::sense_snapshot& s) {
  return s.order.terminating() ? nullptr : s.control_plane_or_null();
}

// The child an unconverged order waits for, by the reason of its first
// sub-condition that is not True (for explain).
void waiting_of(const pass_plan& p, const pass_snapshot& s, rt::order_plan& out) {
  const vhost_names n(make_order_ref(s.order->name(), s.order->namespace_(), s.cluster));
  for (const auto& c : p.conditions) {
    if (c.type == "Ready" || c.is_true()) continue;
    const std::string& r = c.reason;
    if (r == reason_waiting_for_vhost || r == reason_vhost_failed) {
      out.waiting_slot = "vhosts";
      out.waiting_name = n.vhost_child();
    } else if (r == reason_waiting_for_user) {
      out.waiting_slot = "users";
    } else if (r == reason_backup_not_synced) {
      out.waiting_slot = "push_secrets";
      out.waiting_name = n.push_secret();
    } else if (r == reason_waiting_for_messaging || r == reason_waiting_for_messaging_credentials) {
      out.waiting_slot = "rabbitmq_cluster";
    } else if (r == reason_secret_store_not_ready) {
      out.waiting_slot = s.store.kind == "ClusterSecretStore" ? "cluster_secret_store" : "secret_store";
    }
    return;
  }
}

}  // namespace

std::vector<std::string> topology_drop() {
  return {"metadata.creationTimestamp", "metadata.finalizers", "status.conditions[].lastTransitionTime"};
}

std::vector<std::string> user_drop() {
  auto d = topology_drop();
  d.insert(d.end(), {"status.credentials", "status.username"});
  return d;
}

std::vector<std::string> push_secret_drop() {
  auto d = topology_drop();
  d.insert(d.end(), {"status.refreshTime", "status.syncedPushSecrets"});
  return d;
}

std::vector<std::string> secret_drop() { return {"metadata.creationTimestamp"}; }

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  auto projected = [](rt::read_slot s, std::vector<std::string> drop) {
    s.drop = std::move(drop);
    return s;
  };
  std::vector<rt::read_slot> out{
      projected(rt::children("vhosts", vhost_gvk(), k), topology_drop()),
      projected(rt::children("users", user_gvk(), k), user_drop()),
      projected(rt::children("permissions", permission_gvk(), k), topology_drop()),
      projected(rt::children("push_secrets", push_secret_gvk(), k), push_secret_drop()),
      projected(rt::children("secrets", secret_gvk(), k, false), secret_drop()),
  };
  out.push_back(projected(delivered_secret_slot(k, credentials_secret_suffix), secret_drop()));

  out.push_back(rt::named(
      "rabbitmq_cluster", rabbitmq_cluster_gvk(),
      [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        const auto* cp = live_control_plane(s);
        auto key = cp ? messaging_cluster_key(*cp) : std::nullopt;
        if (!key) return std::nullopt;
        return rt::locator{key->namespace_, key->name};
      },
      "", true));
  // The cluster operator's Secrets are watched by its part-of label; the API
  // server only when the Secret is not there.
  auto default_user = rt::named(
      "default_user", secret_gvk(),
      [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        const auto* rc = s.one("rabbitmq_cluster");
        auto key = rc ? default_user_secret_key(*rc) : std::nullopt;
        if (!key) return std::nullopt;
        return rt::locator{key->namespace_, key->name};
      },
      rabbitmq_secret_selector());
  default_user.after = {"rabbitmq_cluster"};
  default_user.server_fallback = true;
  out.push_back(std::move(default_user));
  for (auto& slot : secret_store_slots()) out.push_back(std::move(slot));
  return out;
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s, const random_source& random) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.rabbitmq_cluster = s.one("rabbitmq_cluster");
  p.default_user_secret = s.one("default_user");
  if (p.control_plane) p.store = secret_store_of(s);
  p.served = {s.served("vhosts"), s.served("users"), s.served("permissions")};
  p.vhosts = s.list("vhosts");
  p.users = s.list("users");
  p.permissions = s.list("permissions");
  p.secrets = s.list("secrets");
  p.push_secrets = s.list("push_secrets");
  p.delivered_secret = s.one("delivered");
  p.read_by_name = s.read_by_name;
  p.now = s.now;
  p.random = random;
  return p;
}

rt::order_plan order_plan_of(const pass_plan& p, const pass_snapshot& s) {
  rt::order_plan out;
  out.writes = p.writes;
  const bool teardown = p.stage == pass_stage::teardown;
  out.replan_after_writes = !teardown;
  // With the ControlPlane gone a failed delete is logged and the finalizer
  // released anyway; with it present the pass comes back.
  out.fail_open = teardown && p.release_finalizer;
  if (p.add_finalizer) out.finalizer = rt::finalizer_op::add;
  if (p.release_finalizer) out.finalizer = rt::finalizer_op::release;
  if (p.status_changed) {
    auto b = s.order->edit();
    write_status(b, p.status);
    k8s::write_conditions(b, p.conditions);
    out.status = std::move(b).freeze();
  }
  out.requeue = p.requeue;
  // A time the pass has reached is not armed again: the step saw it due and
  // acted on it (a rotation in flight waits for its children's events; what
  // waits on anything else asks for its own requeue).
  auto arm = [&](const char* name, const std::optional<k8s::time_point>& at) {
    if (at && *at > s.now) out.timers[name] = *at;
  };
  if (!teardown) {
    arm("rotation", p.status.next_rotation);
    if (p.status.previous_password_generation > 0) arm("grace", p.status.previous_password_delete_at);
  }
  if (p.stage == pass_stage::legs) out.instrument = p.conditions;
  if (p.stage == pass_stage::legs || p.stage == pass_stage::refused_gate) waiting_of(p, s, out);
  switch (p.stage) {
    case pass_stage::refused_admission: out.stage = "admission"; break;
    case pass_stage::add_finalizer: out.stage = "finalizer"; break;
    case pass_stage::refused_gate: out.stage = "messaging gate"; break;
    case pass_stage::legs: out.stage = "legs"; break;
    case pass_stage::teardown: out.stage = "teardown"; break;
  }
  return out;
}

std::shared_ptr<const rt::kind_declaration> declaration(random_source random) {
  if (!random) random = system_random();
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "rabbitmqvhost";
  k->gvk = order_gvk();
  k->keys = keys();
  k->finalizer = std::string(finalizer);
  k->reads = reads();
  k->plan = [random](const rt::sense_snapshot& s) {
    auto snap = snapshot_of(s, random);
    return order_plan_of(plan_pass(snap), snap);
  };
  for (const auto& e : sub_reconcilers)
    k->instrumenter.push_back({std::string(e.sub_reconciler), std::string(e.condition_type)});
  return k;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
