#include "actors/runtime/shard/lease_state.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::runtime::shard {

const char* to_string(member_state s) {
  switch (s) {
    case member_state::ready: return "ready";
    case member_state::expired: return "expired";
    case member_state::released: return "released";
  }
  return "released";
}

lease_info lease_of(const k8s::object& lease) {
  lease_info l;
  l.name = std::string(lease.name());
  l.holder = std::string(lease.get_string({"spec", "holderIdentity"}));
  auto renew = lease.get_string({"spec", "renewTime"});
  if (renew.empty()) renew = lease.get_string({"spec", "acquireTime"});
  if (!renew.empty()) l.renew_time = k8s::parse_rfc3339(renew);
  if (const auto* d = lease.get({"spec", "leaseDurationSeconds"}); d && d->IsInt64())
    l.duration = std::chrono::seconds(std::max<std::int64_t>(d->GetInt64(), 0));
  return l;
}

std::optional<k8s::time_point> expiry_of(const lease_info& l) {
  if (l.holder.empty() || !l.renew_time || l.duration <= std::chrono::seconds(0)) return std::nullopt;
  return *l.renew_time + l.duration;
}

std::optional<k8s::time_point> fading_at(const lease_info& l) {
  if (!expiry_of(l)) return std::nullopt;
  return *l.renew_time + l.duration * 2 / 3;
}

member_state state_of(const lease_info& l, k8s::time_point now) {
  if (l.holder.empty()) return member_state::released;
  auto e = expiry_of(l);
  return e && now < *e ? member_state::ready : member_state::expired;
}

member_view members_of(const std::vector<lease_info>& leases, k8s::time_point now) {
  member_view v;
  std::vector<std::string> fresh;  // holders of a ready Lease not fading
  for (const auto& l : leases) {
    if (state_of(l, now) != member_state::ready) continue;
    v.ready.push_back(l.holder);
    auto fades = *fading_at(l);
    (fades <= now ? v.fading : fresh).push_back(l.holder);
    auto e = fades > now ? fades : *expiry_of(l);
    if (!v.next_expiry || e < *v.next_expiry) v.next_expiry = e;
  }
  for (auto* names : {&v.ready, &v.fading, &fresh}) {
    std::sort(names->begin(), names->end());
    names->erase(std::unique(names->begin(), names->end()), names->end());
  }
  // A holder with two Leases of the ring, one of them renewed, is not fading.
  std::erase_if(v.fading, [&](const std::string& h) { return std::binary_search(fresh.begin(), fresh.end(), h); });
  return v;
}

std::string format_micro_time(k8s::time_point t) {
  auto s = k8s::format_rfc3339(t);  // "...:SSZ"
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count() % 1000000;
  if (us < 0) us += 1000000;
  s.pop_back();
  return s + fmt::format(".{:06d}Z", us);
}

k8s::object make_lease(const std::string& namespace_, const std::string& name, const std::string& holder,
                       const std::string& ring, std::chrono::seconds duration, k8s::time_point now) {
  k8s::object_builder b("coordination.k8s.io/v1", "Lease", namespace_, name);
  b.set_label(ring_label, ring);
  b.set_string({"spec", "holderIdentity"}, holder);
  b.set_int({"spec", "leaseDurationSeconds"}, duration.count());
  b.set_string({"spec", "renewTime"}, format_micro_time(now));
  return std::move(b).freeze();
}

}  // namespace c5c3::runtime::shard
