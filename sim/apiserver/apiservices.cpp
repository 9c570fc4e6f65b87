#include "sim/apiserver/apiservices.hpp"

#include "k8s/base64.hpp"
#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;
namespace v = validation;

namespace {

struct priority {
  int group, version;
};

// kube's DefaultGenericAPIServicePriorities (pkg/controlplane/apiserver/aggregator.go),
// the GA rows of the groups an API server may serve; a group version not in it
// gets no APIService ("Skipping APIService creation").
const std::map<std::pair<std::string, std::string>, priority>& builtin_priorities() {
  static const std::map<std::pair<std::string, std::string>, priority> table = {
      {{"", "v1"}, {18000, 1}},
      {{"events.k8s.io", "v1"}, {17750, 15}},
      {{"authentication.k8s.io", "v1"}, {17700, 15}},
      {{"authorization.k8s.io", "v1"}, {17600, 15}},
      {{"certificates.k8s.io", "v1"}, {17300, 15}},
      {{"rbac.authorization.k8s.io", "v1"}, {17000, 15}},
      {{"apiextensions.k8s.io", "v1"}, {16700, 15}},
      {{"admissionregistration.k8s.io", "v1"}, {16700, 15}},
      {{"coordination.k8s.io", "v1"}, {16500, 15}},
      {{"discovery.k8s.io", "v1"}, {16200, 15}},
      {{"flowcontrol.apiserver.k8s.io", "v1"}, {16100, 21}},
  };
  return table;
}

const json_value* service_of(const json_value& doc) {
  const json_value* s = k8s::find(doc, {"spec", "service"});
  return s && s->IsObject() ? s : nullptr;
}

std::int64_t port_of(const json_value& service) { return k8s::get_int(service, {"port"}).value_or(443); }

json_value condition(const availability& a, const std::string& now, k8s::json_allocator& al) {
  json_value c(rapidjson::kObjectType);
  c.AddMember("type", "Available", al);
  c.AddMember("status", k8s::make_string(a.status, al), al);
  c.AddMember("lastTransitionTime", k8s::make_string(now, al), al);
  c.AddMember("reason", k8s::make_string(a.reason, al), al);
  c.AddMember("message", k8s::make_string(a.message, al), al);
  return c;
}

}  // namespace

bool is_apiservice(const k8s::api_resource& r) {
  return r.group == "apiregistration.k8s.io" && r.plural == "apiservices";
}

void apiservice_defaults(json_document& doc) {
  auto& a = doc.GetAllocator();
  json_value* spec = k8s::member(doc, "spec");
  json_value* s = spec ? k8s::member(*spec, "service") : nullptr;
  if (s && s->IsObject() && !k8s::member(*s, "port")) k8s::set_member(*s, "port", json_value(443), a);
}

void apiservice_prepare_create(json_document& doc, const std::string& now) {
  apiservice_defaults(doc);
  k8s::remove_member(doc, "status");
  auto& a = doc.GetAllocator();
  json_value status(rapidjson::kObjectType);
  if (!service_of(doc)) {
    json_value conds(rapidjson::kArrayType);
    conds.PushBack(condition({"True", "Local", "Local APIServices are always available"}, now, a), a);
    status.AddMember("conditions", std::move(conds), a);
  }
  doc.AddMember("status", std::move(status), a);
}

std::vector<v::field_error> validate_apiservice(const json_value& doc) {
  std::vector<v::field_error> errs;
  std::string name(k8s::get_string(doc, {"metadata", "name"}));
  std::string group(k8s::get_string(doc, {"spec", "group"}));
  std::string version(k8s::get_string(doc, {"spec", "version"}));
  std::string required_name = version + "." + group;
  if (validate_path_segment_name(name).empty() && name != required_name)
    errs.push_back(v::invalid("metadata.name", v::go_quote(name),
                              fmt::format("must be `spec.version+\".\"+spec.group`: {}", v::go_quote(required_name))));
  if (group.empty() && version != "v1")
    errs.push_back(v::required("spec.group", "only v1 may have an empty group and it better be legacy kube"));
  if (!group.empty())
    for (auto& m : validate_dns1123_subdomain(group)) errs.push_back(v::invalid("spec.group", v::go_quote(group), m));
  for (auto& m : validate_dns1035_label(version)) errs.push_back(v::invalid("spec.version", v::go_quote(version), m));
  auto gp = k8s::get_int(doc, {"spec", "groupPriorityMinimum"}).value_or(0);
  if (gp <= 0 || gp > 20000)
    errs.push_back(v::invalid("spec.groupPriorityMinimum", std::to_string(gp), "must be positive and less than 20000"));
  auto vp = k8s::get_int(doc, {"spec", "versionPriority"}).value_or(0);
  if (vp <= 0 || vp > 1000)
    errs.push_back(v::invalid("spec.versionPriority", std::to_string(vp), "must be positive and less than 1000"));
  std::string ca(k8s::get_string(doc, {"spec", "caBundle"}));
  std::size_t ca_bytes = ca.empty() ? 0 : k8s::base64_decode(ca).value_or(std::string()).size();
  bool insecure = k8s::get_bool(doc, {"spec", "insecureSkipTLSVerify"}).value_or(false);
  const json_value* svc = service_of(doc);
  if (!svc) {
    if (ca_bytes)
      errs.push_back(v::invalid("spec.caBundle", v::go_quote(fmt::format("{} bytes", ca_bytes)),
                                "local APIServices may not have a caBundle"));
    if (insecure)
      errs.push_back(v::invalid("spec.insecureSkipTLSVerify", "true",
                                "local APIServices may not have insecureSkipTLSVerify"));
    return errs;
  }
  if (k8s::get_string(*svc, {"namespace"}).empty()) errs.push_back(v::required("spec.service.namespace"));
  if (k8s::get_string(*svc, {"name"}).empty()) errs.push_back(v::required("spec.service.name"));
  if (auto port = port_of(*svc); port < 1 || port > 65535)
    errs.push_back(v::invalid("spec.service.port", std::to_string(port),
                              "port is not valid: must be between 1 and 65535, inclusive"));
  if (insecure && ca_bytes)
    errs.push_back(v::invalid("spec.insecureSkipTLSVerify", "true", "may not be true if caBundle is present"));
  return errs;
}

std::vector<v::field_error> validate_apiservice_status(const json_value& doc) {
  std::vector<v::field_error> errs;
  const json_value* conds = k8s::find(doc, {"status", "conditions"});
  if (!conds || !conds->IsArray()) return errs;
  for (rapidjson::SizeType i = 0; i < conds->Size(); ++i) {
    std::string s(k8s::get_string((*conds)[i], {"status"}));
    if (s != "True" && s != "False" && s != "Unknown")
      errs.push_back(v::not_supported(fmt::format("status.conditions[{}].status", i), v::go_quote(s),
                                      {"True", "False", "Unknown"}));
  }
  return errs;
}

availability apiservice_availability(const json_value& doc, const k8s::object* service,
                                     const k8s::object* endpoints) {
  const json_value* svc = service_of(doc);
  if (!svc) return {"True", "Local", "Local APIServices are always available"};
  std::string name(k8s::get_string(*svc, {"name"})), ns(k8s::get_string(*svc, {"namespace"}));
  std::string where = fmt::format("service/{} in {}", name, v::go_quote(ns));
  if (!service || !*service) return {"False", "ServiceNotFound", where + " is not present"};
  auto type = service->get_string({"spec", "type"});
  if (type.empty() || type == "ClusterIP") {
    auto port = port_of(*svc);
    const json_value* ports = service->get({"spec", "ports"});
    std::optional<std::string> port_name;
    if (ports && ports->IsArray())
      for (auto& p : ports->GetArray())
        if (k8s::get_int(p, {"port"}).value_or(0) == port) {
          port_name = std::string(k8s::get_string(p, {"name"}));
          break;
        }
    if (!port_name)
      return {"False", "ServicePortError", fmt::format("{} is not listening on port {}", where, port)};
    if (!endpoints || !*endpoints)
      return {"False", "EndpointsNotFound", fmt::format("cannot find endpoints for {}", where)};
    bool active = false;
    if (const json_value* subsets = endpoints->get({"subsets"}); subsets && subsets->IsArray())
      for (auto& s : subsets->GetArray()) {
        const json_value* addrs = k8s::member(s, "addresses");
        if (!addrs || !addrs->IsArray() || addrs->Empty()) continue;
        if (const json_value* eps = k8s::member(s, "ports"); eps && eps->IsArray())
          for (auto& ep : eps->GetArray()) active |= k8s::get_string(ep, {"name"}) == *port_name;
      }
    if (!active)
      return {"False", "MissingEndpoints",
              fmt::format("endpoints for {} have no addresses with port name {}", where, v::go_quote(*port_name))};
  }
  return {"True", "Passed", "all checks passed"};
}

bool set_available_condition(json_document& doc, const availability& av, const std::string& now) {
  auto& a = doc.GetAllocator();
  auto& status = k8s::ensure_object(doc, {"status"}, a);
  json_value* conds = k8s::member(status, "conditions");
  if (!conds || !conds->IsArray()) {
    k8s::set_member(status, "conditions", json_value(rapidjson::kArrayType), a);
    conds = k8s::member(status, "conditions");
  }
  for (auto& c : conds->GetArray()) {
    if (k8s::get_string(c, {"type"}) != "Available") continue;
    bool changed = false;
    auto put = [&](std::string_view key, const std::string& value) {
      if (k8s::get_string(c, {key}) == value) return;
      k8s::set_member(c, key, k8s::make_string(value, a), a);
      changed = true;
    };
    if (k8s::get_string(c, {"status"}) != av.status) put("lastTransitionTime", now);
    put("status", av.status);
    put("reason", av.reason);
    put("message", av.message);
    return changed;
  }
  conds->PushBack(condition(av, now, a), a);
  return true;
}

std::vector<local_apiservice> desired_local_apiservices(const std::vector<k8s::api_resource>& served,
                                                        bool (*is_builtin)(const k8s::api_resource&)) {
  std::map<std::string, local_apiservice> out;
  for (const auto& r : served) {
    local_apiservice s;
    s.group = r.group;
    s.version = r.version;
    s.name = r.version + "." + r.group;
    if (is_builtin(r)) {
      auto it = builtin_priorities().find({r.group, r.version});
      if (it == builtin_priorities().end()) continue;
      s.group_priority = it->second.group;
      s.version_priority = it->second.version;
      s.automanaged = "onstart";
    } else {
      s.group_priority = 1000;
      s.version_priority = 100;
      s.automanaged = "true";
    }
    out.emplace(s.name, s);
  }
  std::vector<local_apiservice> v;
  for (auto& [n, s] : out) v.push_back(s);
  return v;
}

json_document local_apiservice_object(const local_apiservice& s) {
  json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("apiVersion", "apiregistration.k8s.io/v1", a);
  d.AddMember("kind", "APIService", a);
  json_value md(rapidjson::kObjectType);
  md.AddMember("name", k8s::make_string(s.name, a), a);
  json_value labels(rapidjson::kObjectType);
  labels.AddMember(k8s::make_string(automanaged_label, a), k8s::make_string(s.automanaged, a), a);
  md.AddMember("labels", std::move(labels), a);
  d.AddMember("metadata", std::move(md), a);
  json_value spec(rapidjson::kObjectType);
  if (!s.group.empty()) spec.AddMember("group", k8s::make_string(s.group, a), a);
  spec.AddMember("version", k8s::make_string(s.version, a), a);
  spec.AddMember("groupPriorityMinimum", json_value(s.group_priority), a);
  spec.AddMember("versionPriority", json_value(s.version_priority), a);
  d.AddMember("spec", std::move(spec), a);
  return d;
}

}  // namespace c5c3::sim
