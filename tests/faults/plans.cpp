#include "tests/faults/plans.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace c5c3::testing::faults {

namespace {

// The operator's `ordinal`th write of `w`'s object with `w`'s verb: where a
// rule arms, whatever the other objects' writes did meanwhile.
sim::fault_rule for_operator(const generate_options& o, const sim::write_record* w, int ordinal) {
  sim::fault_rule r;
  r.client = o.token;
  if (w) {
    r.after_writes = ordinal;
    r.after_writes_of = {w->verb, w->group, w->resource, w->namespace_, w->name};
  }
  return r;
}

// "patch:rabbitmqvhosts.c5c3.io/status:openstack/o0": a write's verb and object.
std::string write_id(const sim::write_record& w) {
  auto slash = w.resource.find('/');
  auto sub = slash == std::string::npos ? std::string() : w.resource.substr(slash);
  auto ns = w.namespace_.empty() ? std::string() : w.namespace_ + "/";
  return fmt::format("{}:{}{}:{}{}", w.verb, qualified_resource(w.group, w.resource), sub, ns, w.name);
}

std::string describe(const sim::write_record& w) {
  auto ns = w.namespace_.empty() ? std::string() : w.namespace_ + "/";
  return fmt::format("{} {} {}{}", w.verb, qualified_resource(w.group, w.resource), ns, w.name);
}

}  // namespace

const char* kind_name(plan_kind k) {
  switch (k) {
    case plan_kind::crash: return "crash";
    case plan_kind::intermediate_restart: return "midpass";
    case plan_kind::stale_view: return "stale";
    case plan_kind::dropped_event: return "drop";
    case plan_kind::watch_restart: return "expire";
  }
  return "?";
}

std::vector<sim::write_record> operator_writes(const std::vector<sim::write_record>& log, const std::string& user) {
  std::vector<sim::write_record> out;
  for (const auto& w : log)
    if (w.client == user && w.code >= 200 && w.code < 300 && !w.dry_run) out.push_back(w);
  return out;
}

std::string qualified_resource(const std::string& group, const std::string& resource) {
  auto plural = resource.substr(0, resource.find('/'));
  return group.empty() ? plural : plural + "." + group;
}

std::string order_of(const sim::write_record& w, const std::string& order_resource) {
  if (qualified_resource(w.group, w.resource) == order_resource) return w.name;
  return w.name.substr(0, w.name.find('-'));
}

namespace {

// Whether the `n`th write (1-based) is a child write and its order's next
// write is a child write too.
bool inside_a_pass(const std::vector<sim::write_record>& writes, std::size_t n, const std::string& order_resource) {
  if (order_resource.empty()) return false;
  const auto& w = writes[n - 1];
  auto child = [&](const sim::write_record& x) { return qualified_resource(x.group, x.resource) != order_resource; };
  if (!child(w)) return false;
  const auto order = order_of(w, order_resource);
  for (std::size_t i = n; i < writes.size(); ++i)
    if (order_of(writes[i], order_resource) == order) return child(writes[i]);
  return false;
}

}  // namespace

std::vector<plan> generate_plans(const std::vector<sim::write_record>& log,
                                 const std::vector<sim::watch_record>& events, const generate_options& o) {
  auto writes = operator_writes(log, o.user);
  // Each write's ordinal among the writes of its object with its verb, and
  // its anchor: "patch:rabbitmqvhosts.c5c3.io/status:openstack/o0#2".
  std::vector<int> ordinal(writes.size());
  std::vector<std::string> anchor(writes.size());
  {
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < writes.size(); ++i) {
      auto id = write_id(writes[i]);
      ordinal[i] = ++seen[id];
      anchor[i] = fmt::format("{}#{}", id, ordinal[i]);
    }
  }
  std::vector<plan> out;
  for (int n = 1; n <= static_cast<int>(writes.size()); ++n) {
    const auto& w = writes[static_cast<std::size_t>(n - 1)];
    const int k = ordinal[static_cast<std::size_t>(n - 1)];
    const auto& at = anchor[static_cast<std::size_t>(n - 1)];
    const auto about = describe(w);

    const bool midpass = inside_a_pass(writes, static_cast<std::size_t>(n), o.order_resource);
    plan crash{midpass ? plan_kind::intermediate_restart : plan_kind::crash,
               fmt::format("{}@{}", midpass ? "midpass" : "crash", at), n, about, {for_operator(o, &w, k)}, true, 0};
    crash.rules[0].reset_connection = true;
    out.push_back(std::move(crash));

    plan stale{plan_kind::stale_view, fmt::format("stale@{}", at), n, about, {for_operator(o, &w, k)}, false,
               o.release_after_writes};
    stale.rules[0].verb = "watch";
    stale.rules[0].resource = qualified_resource(w.group, w.resource);
    stale.rules[0].hold_watch_events = o.hold;
    out.push_back(std::move(stale));

    plan expire{plan_kind::watch_restart, fmt::format("expire@{}", at), n, about, {for_operator(o, &w, k)}, false, 0};
    expire.rules[0].verb = "watch";
    expire.rules[0].expire_watches = true;
    out.push_back(std::move(expire));
  }
  // A MODIFIED the operator was delivered: the point is the count of its
  // writes before the event went out, the anchor the last of them.
  std::set<std::tuple<int, std::string, std::string, std::string>> seen;
  for (const auto& e : events) {
    if (e.client != o.user || e.type != "MODIFIED") continue;
    auto point = static_cast<int>(std::count_if(writes.begin(), writes.end(),
                                                [&](const sim::write_record& w) { return w.seq <= e.after_write; }));
    auto resource = qualified_resource(e.group, e.resource);
    if (!seen.insert({point, resource, e.namespace_, e.name}).second) continue;
    auto ns = e.namespace_.empty() ? std::string() : e.namespace_ + "/";
    const auto* w = point > 0 ? &writes[static_cast<std::size_t>(point - 1)] : nullptr;
    const int k = point > 0 ? ordinal[static_cast<std::size_t>(point - 1)] : 0;
    plan drop{plan_kind::dropped_event,
              fmt::format("drop@{}:{}/{}{}", w ? anchor[static_cast<std::size_t>(point - 1)] : std::string("start"),
                          resource, ns, e.name),
              point,
              fmt::format("MODIFIED {} {}{}", resource, ns, e.name), {for_operator(o, w, k)}, false, 0};
    auto& r = drop.rules[0];
    r.verb = "watch";
    r.resource = resource;
    r.namespace_ = e.namespace_;
    r.name = e.name;
    r.coalesce_modified = true;
    r.times = 1;
    out.push_back(std::move(drop));
  }
  return out;
}

std::size_t sample_rotation(std::string_view key) {
  std::uint32_t h = 2166136261u;  // FNV-1a: the same on every machine and library
  for (unsigned char c : key) h = (h ^ c) * 16777619u;
  return h;
}

std::vector<plan> sample_plans(const std::vector<plan>& plans, std::size_t n, std::size_t rotation) {
  const plan_kind kinds[] = {plan_kind::crash, plan_kind::intermediate_restart, plan_kind::stale_view,
                             plan_kind::dropped_event, plan_kind::watch_restart};
  // The plans of each kind that has any: `n` is shared among those.
  std::vector<std::vector<const plan*>> by_kind;
  for (auto kind : kinds) {
    std::vector<const plan*> of;
    for (const auto& p : plans)
      if (p.kind == kind) of.push_back(&p);
    if (!of.empty()) by_kind.push_back(std::move(of));
  }
  if (!by_kind.empty())
    std::rotate(by_kind.begin(), by_kind.begin() + static_cast<std::ptrdiff_t>(rotation % by_kind.size()), by_kind.end());
  std::vector<plan> out;
  for (std::size_t k = 0; k < by_kind.size(); ++k) {
    const auto& of = by_kind[k];
    auto want = std::min(of.size(), n / by_kind.size() + (k < n % by_kind.size() ? 1 : 0));
    // Evenly spread: the middle of each of `want` equal slices.
    for (std::size_t i = 0; i < want; ++i) out.push_back(*of[(2 * i + 1) * of.size() / (2 * want)]);
  }
  return out;
}

std::optional<plan> find_plan(const std::vector<plan>& plans, const std::string& name) {
  for (const auto& p : plans)
    if (p.name == name) return p;
  // "crash@7", "drop@5:users.rabbitmq.com/openstack/o0-user": the plan of that
  // kind at the reference run's 7th write (which can move between runs).
  auto at = name.find('@');
  if (at == std::string::npos) return std::nullopt;
  auto colon = name.find(':', at);
  auto digits = name.substr(at + 1, colon == std::string::npos ? std::string::npos : colon - at - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const auto kind = name.substr(0, at);
  const int point = std::stoi(digits);
  const auto object = colon == std::string::npos ? std::string() : name.substr(colon);
  for (const auto& p : plans)
    if (kind == kind_name(p.kind) && p.point == point && (object.empty() || p.name.ends_with(object))) return p;
  return std::nullopt;
}

}  // namespace c5c3::testing::faults
