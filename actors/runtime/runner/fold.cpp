#include "actors/runtime/runner/fold.hpp"

#include "k8s/selector.hpp"

#include <algorithm>

namespace c5c3::runtime {

namespace {

bool same_kind(const k8s::gvk& a, const k8s::object& o) {
  auto g = o.gvk();
  return a.kind == g.kind && a.group == g.group;
}

// The path of the first member of `want` that `have` lacks or holds
// differently (arrays element by element, as ensure_child compares them).
std::string first_difference(const k8s::json_value& want, const k8s::json_value* have, const std::string& path) {
  if (!have) return path;
  if (want.IsObject()) {
    if (!have->IsObject()) return path;
    for (auto& m : want.GetObject()) {
      auto name = std::string(k8s::as_string_view(m.name));
      auto sub = path.empty() ? name : path + "." + name;
      if (auto d = first_difference(m.value, k8s::member(*have, name), sub); !d.empty()) return d;
    }
    return {};
  }
  if (want.IsArray()) {
    if (!have->IsArray() || want.Size() != have->Size()) return path;
    for (rapidjson::SizeType i = 0; i < want.Size(); ++i)
      if (auto d = first_difference(want[i], &(*have)[i], path + "[" + std::to_string(i) + "]"); !d.empty())
        return d;
    return {};
  }
  return k8s::json_equal(want, *have) ? std::string() : path;
}

}  // namespace

bool slot_holds(const read_slot& slot, const slot_result& result, cluster_role role, const k8s::object& o,
                const ownership_keys& keys, const protocol::order_key& order) {
  if (!result.read || slot.cluster != role || !same_kind(slot.gvk, o)) return false;
  if (!result.namespace_.empty() && o.namespace_() != result.namespace_) return false;
  switch (slot.mode) {
    case read_mode::children:
      return labelled_for(o, keys, order);
    case read_mode::named:
      return o.name() == result.name && o.namespace_() == result.namespace_;
    case read_mode::listed: {
      auto sel = k8s::label_selector::parse(slot.selector);
      auto fields = k8s::field_selector::parse(result.fields);
      return sel && sel->matches(o) && fields && fields->matches(o);
    }
  }
  return false;
}

void fold_answer(sense_snapshot& s, const std::vector<read_slot>& reads, const ownership_keys& keys,
                 const child_write& w, const k8s::object& answer) {
  const bool gone = w.verb == write_verb::delete_ && (!answer || !answer.terminating());
  // A delete answered by a Status (or NotFound) names its object by the body.
  const k8s::object& subject = answer ? answer : w.body;
  for (const auto& slot : reads) {
    auto it = s.slots.find(slot.id);
    if (it == s.slots.end()) continue;
    auto& res = it->second;
    if (!slot_holds(slot, res, w.cluster, subject, keys, s.key) &&
        !(gone && slot_holds(slot, res, w.cluster, w.body, keys, s.key)))
      continue;
    std::erase_if(res.items, [&](const k8s::object& o) {
      return o.name() == w.name() && o.namespace_() == w.body.namespace_();
    });
    if (!gone && answer) res.items.push_back(answer);  // written, or terminating
  }
}

std::string first_unapplied_field(const k8s::object& desired, const k8s::object& live) {
  if (!desired) return {};
  if (!live) return "metadata.name";
  for (auto& m : desired.json().GetObject()) {
    auto name = std::string(k8s::as_string_view(m.name));
    if (name == "status" || name == "apiVersion" || name == "kind") continue;
    if (auto d = first_difference(m.value, k8s::member(live.json(), name), name); !d.empty()) return d;
  }
  return {};
}

std::string describe_object(const k8s::object& o) {
  return std::string(o.kind()) + " " + o.key().to_string();
}

}  // namespace c5c3::runtime
