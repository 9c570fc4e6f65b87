// The emulator's stand-ins for kube-aggregator's autoregister, crdregistration
// and availability controllers: synchronous, inside the write that changed
// what they watch, each change a write of its own (a watch sees it).
#include "k8s/time.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/apiservices.hpp"
#include "sim/apiserver/kind_rules.hpp"

#include <set>

namespace c5c3::sim {

namespace {
constexpr std::string_view group = "apiregistration.k8s.io";
}

void apiserver::impl::sync_local_apiservices_locked() {
  const k8s::api_resource* kind = find_kind_locked(group, "v1", "apiservices");
  if (!kind) return;
  k8s::api_resource copy = *kind;
  auto& sr = resource_locked(copy);
  std::set<std::string> wanted;
  for (const auto& s : desired_local_apiservices(served_kinds_locked(), &is_builtin)) {
    wanted.insert(s.name);
    if (sr.objects.count({"", s.name})) continue;  // an existing one is left alone
    request_info ri;
    ri.verb = "create";
    ri.group = std::string(group);
    ri.version = "v1";
    ri.plural = "apiservices";
    ri.kind = &copy;
    create_locked(ri, local_apiservice_object(s), false, nullptr);
  }
  // Continuously managed ones (CRD group versions) go with their last CRD.
  std::vector<k8s::object_key> gone;
  for (const auto& [key, o] : sr.objects)
    if (o.label(automanaged_label) == std::optional<std::string_view>("true") && !wanted.count(key.name))
      gone.push_back(key);
  for (const auto& key : gone) remove_object_locked(sr, key);
}

void apiserver::impl::refresh_apiservices_locked(const std::string& service_namespace,
                                                 const std::string& name) {
  auto it = resources_.find("apiservices.apiregistration.k8s.io");
  if (it == resources_.end()) return;
  auto find = [&](const char* resource, const std::string& ns, const std::string& n) -> k8s::object {
    auto r = resources_.find(resource);
    if (r == resources_.end()) return {};
    auto o = r->second.objects.find({ns, n});
    return o == r->second.objects.end() ? k8s::object() : o->second;
  };
  auto& sr = it->second;
  std::vector<k8s::object> changed;
  const std::string now = k8s::format_rfc3339(k8s::clock::now());
  for (const auto& [key, o] : sr.objects) {
    if (o.terminating()) continue;
    std::string svc_ns(o.get_string({"spec", "service", "namespace"}));
    std::string svc_name(o.get_string({"spec", "service", "name"}));
    if (!name.empty() && (svc_ns != service_namespace || svc_name != name)) continue;
    auto svc = find("services", svc_ns, svc_name);
    auto eps = find("endpoints", svc_ns, svc_name);
    auto doc = k8s::copy_document(o.json());
    if (!set_available_condition(doc, apiservice_availability(doc, &svc, &eps), now)) continue;
    auto b = k8s::object(std::move(doc)).edit();
    b.set_resource_version(std::to_string(next_rv_locked()));
    changed.push_back(std::move(b).freeze());
  }
  for (auto& o : changed) {
    k8s::object prev = sr.objects[o.key()];
    sr.objects[o.key()] = o;
    record_event_locked("MODIFIED", sr.storage.qualified(), o, &prev);
  }
}

}  // namespace c5c3::sim
