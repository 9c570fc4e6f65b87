#include "actors/c5c3/keystoneapplicationcredential/provision.hpp"

#include "actors/c5c3/keystoneapplicationcredential/generations.hpp"
#include "actors/c5c3/keystoneapplicationcredential/mint_cloud.hpp"
#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneapplicationcredential {
namespace {

using d = k8s::clock::duration;

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (const auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

const k8s::object* at(const std::map<std::int64_t, k8s::object>& m, std::int64_t gen) {
  auto it = m.find(gen);
  return it == m.end() ? nullptr : &it->second;
}

class provisioner {
 public:
  explicit provisioner(const provision_snapshot& s)
      : s_(s), o_(*s.order), n_(o_.id.ref), cp_(*s.control_plane), ns_(cp_.namespace_()), now_(korc::pass_clock(s.now)) {
    p_.status = o_.status;
  }

  provision_plan run();

 private:
  void fail(std::string_view reason, std::string message, requeue r) {
    p_.credential_ready = make_condition(condition_type_credential_ready, false, reason, message, o_.id.generation);
    p_.requeue = r;
  }
  // CredentialMinted for the live credential, unless its expiry has passed:
  // then it is no longer valid and the order waits for its successor
  // (WaitingForCredential; the reference names no reason of its own).
  void set_minted(std::string message, std::string successor = "its successor is not yet minted") {
    if (const auto& exp = p_.status.credential_expires_at; exp && now_ >= *exp) {
      p_.credential_ready = make_condition(
          condition_type_credential_ready, false, reason_waiting_for_credential,
          fmt::format("credential generation {} (ApplicationCredential {}/{}) expired at {}; {}",
                      p_.status.credential_generation, ns_, n_.credential(p_.status.credential_generation),
                      k8s::format_rfc3339(*exp), successor),
          o_.id.generation);
      return;
    }
    p_.credential_ready = make_condition(condition_type_credential_ready, true, reason_credential_minted, message,
                                         o_.id.generation);
  }
  std::string minted_message() const {
    return fmt::format("credential generation {} (id {}) is minted for user \"{}\" on project \"{}\" "
                       "(ApplicationCredential {}/{})",
                       p_.status.credential_generation, p_.status.credential_id, keystone_user_name(*s_.user),
                       keystone_project_name(*s_.project), ns_, n_.credential(p_.status.credential_generation));
  }
  // The object of that name as listed, else as a create met it.
  const k8s::object* live(const k8s::object* listed, std::string_view kind, std::string_view name) const {
    return listed ? listed : find_named(s_.read_by_name, kind, name);
  }
  provision_plan finish() { return std::move(p_); }

  requeue mint(const credential_generations& children, std::int64_t gen);
  void sweep_grace(const credential_generations& children);

  const provision_snapshot& s_;
  const credential_order& o_;
  credential_names n_;
  const k8s::object& cp_;
  std::string ns_;
  k8s::time_point now_;
  provision_plan p_;
};

provision_plan provisioner::run() {
  if (!s_.credentials_served) {
    fail(reason_credential_error,
         "the management cluster serves no applicationcredentials.openstack.k-orc.cloud; install K-ORC (the "
         "OpenStack Resource Controller)",
         order_refresh_after);
    return finish();
  }
  // 1. The mint document.
  mint_cloud_input mc{&o_, &cp_, s_.user, s_.project, s_.password_secret, s_.ca_bundle_secret,
                      live(find_named(s_.secrets, "Secret", n_.mint_cloud()), "Secret", n_.mint_cloud())};
  auto doc = ensure_mint_cloud(mc);
  if (!doc.ready) {
    fail(doc.reason, doc.message, doc.requeue);
    return finish();
  }
  if (doc.write) p_.writes.push_back(*doc.write);

  // 2-4. The generations, the one the pass works toward, the strays.
  const auto children = credential_children(o_, s_.credentials, s_.secrets);
  const std::int64_t cur = p_.status.credential_generation;
  const std::int64_t desired = desired_generation(o_, children, now_);
  for (auto& w : prune_stray_generations(o_, children, desired)) p_.writes.push_back(std::move(w));

  // 5. Mint the next generation, or report the live one.
  requeue result;
  if (desired > cur)
    result = mint(children, desired);
  else
    set_minted(minted_message());

  // 6. The grace sweep.
  sweep_grace(children);

  // 7. The schedule.
  p_.status.next_rotation = next_rotation(o_.rotation, p_.status);
  p_.requeue = shortest_requeue(
      result, shortest_requeue(requeue_until(p_.status.next_rotation, now_),
                               shortest_requeue(requeue_until(p_.status.previous_credential_delete_at, now_),
                                                requeue_until(p_.status.credential_expires_at, now_))));
  return finish();
}

requeue provisioner::mint(const credential_generations& children, std::int64_t gen) {
  const std::int64_t cur = p_.status.credential_generation;
  const std::string ac_key = ns_ + "/" + n_.credential(gen);

  // The secret K-ORC mints with, generated once (generatedAppCredValueMutator).
  order_secret_spec secret{ns_, n_.secret(gen), {}, {std::string(key_value)}, {}, {}};
  auto ensured_secret = ensure_order_secret(o_.id.ref, secret, live(at(children.secrets, gen), "Secret", secret.name),
                                            s_.random);
  if (ensured_secret.ensure.refused()) {
    fail(reason_credential_error,
         fmt::format("ensuring the secret of credential generation {}: {}", gen, ensured_secret.ensure.refusal),
         std::nullopt);
    return std::nullopt;
  }
  if (ensured_secret.ensure.write) p_.writes.push_back(*ensured_secret.ensure.write);

  // The ApplicationCredential, created once: a live one is never applied
  // again (its resource is immutable, its expiry fixed at the mint).
  const k8s::object* ac = live(at(children.credentials, gen), "ApplicationCredential", n_.credential(gen));
  if (ac && *ac && !is_order_child(*ac, o_.id.ref)) {
    fail(reason_credential_error, refusing_to_adopt_message("ApplicationCredential", {ns_, n_.credential(gen)}),
         std::nullopt);
    return std::nullopt;
  }
  if (!ac || !*ac) {
    std::optional<k8s::time_point> expires;
    if (o_.rotation.on())
      expires = now_ + std::chrono::duration_cast<d>(o_.rotation.interval + o_.rotation.grace_period);
    const auto user = user_children_of(s_.user->name(), o_.id.ref.namespace_, o_.id.ref.cluster, 0);
    auto desired = korc::managed_application_credential(
        n_.credential(gen), ns_,
        fmt::format("KeystoneApplicationCredential {}/{} generation {}", o_.id.ref.namespace_, o_.id.ref.name, gen),
        user.managed_user, n_.secret(gen), expires, {n_.mint_cloud(), korc::cloud_name(cp_)});
    auto ensured = ensure_order_child(o_.id.ref, desired, nullptr);
    p_.writes.push_back(*ensured.write);
  }
  auto waiting = [&](std::string pending) {
    if (cur == 0) {
      fail(reason_waiting_for_credential,
           fmt::format("credential generation {} (ApplicationCredential {}) is registered but not yet Available: {}",
                       gen, ac_key, pending),
           korc_requeue_after);
    } else {
      // The delivered credential stays valid while its successor is minted.
      const auto minting = fmt::format("generation {} is being minted (ApplicationCredential {}: {})", gen, ac_key,
                                       pending);
      set_minted(fmt::format("credential generation {} is delivered; {}", cur, minting), minting);
    }
    return korc_requeue_after;
  };
  if (!ac || !*ac) return waiting("being written");

  // A latched transport error goes back to K-ORC first.
  requeue wait = korc_requeue_after;
  auto unlatch = korc::plan_unlatch(*ac, s_.failures, s_.now);
  switch (unlatch.step) {
    case korc::unlatch_step::failed:
      fail(korc::reason_transport_error_retry_failed, unlatch.message, korc_requeue_after);
      return korc_requeue_after;
    case korc::unlatch_step::clearing:
      for (auto& w : unlatch.writes) p_.writes.push_back(std::move(w));
      return waiting(fmt::format("K-ORC could not reach Keystone; handed back to K-ORC to retry: {}",
                                 korc::pending_message(*ac)));
    case korc::unlatch_step::waiting: wait = shortest_requeue(wait, unlatch.requeue); break;
    case korc::unlatch_step::deferred:
    case korc::unlatch_step::not_latched: break;
  }
  if (auto err = korc::terminal_error(*ac)) {
    fail(reason_credential_failed,
         fmt::format("K-ORC reported a terminal error on credential generation {} (ApplicationCredential {}): {}", gen,
                     ac_key, *err),
         wait);
    return wait;
  }
  const std::string id = korc::status_id(*ac);
  if (!korc::available_up_to_date(*ac) || id.empty()) {
    waiting(korc::pending_message(*ac));
    return wait;
  }

  // Available: status switches to it; the superseded one has its grace period.
  if (cur > 0) {
    p_.status.previous_credential_id = p_.status.credential_id;
    p_.status.previous_credential_generation = cur;
    p_.status.previous_credential_delete_at = now_ + std::chrono::duration_cast<d>(o_.rotation.grace_period);
  }
  p_.status.credential_id = id;
  p_.status.credential_generation = gen;
  p_.status.last_rotation = now_;
  // The expiry Keystone holds, as K-ORC reports it; the spec's while it
  // reports none it can be read as (a real Keystone's has no zone).
  p_.status.credential_expires_at = credential_expiry(*ac);
  set_minted(minted_message());
  return std::nullopt;
}

void provisioner::sweep_grace(const credential_generations& children) {
  const auto& delete_at = p_.status.previous_credential_delete_at;
  if (!delete_at || now_ < *delete_at) return;
  const std::int64_t prev = p_.status.previous_credential_generation;
  if (const k8s::object* ac = at(children.credentials, prev)) {
    // K-ORC deletes it in Keystone through the mint document; the child
    // watch brings the order back once it lets go.
    if (!ac->terminating()) p_.writes.push_back(make_delete(*ac));
    return;
  }
  // The pass that no longer lists it.
  if (const k8s::object* secret = at(children.secrets, prev); secret && !secret->terminating())
    p_.writes.push_back(make_delete(*secret));
  p_.status.previous_credential_id.clear();
  p_.status.previous_credential_generation = 0;
  p_.status.previous_credential_delete_at.reset();
}

}  // namespace

requeue requeue_until(const std::optional<k8s::time_point>& t, k8s::time_point now) {
  if (!t || *t <= now) return std::nullopt;
  return std::chrono::duration_cast<duration>(*t - now);
}

provision_plan provision_credential(const provision_snapshot& s) { return provisioner(s).run(); }

}  // namespace c5c3::c5c3::keystoneapplicationcredential
