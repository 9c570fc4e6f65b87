#include "actors/c5c3/keystoneuser/provision.hpp"

#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/names.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/korc/probe.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneuser {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

class provisioner {
 public:
  explicit provisioner(const provision_snapshot& s)
      : s_(s), o_(*s.order), n_(o_.id.ref), cp_(*s.control_plane), ns_(cp_.namespace_()),
        domain_(korc::admin_domain_name(cp_)), now_(korc::pass_clock(s.now)) {
    p_.status = o_.status;
  }

  provision_plan run();

 private:
  provision_plan fail(std::string_view reason, std::string message, requeue r) {
    p_.user_ready = make_condition(condition_type_user_ready, false, reason, message, o_.id.generation);
    p_.requeue = r;
    return finish();
  }
  // The plan, with the probe's delete (if any) after every other write.
  provision_plan finish() {
    for (auto& w : probe_drop_) p_.writes.push_back(std::move(w));
    probe_drop_.clear();
    return std::move(p_);
  }
  // The object of that name as listed, else as a create met it.
  const k8s::object* listed(std::string_view kind, std::string_view name) const {
    if (const auto* o = find_named(kind == "User" ? s_.users : s_.secrets, kind, name)) return o;
    return find_named(s_.read_by_name, kind, name);
  }
  std::string key(std::string_view name) const { return fmt::format("{}/{}", ns_, name); }
  provision_plan outcome(const k8s::object& user, std::int64_t gen);
  void prune(const k8s::object& user, std::int64_t gen);

  const provision_snapshot& s_;
  const user_order& o_;
  user_names n_;
  const k8s::object& cp_;
  std::string ns_;
  std::string domain_;
  k8s::time_point now_;
  provision_plan p_;
  std::vector<child_write> probe_drop_;  // the probe's delete, written last
};

provision_plan provisioner::run() {
  // 1. A name the ControlPlane reserves in the admin domain: never provisioned;
  // only an edit of the ControlPlane clears it (the refresh only).
  if (korc::reserved(o_.user_name, korc::reserved_user_names(cp_)))
    return fail(reason_service_account_collision,
                fmt::format("the order resolves to Keystone user \"{}\" in domain \"{}\", which ControlPlane {}/{} "
                            "reserves for its admin identity or a built-in service account; it is never provisioned",
                            o_.user_name, domain_, ns_, cp_.name()),
                std::nullopt);

  // 2. The password is backed up through the namespace's own store.
  if (!s_.store.ready)
    return fail(reason_secret_store_not_ready,
                fmt::format("{} \"{}\" in namespace \"{}\" is not ready; the password cannot be backed up to OpenBao",
                            s_.store.kind, s_.store.name, ns_),
                korc_requeue_after);
  if (!s_.users_served)
    return fail(reason_service_account_error,
                "the management cluster serves no users.openstack.k-orc.cloud; install K-ORC (the OpenStack "
                "Resource Controller)",
                order_refresh_after);

  // 3. The collision probe, while the order owns no managed User.
  const auto creds = korc::admin_password_cloud(cp_);
  const auto domain_ref = korc::admin_domain_ref(cp_);
  const k8s::object* user = listed("User", n_.user());
  korc::probe_gate_input pin{&o_.id.ref,
                             find_named(s_.users, "User", n_.user()),
                             find_named(s_.users, "User", n_.probe()),
                             korc::unmanaged_import("User", n_.probe(), ns_, o_.user_name, domain_ref, creds),
                             true,
                             s_.read_by_name};
  auto gate = korc::probe_gate(pin);
  // Passing the gate, its writes are the probe's delete (the name is free,
  // or the User is ours): it goes after the password Secret and the managed
  // User, so an operator restarted between two writes of this plan meets the
  // probe (or the User) again, never neither, and makes no second probe.
  for (auto& w : gate.writes) (gate.proceed ? probe_drop_ : p_.writes).push_back(std::move(w));
  if (!gate.refusal.empty())
    return fail(reason_service_account_error, "probing for a pre-existing user: " + gate.refusal, std::nullopt);
  if (!gate.proceed) {
    if (gate.verdict == korc::probe_verdict::resolved)
      return fail(reason_service_account_collision,
                  fmt::format("Keystone user \"{}\" in domain \"{}\" already exists (User {} found it); the order "
                              "never takes over a user it did not create; pick another userName or delete the order",
                              o_.user_name, domain_, key(n_.probe())),
                  korc_requeue_after);
    return fail(reason_probing_for_collision,
                fmt::format("probing whether Keystone user \"{}\" already exists before creating it (User {}: {})",
                            o_.user_name, key(n_.probe()),
                            gate.probe ? korc::pending_message(*gate.probe) : "being written"),
                korc_requeue_after);
  }

  // 4. The password Secret of the generation, then the managed User naming it.
  const std::int64_t gen = desired_generation(o_, user);
  order_secret_spec secret{ns_, n_.password(gen), {}, {std::string(key_password)}, {}};
  auto ensured_secret = ensure_order_secret(o_.id.ref, secret, listed("Secret", secret.name), s_.random);
  if (ensured_secret.ensure.refused())
    return fail(reason_service_account_error,
                fmt::format("ensuring the password Secret of generation {}: {}", gen, ensured_secret.ensure.refusal),
                std::nullopt);
  // The writes go out in order: the Secret exists before the User naming it,
  // and the probe goes after both.
  if (ensured_secret.ensure.write) p_.writes.push_back(*ensured_secret.ensure.write);
  auto desired = korc::managed_user(n_.user(), ns_, o_.user_name, domain_ref, n_.password(gen), creds);
  auto ensured_user = ensure_order_child(o_.id.ref, desired, user);
  if (ensured_user.refused())
    return fail(reason_service_account_error, "ensuring the managed user: " + ensured_user.refusal, std::nullopt);
  if (ensured_user.write) {
    p_.writes.push_back(*ensured_user.write);
    return fail(reason_waiting_for_service_accounts,
                fmt::format("User {} is being written with password generation {}", key(n_.user()), gen),
                korc_requeue_after);
  }

  // 5. userID.
  if (auto id = korc::status_id(*user); !id.empty()) p_.status.user_id = id;
  prune(*user, gen);
  return outcome(*user, gen);
}

// Older password Secrets go once K-ORC has applied the current one.
void provisioner::prune(const k8s::object& user, std::int64_t gen) {
  if (korc::status_resource(user, "appliedPasswordRef") != n_.password(gen)) return;
  for (const auto& secret : s_.secrets) {
    auto m = generation_of(secret.name(), n_.password_prefix());
    if (m && *m < gen && owns_order_child(secret, o_.id.ref) && !secret.terminating())
      p_.writes.push_back(make_delete(secret));
  }
}

// 6-7. The unlatch, a terminal error, the wait, or provisioned.
provision_plan provisioner::outcome(const k8s::object& user, std::int64_t gen) {
  const std::string user_key = key(user.name());
  auto unlatch = korc::plan_unlatch(user, s_.failures, s_.now);
  requeue wait = korc_requeue_after;
  switch (unlatch.step) {
    case korc::unlatch_step::failed:
      return fail(korc::reason_transport_error_retry_failed, unlatch.message, korc_requeue_after);
    case korc::unlatch_step::clearing:
      for (auto& w : unlatch.writes) p_.writes.push_back(std::move(w));
      return fail(reason_waiting_for_service_accounts,
                  fmt::format("K-ORC could not reach Keystone for User {}; it is handed back to K-ORC to retry: {}",
                              user_key, korc::pending_message(user)),
                  korc_requeue_after);
    case korc::unlatch_step::waiting: wait = shortest_requeue(wait, unlatch.requeue); break;
    case korc::unlatch_step::deferred:
    case korc::unlatch_step::not_latched: break;
  }
  if (auto err = korc::terminal_error(user))
    return fail(reason_service_accounts_failed,
                fmt::format("K-ORC reported a terminal error on User {}: {}", user_key, *err), wait);
  const bool applied = korc::status_resource(user, "appliedPasswordRef") == n_.password(gen);
  if (!korc::available_up_to_date(user))
    return fail(reason_waiting_for_service_accounts,
                fmt::format("User {} is registered but not yet Available: {}", user_key, korc::pending_message(user)),
                wait);
  if (!applied)
    return fail(reason_waiting_for_service_accounts,
                fmt::format("awaiting K-ORC to apply password generation {} to User {}", gen, user_key), wait);
  // The rotation is recorded on the pass that switches to the new generation
  // (the pass that re-points passwordRef plans again on the User it wrote, so
  // the switch is what the status can be derived from).
  if (p_.status.password_generation > 0 && gen > p_.status.password_generation) p_.status.last_password_rotation = now_;
  p_.status.password_generation = gen;
  p_.user_ready = make_condition(condition_type_user_ready, true, reason_user_provisioned,
                                 fmt::format("Keystone user \"{}\" is provisioned in domain \"{}\" at password "
                                             "generation {} (User {})",
                                             o_.user_name, domain_, gen, user_key),
                                 o_.id.generation);
  p_.requeue = std::nullopt;
  p_.provisioned = true;
  return finish();
}

}  // namespace

std::int64_t desired_generation(const user_order& order, const k8s::object* managed_user) {
  std::int64_t gen = std::max(order.password_generation, order.status.password_generation);
  if (managed_user && *managed_user) {
    user_names n(order.id.ref);
    if (auto live = generation_of(managed_user->get_string({"spec", "resource", "passwordRef"}), n.password_prefix()))
      gen = std::max(gen, *live);
  }
  return std::max<std::int64_t>(gen, 1);
}

provision_plan provision_user(const provision_snapshot& s) { return provisioner(s).run(); }

}  // namespace c5c3::c5c3::keystoneuser
