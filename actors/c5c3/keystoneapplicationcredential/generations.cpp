#include "actors/c5c3/keystoneapplicationcredential/generations.hpp"

#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <algorithm>
#include <initializer_list>

namespace c5c3::c5c3::keystoneapplicationcredential {

credential_generations credential_children(const credential_order& order, const std::vector<k8s::object>& credentials,
                                           const std::vector<k8s::object>& secrets) {
  const credential_names n(order.id.ref);
  credential_generations out;
  auto key = [&](const std::vector<k8s::object>& items, const std::string& prefix,
                 std::map<std::int64_t, k8s::object>& into) {
    for (const auto& obj : items)
      if (auto gen = generation_of(obj.name(), prefix); gen && owns_order_child(obj, order.id.ref))
        into.emplace(*gen, obj);
  };
  key(credentials, n.credential_prefix(), out.credentials);
  key(secrets, n.secret_prefix(), out.secrets);
  return out;
}

std::optional<k8s::time_point> next_rotation(const rotation_schedule& rotation, const credential_status& status) {
  if (!rotation.on() || !status.last_rotation) return std::nullopt;
  using d = k8s::clock::duration;
  auto next = *status.last_rotation + std::chrono::duration_cast<d>(rotation.interval);
  if (status.credential_expires_at)
    next = std::min(next, *status.credential_expires_at - std::chrono::duration_cast<d>(rotation.grace_period));
  return next;
}

std::optional<k8s::time_point> credential_expiry(const k8s::object& credential) {
  for (auto path : {std::initializer_list<std::string_view>{"status", "resource", "expiresAt"},
                    std::initializer_list<std::string_view>{"spec", "resource", "expiresAt"}})
    if (auto t = k8s::parse_rfc3339(credential.get_string(path))) return t;
  return std::nullopt;
}

std::int64_t desired_generation(const credential_order& order, const credential_generations& children,
                                k8s::time_point now) {
  const std::int64_t declared = order.declared_generation;
  const credential_status& st = order.status;
  const std::int64_t cur = st.credential_generation;
  if (cur == 0) return declared;
  auto due = [&](const std::optional<k8s::time_point>& t) { return t && now >= *t; };
  // A rotation in flight; one K-ORC gave up on is given up once a higher
  // generation is declared, one whose expiry passed before it was minted at once.
  std::int64_t in_flight = 0, expired = 0;
  for (const auto& [gen, ac] : children.credentials) {
    if (gen <= cur) continue;
    if (due(credential_expiry(ac)))
      expired = std::max(expired, gen);
    else if (!korc::terminal_error(ac) || gen >= declared)
      in_flight = std::max(in_flight, gen);
  }
  if (in_flight > expired) return in_flight;
  // No rotation starts while a grace period runs: never more than two credentials.
  if (st.previous_credential_delete_at) return cur;

  bool rotate = expired > 0 || declared > cur || due(next_rotation(order.rotation, st)) || due(st.credential_expires_at);
  // Keystone shows a credential's secret once: a lost one is rotated.
  auto secret = children.secrets.find(cur);
  if (secret == children.secrets.end() || secret_value(secret->second, key_value).value_or("").empty()) rotate = true;
  return rotate ? std::max({declared, cur + 1, expired + 1}) : cur;
}

std::vector<child_write> prune_stray_generations(const credential_order& order,
                                                 const credential_generations& children, std::int64_t desired) {
  const credential_status& st = order.status;
  auto keep = [&](std::int64_t gen) {
    return gen == st.credential_generation || gen == desired ||
           (st.previous_credential_delete_at && gen == st.previous_credential_generation);
  };
  std::vector<child_write> out;
  for (const auto* kind : {&children.credentials, &children.secrets})
    for (const auto& [gen, obj] : *kind)
      if (!keep(gen) && !obj.terminating()) out.push_back(make_delete(obj));
  return out;
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
