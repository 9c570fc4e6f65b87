#include "actors/c5c3/keystoneapplicationcredential/declaration.hpp"

#include "actors/c5c3/keystoneapplicationcredential/gates.hpp"
#include "actors/c5c3/keystoneuser/constants.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/order_declaration.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/backup_delivery.hpp"
#include "actors/c5c3/scaffold/status_fields.hpp"

namespace c5c3::c5c3::keystoneapplicationcredential {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() { return korc::ownership_keys_of(label_keys()); }

const k8s::gvk secret_gvk{"", "v1", "Secret"};

const k8s::object* live_control_plane(const rt::sense_snapshot& s) {
  return s.order.terminating() ? nullptr : s.control_plane_or_null();
}

// The child an unconverged order waits for, by the reason of its first
// sub-condition that is not True.
void waiting_of(const korc::order_pass_plan& p, const pass_snapshot& s, rt::order_plan& out) {
  if (!p.status) return;
  const credential_order o = make_credential_order(*p.status, s.cluster);
  const credential_names n(o.id.ref);
  for (const auto& c : p.status->conditions()) {
    if (c.type == "Ready" || c.is_true()) continue;
    const std::string& r = c.reason;
    if (r == reason_waiting_for_credential || r == reason_credential_failed ||
        r == korc::reason_transport_error_retry_failed) {
      out.waiting_slot = "credentials";
    } else if (r == reason_backup_not_synced) {
      out.waiting_slot = "push_secrets";
      out.waiting_name = n.backup();
    } else if (r == reason_waiting_for_user || r == reason_user_not_found) {
      out.waiting_slot = korc::slot_user;
    } else if (r == reason_waiting_for_project || r == reason_project_not_found) {
      out.waiting_slot = korc::slot_project;
    } else if (r == reason_no_role_on_project) {
      out.waiting_slot = "role_assignments";
    } else if (r == reason_waiting_for_ca_bundle) {
      out.waiting_slot = "ca_bundle";
    }
    return;
  }
}

}  // namespace

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  std::vector<rt::read_slot> out = korc::reference_slots();
  auto assignments = rt::listed("role_assignments", korc::role_assignment_gvk(), "", rt::namespace_role::order, true);
  assignments.cluster = rt::cluster_role::order;
  assignments.locate = [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
    if (s.order.terminating()) return std::nullopt;
    return rt::locator{};
  };
  out.push_back(std::move(assignments));

  // The user's password Secret of its status.passwordGeneration, from the
  // informer of the KeystoneUser's Secrets.
  auto password = rt::named(
      "password", secret_gvk,
      [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        const auto* user = s.one(korc::slot_user);
        if (s.order.terminating() || !user) return std::nullopt;
        const auto gen = status_int(*user, "passwordGeneration");
        if (gen <= 0) return std::nullopt;
        return rt::locator{std::nullopt,
                           user_children_of(user->name(), s.key.namespace_, s.key.cluster, gen).password_secret};
      },
      std::string(keystoneuser::label_name));
  password.after = {std::string(korc::slot_user)};
  out.push_back(std::move(password));

  // The CA bundle an External ControlPlane names: not labelled, so the API
  // server (the informer of the order's own Secrets never holds it).
  auto ca = rt::named(
      "ca_bundle", secret_gvk,
      [](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        const auto* cp = live_control_plane(s);
        if (!cp) return std::nullopt;
        auto ref = korc::keystone_ca_bundle(*cp);
        if (ref.name.empty()) return std::nullopt;
        return rt::locator{std::string(cp->namespace_()), ref.name};
      },
      k.name);
  ca.server_fallback = true;
  out.push_back(std::move(ca));

  out.push_back(rt::children("credentials", korc::gvk("ApplicationCredential"), k));
  out.push_back(rt::children("secrets", secret_gvk, k, false));
  out.push_back(rt::children("push_secrets", {"external-secrets.io", "v1alpha1", "PushSecret"}, k));
  out.push_back(delivered_secret_slot(k, credentials_secret_suffix));
  return out;
}

std::vector<rt::reference_field> references() {
  // The user (its password generation too), the project, and every
  // assignment of the same user and project (korc::same_user_and_project):
  // an assignment reporting its role wakes the credential orders of that pair.
  auto out = korc::user_project_references();
  for (auto& r : out)
    if (r.gvk.kind == korc::keystone_user_gvk().kind) r.passes = user_update_passes;
  auto assignments = korc::same_user_and_project(korc::role_assignment_gvk());
  assignments.passes = role_assignment_update_passes;
  out.push_back(std::move(assignments));
  return out;
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s, const random_source& random) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.user = s.one(korc::slot_user);
  p.project = s.one(korc::slot_project);
  p.users_served = s.served(korc::slot_user);
  p.projects_served = s.served(korc::slot_project);
  p.role_assignments = s.list("role_assignments");
  p.password_secret = s.one("password");
  p.ca_bundle_secret = s.one("ca_bundle");
  p.credentials_served = s.served("credentials");
  p.credentials = s.list("credentials");
  p.secrets = s.list("secrets");
  p.push_secrets = s.list("push_secrets");
  p.delivered_secret = s.one("delivered");
  p.read_by_name = s.read_by_name;
  p.failures = s.write_failures;
  p.now = s.now;
  p.random = random;
  return p;
}

rt::order_plan order_plan_of(const korc::order_pass_plan& p, const pass_snapshot& s) {
  auto out = korc::runner_plan(p);
  if (p.stage == korc::pass_stage::legs || p.stage == korc::pass_stage::refused_reference) waiting_of(p, s, out);
  return out;
}

std::shared_ptr<const rt::kind_declaration> declaration(random_source random) {
  if (!random) random = system_random();
  auto k = korc::order_declaration("keystoneapplicationcredential", order_gvk(), label_keys(), finalizer, sub_reconcilers);
  k->reads = reads();
  k->references = references();
  k->plan = [random](const rt::sense_snapshot& s) {
    auto snap = snapshot_of(s, random);
    return order_plan_of(plan_pass(snap), snap);
  };
  return k;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
