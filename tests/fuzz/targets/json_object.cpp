// The JSON object model (k8s/object, k8s/json): parse, every typed accessor,
// edit and freeze, and the serialization round trip.
#include "k8s/object.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace c5c3::fuzz {

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
  check(k8s::json_equal(o->json(), again->json()), "the JSON round trip keeps the document");
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
