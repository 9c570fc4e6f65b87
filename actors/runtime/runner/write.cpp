#include "actors/runtime/runner/write.hpp"

namespace c5c3::runtime {

std::string child_write::describe() const {
  auto s = std::string(verb_name(verb)) + " " + std::string(body.kind()) + " " + body.key().to_string();
  if (!subresource.empty()) s += " (" + subresource + ")";
  return s;
}

std::string_view verb_name(write_verb v) {
  switch (v) {
    case write_verb::create: return "create";
    case write_verb::apply: return "apply";
    case write_verb::update: return "update";
    case write_verb::merge_patch: return "patch";
    case write_verb::delete_: return "delete";
  }
  return "?";
}

child_write make_create(k8s::object obj, write_cluster c) { return {write_verb::create, c, std::move(obj), false, {}, false}; }
child_write make_apply(k8s::object obj, write_cluster c, bool force) {
  return {write_verb::apply, c, std::move(obj), force, {}, false};
}
child_write make_update(k8s::object obj, write_cluster c) { return {write_verb::update, c, std::move(obj), false, {}, false}; }
child_write make_merge_patch(k8s::object patch, write_cluster c) {
  return {write_verb::merge_patch, c, std::move(patch), false, {}, false};
}
child_write make_delete(const k8s::object& live, write_cluster c) { return {write_verb::delete_, c, live, false, {}, false}; }

}  // namespace c5c3::runtime
