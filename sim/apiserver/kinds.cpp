// The served kinds: built-ins at start, CRDs while they exist.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/kind_rules.hpp"

namespace c5c3::sim {

namespace {
std::string served_key(std::string_view g, std::string_view v, std::string_view p) {
  std::string k(g);
  k += '/';
  k += v;
  k += '/';
  k += p;
  return k;
}
}  // namespace

void apiserver::impl::register_kind_locked(const k8s::api_resource& r) {
  ++kinds_generation_;
  served_[served_key(r.group, r.version, r.plural)] = r;
  if (r.storage_version) {
    auto& sr = resources_[r.qualified()];
    sr.storage = r;
  }
}

const k8s::api_resource* apiserver::impl::find_kind_locked(std::string_view group,
                                                           std::string_view version,
                                                           std::string_view plural) const {
  auto it = served_.find(served_key(group, version, plural));
  return it == served_.end() ? nullptr : &it->second;
}

std::vector<k8s::api_resource> apiserver::impl::served_kinds_locked() const {
  std::vector<k8s::api_resource> out;
  for (auto& [k, r] : served_) out.push_back(r);
  return out;
}

void apiserver::impl::serve_crd_locked(const k8s::object& crd) {
  ++kinds_generation_;
  std::string group(crd.get_string({"spec", "group"}));
  std::string plural(crd.get_string({"spec", "names", "plural"}));
  for (auto it = served_.begin(); it != served_.end();)
    if (it->second.group == group && it->second.plural == plural)
      it = served_.erase(it);
    else
      ++it;
  for (auto& r : crd_resources(crd)) register_kind_locked(r);
}

void apiserver::impl::unserve_crd_locked(const k8s::object& crd) {
  ++kinds_generation_;
  std::string group(crd.get_string({"spec", "group"}));
  std::string plural(crd.get_string({"spec", "names", "plural"}));
  for (auto it = served_.begin(); it != served_.end();)
    if (it->second.group == group && it->second.plural == plural)
      it = served_.erase(it);
    else
      ++it;
  auto q = plural + "." + group;
  auto it = resources_.find(q);
  if (it == resources_.end()) return;
  std::vector<k8s::object_key> keys;
  for (auto& [k, o] : it->second.objects) keys.push_back(k);
  for (auto& k : keys) remove_object_locked(it->second, k);
  resources_.erase(q);
}

void apiserver::impl::after_write_locked(const k8s::api_resource& r, const k8s::object*,
                                         const k8s::object& stored) {
  if (r.group == "apiextensions.k8s.io" && r.plural == "customresourcedefinitions") {
    serve_crd_locked(stored);
    sync_local_apiservices_locked();
  }
  after_change_locked(r, stored);
  after_stored_locked(r, stored);
}

void apiserver::impl::after_delete_locked(const k8s::api_resource& r, const k8s::object& gone) {
  if (r.group == "apiextensions.k8s.io" && r.plural == "customresourcedefinitions") {
    unserve_crd_locked(gone);
    sync_local_apiservices_locked();
  }
  after_change_locked(r, gone);
}

void apiserver::impl::after_stored_locked(const k8s::api_resource& r, const k8s::object& stored) {
  if (r.group.empty() && r.plural == "secrets") populate_token_secret_locked(stored);
  if (r.group.empty() && r.plural == "serviceaccounts")
    if (auto it = resources_.find("secrets"); it != resources_.end()) {
      std::vector<k8s::object> waiting;  // token Secrets made before their ServiceAccount
      for (const auto& [key, s] : it->second.objects)
        if (key.namespace_ == stored.namespace_() &&
            s.annotation("kubernetes.io/service-account.name") == std::optional<std::string_view>(stored.name()))
          waiting.push_back(s);
      for (const auto& s : waiting) populate_token_secret_locked(s);
    }
}

void apiserver::impl::after_change_locked(const k8s::api_resource& r, const k8s::object& o) {
  if (r.group.empty() && (r.plural == "services" || r.plural == "endpoints"))
    refresh_apiservices_locked(std::string(o.namespace_()), std::string(o.name()));
  else if (r.group == "apiregistration.k8s.io" && r.plural == "apiservices")
    refresh_apiservices_locked({}, {});
}

}  // namespace c5c3::sim
