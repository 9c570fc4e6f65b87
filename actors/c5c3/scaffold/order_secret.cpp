#include "actors/c5c3/scaffold/order_secret.hpp"

namespace c5c3::c5c3 {

std::optional<std::string> secret_value(const k8s::object& secret, std::string_view key) {
  if (const auto* v = secret.get({"data"}); v && v->IsObject()) {
    if (const auto* d = k8s::member(*v, key); d && d->IsString()) return base64_decode(k8s::as_string_view(*d));
  }
  if (const auto* v = secret.get({"stringData"}); v && v->IsObject()) {
    if (const auto* d = k8s::member(*v, key); d && d->IsString()) return std::string(k8s::as_string_view(*d));
  }
  return std::nullopt;
}

k8s::object_builder secret_builder(std::string_view namespace_, std::string_view name,
                                   const std::map<std::string, std::string>& data) {
  k8s::object_builder b("v1", "Secret", namespace_, name);
  b.set_string({"type"}, "Opaque");
  k8s::json_value d(rapidjson::kObjectType);
  for (auto& [k, v] : data) d.AddMember(k8s::make_string(k, b.alloc()), k8s::make_string(base64_encode(v), b.alloc()), b.alloc());
  b.set({"data"}, std::move(d));
  return b;
}

order_secret_decision ensure_order_secret(const order_ref& o, const order_secret_spec& spec,
                                          const k8s::object* live, const random_source& random) {
  order_secret_decision out;
  if (live && *live && !is_order_child(*live, o)) {
    out.ensure = {ensure_action::refuse, std::nullopt,
                  refusing_to_adopt_message("Secret", {spec.namespace_, spec.name})};
    return out;
  }
  // Read: every key already there is kept.
  if (live && *live) {
    if (const auto* d = live->get({"data"}); d && d->IsObject())
      for (auto& m : d->GetObject())
        if (auto v = secret_value(*live, k8s::as_string_view(m.name))) out.data[std::string(k8s::as_string_view(m.name))] = *v;
  }
  // Modify.
  for (auto& [k, v] : spec.set) out.data[k] = v;
  for (auto& k : spec.generated)
    if (out.data[k].empty()) out.data[k] = generate_secret_value(random);
  for (auto& k : spec.dropped) out.data.erase(k);

  auto b = secret_builder(spec.namespace_, spec.name, out.data);
  if (live && *live) {
    // Keep what the live object carries beside what this Secret sets.
    for (auto& [k, v] : live->labels()) b.set_label(k, v);
    for (auto& [k, v] : live->annotations()) b.set_annotation(k, v);
    if (auto t = live->get_string({"type"}); !t.empty()) b.set_string({"type"}, t);
    // An update replaces the whole object: owners and finalizers others put on
    // the Secret (garbage collection, a backup tool) go with it unless copied.
    for (const char* field : {"ownerReferences", "finalizers"})
      if (const auto* v = live->get({"metadata", field}); v && v->IsArray() && !v->Empty())
        b.set({"metadata", field}, k8s::copy_json(*v, b.alloc()));
    if (!live->resource_version().empty()) b.set_resource_version(live->resource_version());
  }
  claim_order_child(b, o);
  for (auto& [k, v] : spec.extra_labels) b.set_label(k, v);
  k8s::object desired = std::move(b).freeze();

  // Write.
  if (!live || !*live) {
    out.ensure = {ensure_action::create, make_create(desired), {}};
  } else if (applied_fields_present(desired, *live)) {
    out.ensure = {ensure_action::unchanged, std::nullopt, {}};
  } else {
    out.ensure = {ensure_action::apply, make_update(desired), {}};
  }
  return out;
}

}  // namespace c5c3::c5c3
