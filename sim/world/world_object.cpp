#include "sim/world/world_object.hpp"

#include <random>

namespace c5c3::sim::world {
namespace {

k8s::json_value condition_json(const plain_condition& c, std::string_view ltt, k8s::json_allocator& a) {
  k8s::json_value v(rapidjson::kObjectType);
  k8s::set_member(v, "type", k8s::make_string(c.type, a), a);
  k8s::set_member(v, "status", k8s::make_string(c.status, a), a);
  k8s::set_member(v, "lastTransitionTime", k8s::make_string(ltt, a), a);
  k8s::set_member(v, "reason", k8s::make_string(c.reason, a), a);
  // The operators' condition types carry the message with omitempty.
  if (!c.message.empty()) k8s::set_member(v, "message", k8s::make_string(c.message, a), a);
  return v;
}

const k8s::json_value* current_conditions(k8s::object_builder& b) {
  const auto* v = k8s::find(b.doc(), {"status", "conditions"});
  return v && v->IsArray() ? v : nullptr;
}

std::string previous_ltt(k8s::object_builder& b, const plain_condition& c, k8s::time_point now) {
  if (const auto* conds = current_conditions(b)) {
    for (const auto& e : conds->GetArray()) {
      if (k8s::get_string(e, {"type"}) == c.type && k8s::get_string(e, {"status"}) == c.status) {
        auto t = k8s::get_string(e, {"lastTransitionTime"});
        if (!t.empty()) return std::string(t);
      }
    }
  }
  return k8s::format_rfc3339(now);
}

bool same_conditions(const k8s::json_value* a, const k8s::json_value& b) {
  return a && k8s::json_equal(*a, b);
}

}  // namespace

bool replace_conditions(k8s::object_builder& b, const std::vector<plain_condition>& conds,
                        k8s::time_point now) {
  k8s::json_value arr(rapidjson::kArrayType);
  for (const auto& c : conds) arr.PushBack(condition_json(c, previous_ltt(b, c, now), b.alloc()), b.alloc());
  bool changed = !same_conditions(current_conditions(b), arr);
  b.set({"status", "conditions"}, std::move(arr));
  return changed;
}

bool upsert_condition(k8s::object_builder& b, const plain_condition& c, k8s::time_point now) {
  k8s::json_value arr(rapidjson::kArrayType);
  bool found = false;
  if (const auto* conds = current_conditions(b)) {
    for (const auto& e : conds->GetArray()) {
      if (k8s::get_string(e, {"type"}) == c.type) {
        if (found) continue;
        found = true;
        arr.PushBack(condition_json(c, previous_ltt(b, c, now), b.alloc()), b.alloc());
      } else {
        arr.PushBack(k8s::copy_json(e, b.alloc()), b.alloc());
      }
    }
  }
  if (!found) arr.PushBack(condition_json(c, k8s::format_rfc3339(now), b.alloc()), b.alloc());
  bool changed = !same_conditions(current_conditions(b), arr);
  b.set({"status", "conditions"}, std::move(arr));
  return changed;
}

std::optional<plain_condition> find_plain_condition(const k8s::object& o, std::string_view type) {
  if (const auto* conds = o.get({"status", "conditions"}); conds && conds->IsArray()) {
    for (const auto& e : conds->GetArray()) {
      if (k8s::get_string(e, {"type"}) == type) {
        return plain_condition{std::string(type), std::string(k8s::get_string(e, {"status"})),
                               std::string(k8s::get_string(e, {"reason"})),
                               std::string(k8s::get_string(e, {"message"}))};
      }
    }
  }
  return std::nullopt;
}

random_source system_random() {
  return [](std::size_t n) {
    static constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    std::random_device rd;
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::string s;
    s.reserve(n);
    for (std::size_t i = 0; i < n; ++i) s.push_back(alphabet[pick(rd)]);
    return s;
  };
}

bool status_differs(const k8s::object& a, const k8s::object& b) {
  const auto* sa = a.get({"status"});
  const auto* sb = b.get({"status"});
  if (!sa || !sb) return (sa == nullptr) != (sb == nullptr);
  return !k8s::json_equal(*sa, *sb);
}

}  // namespace c5c3::sim::world
