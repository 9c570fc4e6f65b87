#include "actors/runtime/shard/claim.hpp"

#include "actors/runtime/shard/lease_state.hpp"

#include <algorithm>
#include <charconv>

namespace c5c3::runtime::shard {

const char* to_string(decision d) {
  switch (d) {
    case decision::keep: return "keep";
    case decision::claim: return "claim";
    case decision::drain: return "drain";
    case decision::release: return "release";
    case decision::ignore: return "ignore";
  }
  return "ignore";
}

decision decide(const claim_input& in) {
  if (in.claim != in.me) return in.actor_running ? decision::drain : [&] {
    if (in.members.empty() || in.members.owner(in.key) != in.me) return decision::ignore;
    if (in.claim.empty()) return decision::claim;
    const auto& m = in.members.members();
    bool holder_ready = std::binary_search(m.begin(), m.end(), in.claim);
    return holder_ready ? decision::ignore : decision::claim;
  }();
  // I hold it.
  if (!in.members.empty() && in.members.owner(in.key) == in.me) return decision::keep;
  if (in.members.empty()) return in.actor_running ? decision::drain : decision::ignore;
  return in.actor_running ? decision::drain : decision::release;
}

namespace {
std::string json_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string claim_patch(const std::string& me, const std::string& resource_version, int claims,
                        const std::string& previous) {
  return std::string("{\"metadata\":{\"resourceVersion\":") + json_quoted(resource_version) +
         ",\"labels\":{\"" + claim_label + "\":" + json_quoted(me) + "},\"annotations\":{\"" +
         claims_annotation + "\":" + json_quoted(std::to_string(claims)) + ",\"" + previous_annotation +
         "\":" + (previous.empty() ? std::string("null") : json_quoted(previous)) + "}}}";
}

namespace {
// The recorded claims count: 0 when none is recorded, -1 when unreadable.
int claims_of(const k8s::object& order) {
  auto v = order.annotation(claims_annotation);
  if (!v) return 0;
  int n = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec != std::errc() || end != v->data() + v->size() || n < 0) return -1;
  return n;
}
}  // namespace

int claims_after(const k8s::object& order) {
  auto n = claims_of(order);
  if (n < 0) n = 1;
  if (!order.label(claim_label).value_or("").empty()) n = std::max(n, 1);  // claimed before counts began
  return n + 1;
}

bool only_holder(const k8s::object& order, const std::string& me) {
  return order && !me.empty() && order.label(claim_label).value_or("") == me && claims_of(order) == 1;
}

std::string taken_over_from(const k8s::object& order, const std::string& me) {
  if (!order || me.empty() || order.label(claim_label).value_or("") != me || claims_of(order) != 2) return {};
  auto previous = std::string(order.annotation(previous_annotation).value_or(""));
  return previous == me ? std::string() : previous;
}

std::string release_patch(const std::string& resource_version) {
  return std::string("{\"metadata\":{\"resourceVersion\":") + json_quoted(resource_version) +
         ",\"labels\":{\"" + claim_label + "\":null}}}";
}

std::chrono::milliseconds claim_retry_delay(int failures) {
  constexpr std::chrono::milliseconds first{250}, most{30'000};
  auto d = first;
  for (int i = 1; i < failures && d < most; ++i) d *= 2;
  return std::min(d, most);
}

}  // namespace c5c3::runtime::shard
