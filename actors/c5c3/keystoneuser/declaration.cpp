#include "actors/c5c3/keystoneuser/declaration.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/order_declaration.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"

namespace c5c3::c5c3::keystoneuser {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() { return korc::ownership_keys_of(label_keys()); }

const k8s::gvk secret_gvk{"", "v1", "Secret"};

}  // namespace

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  std::vector<rt::read_slot> out{
      rt::children("users", korc::gvk("User"), k),
      rt::children("secrets", secret_gvk, k, false),
      rt::children("push_secrets", {"external-secrets.io", "v1alpha1", "PushSecret"}, k),
  };
  out.push_back(delivered_secret_slot(k, credentials_secret_suffix));
  for (auto& slot : secret_store_slots()) out.push_back(std::move(slot));
  for (auto& slot : korc::hold_slots()) out.push_back(std::move(slot));
  return out;
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s, const random_source& random) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  if (p.control_plane) p.store = secret_store_of(s);
  p.users_served = s.served("users");
  p.users = s.list("users");
  p.secrets = s.list("secrets");
  p.push_secrets = s.list("push_secrets");
  p.delivered_secret = s.one("delivered");
  p.role_assignments = s.list(korc::slot_role_assignments);
  p.application_credentials = s.list(korc::slot_application_credentials);
  p.read_by_name = s.read_by_name;
  p.failures = s.write_failures;
  p.now = s.now;
  p.random = random;
  return p;
}

std::shared_ptr<const rt::kind_declaration> declaration(random_source random) {
  if (!random) random = system_random();
  auto k = korc::order_declaration("keystoneuser", order_gvk(), label_keys(), finalizer, sub_reconcilers);
  k->reads = reads();
  k->referenced_by = korc::hold_references("userRef");
  k->plan = [random](const rt::sense_snapshot& s) {
    auto snap = snapshot_of(s, random);
    return korc::runner_plan(plan_pass(snap));
  };
  return k;
}

}  // namespace c5c3::c5c3::keystoneuser
