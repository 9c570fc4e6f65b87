#include "actors/monitoring/labels.hpp"

#include "k8s/selector.hpp"

#include <algorithm>

namespace c5c3::monitoring {

namespace {

std::string str(const k8s::json_value& v) { return v.IsString() ? std::string(k8s::as_string_view(v)) : std::string(); }

}  // namespace

label_map labels_for_selector(const k8s::json_value* selector, bool* exact) {
  label_map out;
  if (exact) *exact = true;
  if (!selector || !selector->IsObject()) return out;
  if (const auto* ml = k8s::member(*selector, "matchLabels"); ml && ml->IsObject())
    for (const auto& m : ml->GetObject()) out[std::string(k8s::as_string_view(m.name))] = str(m.value);
  const auto* exprs = k8s::member(*selector, "matchExpressions");
  if (!exprs || !exprs->IsArray()) return out;
  if (exact && exprs->Size() > 0) *exact = false;
  for (const auto& e : exprs->GetArray()) {
    auto key = std::string(k8s::get_string(e, {"key"}));
    auto op = k8s::get_string(e, {"operator"});
    std::vector<std::string> values;
    if (const auto* vs = k8s::member(e, "values"); vs && vs->IsArray())
      for (const auto& v : vs->GetArray()) values.push_back(str(v));
    if (op == "In") {
      if (!values.empty()) out[key] = values.front();
    } else if (op == "NotIn") {
      if (!values.empty()) {
        const auto& v = values.front();
        if (v == "true" && values.size() == 1)
          out[key] = "false";
        else if (v == "false" && values.size() == 1)
          out[key] = "true";
        else
          out[key] = "not-" + v;
      }
    } else if (op == "Exists") {
      out[key] = "";
    } else if (op == "DoesNotExist") {
      out.erase(key);
    }
  }
  return out;
}

label_map overwrite_keys(label_map out, const label_map& in) {
  for (const auto& [k, v] : in) out[k] = v;
  return out;
}

bool selector_selects(const k8s::json_value* selector, const label_map& labels, std::string* error) {
  if (!selector || selector->IsNull()) return false;
  std::string why;
  auto sel = k8s::label_selector::from_json(*selector, &why);
  if (!sel) {
    if (error) *error = why;
    return false;
  }
  return sel->matches(labels);
}

std::vector<k8s::object> sorted_by_key(std::vector<k8s::object> objects) {
  std::stable_sort(objects.begin(), objects.end(), [](const k8s::object& a, const k8s::object& b) {
    if (a.namespace_() != b.namespace_()) return a.namespace_() < b.namespace_();
    return a.name() < b.name();
  });
  return objects;
}

bool labels_cover(const label_map& have, const label_map& want) {
  for (const auto& [k, v] : want) {
    auto it = have.find(k);
    if (it == have.end() || it->second != v) return false;
  }
  return true;
}

}  // namespace c5c3::monitoring
