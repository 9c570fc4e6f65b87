// The JSON object model (k8s/object, k8s/json): parse, every typed accessor,
// edit and freeze, and the serialization round trip.
#include "k8s/object.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

#include <cmath>

namespace c5c3::fuzz {

namespace {

// json_equal, but doubles may be a few ULP apart: RapidJSON's default parse is
// not exact (k8s/json.cpp says why it stays so).
bool close(const k8s::json_value& a, const k8s::json_value& b) {
  if (a.IsDouble() || b.IsDouble()) {
    if (!a.IsNumber() || !b.IsNumber()) return false;
    double x = a.GetDouble(), y = b.GetDouble();
    for (int i = 0; i < 4 && x != y; ++i) x = std::nextafter(x, y);
    return x == y;
  }
  if (a.GetType() != b.GetType()) return k8s::json_equal(a, b);
  if (a.IsArray()) {
    if (a.Size() != b.Size()) return false;
    for (rapidjson::SizeType i = 0; i < a.Size(); ++i)
      if (!close(a[i], b[i])) return false;
    return true;
  }
  if (a.IsObject()) {
    if (a.MemberCount() != b.MemberCount()) return false;
    for (const auto& m : a.GetObject()) {
      const auto* o = k8s::member(b, k8s::as_string_view(m.name));
      if (!o || !close(m.value, *o)) return false;
    }
    return true;
  }
  return k8s::json_equal(a, b);
}

}  // namespace

int json_object(const std::uint8_t* data, std::size_t size) {
  auto o = k8s::object::parse(as_text(data, size));
  if (!o) return 0;
  (void)o->api_version();
  (void)o->kind();
  (void)o->gvk();
  (void)o->key();
  (void)o->uid();
  (void)o->resource_version();
  (void)o->generation();
  (void)o->terminating();
  (void)o->labels();
  (void)o->annotations();
  (void)o->finalizers();
  (void)o->owner_references();
  (void)o->controller_reference();
  (void)o->conditions();
  (void)o->find_condition("Ready");
  (void)o->get_string({"spec", "name"});
  // Serializing and parsing again gives an equal document.
  auto text = o->to_json();
  auto again = k8s::object::parse(text);
  check(again.has_value(), "to_json() of a parsed object parses");
  check(close(o->json(), again->json()), "the JSON round trip keeps the document");
  // Edits through the builder stay well-formed.
  auto b = o->edit();
  b.set_label("fuzz", "1").set_annotation("fuzz", "2").remove_label("other");
  k8s::set_condition(b, {"Ready", "True", "Fuzz", "m", "", 1}, k8s::clock::time_point{});
  auto edited = std::move(b).freeze();
  check(edited.label("fuzz") == std::optional<std::string_view>("1"), "set_label() is read back");
  check(k8s::object::parse(edited.to_json()).has_value(), "an edited object serializes");
  return 0;
}

}  // namespace c5c3::fuzz
