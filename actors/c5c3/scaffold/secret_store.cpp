#include "actors/c5c3/scaffold/secret_store.hpp"

namespace c5c3::c5c3 {

namespace rt = ::c5c3::runtime;

store_ref control_plane_store_ref(const k8s::object& cp) {
  store_ref r;
  auto kind = cp.get_string({"spec", "secretStoreRef", "kind"});
  auto name = cp.get_string({"spec", "secretStoreRef", "name"});
  if (!name.empty()) {
    r.name = std::string(name);
    r.kind = kind == "ClusterSecretStore" ? "ClusterSecretStore" : "SecretStore";
  }
  return r;
}

bool secret_store_ready(const k8s::object& store) {
  auto c = store.find_condition("Ready");
  return c && c->is_true();
}

k8s::gvk secret_store_gvk(std::string_view kind) { return {"external-secrets.io", "v1", std::string(kind)}; }

namespace {

rt::locate_fn store_of_kind(std::string kind) {
  return [kind](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
    if (s.order.terminating() || !s.control_plane) return std::nullopt;
    auto ref = control_plane_store_ref(s.control_plane);
    if (ref.kind != kind) return std::nullopt;
    return rt::locator{kind == "ClusterSecretStore" ? std::string() : std::string(s.control_plane.namespace_()),
                       ref.name};
  };
}

}  // namespace

std::vector<rt::read_slot> secret_store_slots() {
  return {rt::named("secret_store", secret_store_gvk("SecretStore"), store_of_kind("SecretStore"), "", true),
          rt::named("cluster_secret_store", secret_store_gvk("ClusterSecretStore"),
                    store_of_kind("ClusterSecretStore"), "", true)};
}

secret_store_state secret_store_of(const rt::sense_snapshot& s) {
  secret_store_state out;
  if (!s.control_plane) return out;
  auto ref = control_plane_store_ref(s.control_plane);
  out.kind = ref.kind;
  out.name = ref.name;
  const auto* store = s.one(ref.kind == "ClusterSecretStore" ? "cluster_secret_store" : "secret_store");
  out.ready = store && secret_store_ready(*store);
  return out;
}

k8s::object build_push_secret(std::string_view name, std::string_view namespace_, std::string_view source,
                              std::string_view remote_key, const secret_store_state& store) {
  k8s::object_builder b("external-secrets.io/v1alpha1", "PushSecret", namespace_, name);
  auto& a = b.alloc();
  b.set_string({"spec", "deletionPolicy"}, "Delete");
  k8s::json_value ref(rapidjson::kObjectType);
  ref.AddMember("name", k8s::make_string(store.name, a), a);
  ref.AddMember("kind", k8s::make_string(store.kind, a), a);
  k8s::json_value refs(rapidjson::kArrayType);
  refs.PushBack(std::move(ref), a);
  b.set({"spec", "secretStoreRefs"}, std::move(refs));
  b.set_string({"spec", "selector", "secret", "name"}, source);
  k8s::json_value remote(rapidjson::kObjectType);
  remote.AddMember("remoteKey", k8s::make_string(remote_key, a), a);
  k8s::json_value match(rapidjson::kObjectType);
  match.AddMember("remoteRef", std::move(remote), a);
  k8s::json_value entry(rapidjson::kObjectType);
  entry.AddMember("match", std::move(match), a);
  k8s::json_value data(rapidjson::kArrayType);
  data.PushBack(std::move(entry), a);
  b.set({"spec", "data"}, std::move(data));
  return std::move(b).freeze();
}

}  // namespace c5c3::c5c3
