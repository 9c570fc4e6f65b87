#include "sim/apiserver/kind_rules.hpp"

#include "k8s/status.hpp"
#include "k8s/time.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/apiservices.hpp"
#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/apiserver/events.hpp"

#include <fmt/format.h>

#include <cctype>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;

namespace {

bool is_core(const k8s::api_resource& r, std::string_view plural) {
  return r.group.empty() && r.plural == plural;
}

std::string lower(std::string_view s) {
  std::string o;
  for (char c : s) o.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return o;
}

bool empty_container(const json_value* v) {
  return v && ((v->IsObject() && v->MemberCount() == 0) || (v->IsArray() && v->Empty()));
}

// kube-apiserver serializes ObjectMeta (and a ConfigMap's or Secret's data maps) with
// Go's omitempty, for built-in kinds and custom resources alike: an empty map or list
// written there is not stored (`kubectl label x k-` leaves no `labels: {}` behind).
void drop_empty_fields(const k8s::api_resource& r, json_document& doc) {
  if (auto* md = k8s::member(doc, "metadata"); md && md->IsObject())
    for (const char* f : {"labels", "annotations", "finalizers", "ownerReferences"})
      if (empty_container(k8s::member(*md, f))) k8s::remove_member(*md, f);
  if (is_core(r, "configmaps") || is_core(r, "secrets"))
    for (const char* f : {"data", "binaryData", "stringData"})
      if (empty_container(k8s::member(doc, f))) k8s::remove_member(doc, f);
}

void secret_rules(json_document& doc) {
  auto& a = doc.GetAllocator();
  if (auto* sd = k8s::member(doc, "stringData"); sd && sd->IsObject()) {
    auto& data = k8s::ensure_object(doc, {"data"}, a);
    for (auto it = sd->MemberBegin(); it != sd->MemberEnd(); ++it) {
      std::string v = it->value.IsString() ? std::string(k8s::as_string_view(it->value)) : "";
      k8s::set_member(data, k8s::as_string_view(it->name), k8s::make_string(base64_encode(v), a), a);
    }
    k8s::remove_member(doc, "stringData");
  }
  if (auto* data = k8s::member(doc, "data"); data && data->IsObject()) {
    for (auto it = data->MemberBegin(); it != data->MemberEnd(); ++it) {
      std::size_t bad = 0;
      if (!it->value.IsString() && !it->value.IsNull())
        fail(k8s::make_bad_request("Secret in version \"v1\" cannot be handled as a Secret: json: "
                                   "cannot unmarshal value into Go struct field Secret.data of type "
                                   "[]uint8"));
      if (it->value.IsString() && !base64_decode(k8s::as_string_view(it->value), &bad))
        fail(k8s::make_bad_request(fmt::format(
            "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input "
            "byte {}",
            bad)));
    }
  }
  if (k8s::get_string(doc, {"type"}).empty())
    k8s::set_member(doc, "type", k8s::make_string("Opaque", a), a);
}

void service_defaults(json_document& doc) {
  auto& a = doc.GetAllocator();
  auto& spec = k8s::ensure_object(doc, {"spec"}, a);
  if (k8s::get_string(spec, {"type"}).empty())
    k8s::set_member(spec, "type", k8s::make_string("ClusterIP", a), a);
  if (k8s::get_string(spec, {"sessionAffinity"}).empty())
    k8s::set_member(spec, "sessionAffinity", k8s::make_string("None", a), a);
  if (auto* ports = k8s::member(spec, "ports"); ports && ports->IsArray())
    for (auto& p : ports->GetArray()) {
      if (!p.IsObject()) continue;
      if (!k8s::member(p, "protocol")) k8s::set_member(p, "protocol", k8s::make_string("TCP", a), a);
      if (!k8s::member(p, "targetPort"))
        if (auto* port = k8s::member(p, "port"))
          k8s::set_member(p, "targetPort", k8s::copy_json(*port, a), a);
    }
}

void namespace_create(json_document& doc) {
  auto& a = doc.GetAllocator();
  std::string name(k8s::get_string(doc, {"metadata", "name"}));
  auto& labels = k8s::ensure_object(doc, {"metadata", "labels"}, a);
  k8s::set_member(labels, "kubernetes.io/metadata.name", k8s::make_string(name, a), a);
  auto& spec = k8s::ensure_object(doc, {"spec"}, a);
  json_value fins(rapidjson::kArrayType);
  fins.PushBack(k8s::make_string("kubernetes", a), a);
  k8s::set_member(spec, "finalizers", std::move(fins), a);
  auto& status = k8s::ensure_object(doc, {"status"}, a);
  k8s::set_member(status, "phase", k8s::make_string("Active", a), a);
}

void crd_status(json_document& doc) {
  auto& a = doc.GetAllocator();
  auto& status = k8s::ensure_object(doc, {"status"}, a);
  json_value names(rapidjson::kObjectType);
  if (auto* n = k8s::find(doc, {"spec", "names"})) names = k8s::copy_json(*n, a);
  std::string kind(k8s::get_string(names, {"kind"}));
  if (k8s::get_string(names, {"singular"}).empty())
    k8s::set_member(names, "singular", k8s::make_string(lower(kind), a), a);
  if (k8s::get_string(names, {"listKind"}).empty())
    k8s::set_member(names, "listKind", k8s::make_string(kind + "List", a), a);
  // Defaults shown in spec too, as kube's defaulting does.
  k8s::set_member(k8s::ensure_object(doc, {"spec"}, a), "names", k8s::copy_json(names, a), a);
  k8s::set_member(status, "acceptedNames", std::move(names), a);
  std::vector<k8s::condition> conds;
  auto t = k8s::clock::now();
  if (auto* c = k8s::member(status, "conditions"); c && c->IsArray())
    for (auto& v : c->GetArray())
      conds.push_back({std::string(k8s::get_string(v, {"type"})), std::string(k8s::get_string(v, {"status"})),
                       std::string(k8s::get_string(v, {"reason"})), std::string(k8s::get_string(v, {"message"})),
                       std::string(k8s::get_string(v, {"lastTransitionTime"})), 0});
  k8s::set_condition(conds, {"NamesAccepted", "True", "NoConflicts", "no conflicts found", "", 0}, t);
  // A test's CRD that never becomes Established (an API server still
  // installing it): the annotation holds the condition at Installing.
  if (k8s::get_string(doc, {"metadata", "annotations", crd_hold_established_annotation}) == "true")
    k8s::set_condition(conds, {"Established", "False", "Installing", "held by " + crd_hold_established_annotation, "", 0},
                       t);
  else
    k8s::set_condition(conds, {"Established", "True", "InitialNamesAccepted",
                               "the initial names have been accepted", "", 0},
                       t);
  json_value arr(rapidjson::kArrayType);
  for (auto& c : conds) {
    json_value v(rapidjson::kObjectType);
    k8s::set_member(v, "type", k8s::make_string(c.type, a), a);
    k8s::set_member(v, "status", k8s::make_string(c.status, a), a);
    k8s::set_member(v, "lastTransitionTime", k8s::make_string(c.last_transition_time, a), a);
    k8s::set_member(v, "reason", k8s::make_string(c.reason, a), a);
    k8s::set_member(v, "message", k8s::make_string(c.message, a), a);
    arr.PushBack(std::move(v), a);
  }
  k8s::set_member(status, "conditions", std::move(arr), a);
  json_value stored(rapidjson::kArrayType);
  if (auto* vs = k8s::find(doc, {"spec", "versions"}); vs && vs->IsArray())
    for (auto& v : vs->GetArray())
      if (k8s::get_bool(v, {"storage"}).value_or(false))
        stored.PushBack(k8s::make_string(k8s::get_string(v, {"name"}), a), a);
  k8s::set_member(status, "storedVersions", std::move(stored), a);
}

void crd_validate(const json_document& doc) {
  std::string name(k8s::get_string(doc, {"metadata", "name"}));
  std::string plural(k8s::get_string(doc, {"spec", "names", "plural"}));
  std::string group(k8s::get_string(doc, {"spec", "group"}));
  std::vector<k8s::status_cause> causes;
  if (name != plural + "." + group)
    causes.push_back({"FieldValueInvalid",
                      fmt::format("Invalid value: \"{}\": must be spec.names.plural+\".\"+spec.group",
                                  name),
                      "metadata.name"});
  if (k8s::get_string(doc, {"spec", "names", "kind"}).empty())
    causes.push_back({"FieldValueRequired", "Required value", "spec.names.kind"});
  auto scope = k8s::get_string(doc, {"spec", "scope"});
  if (scope != "Namespaced" && scope != "Cluster")
    causes.push_back({"FieldValueNotSupported",
                      fmt::format("Unsupported value: \"{}\": supported values: \"Cluster\", "
                                  "\"Namespaced\"",
                                  scope),
                      "spec.scope"});
  int storage = 0;
  const auto* vs = k8s::find(doc, {"spec", "versions"});
  if (vs && vs->IsArray())
    for (auto& v : vs->GetArray()) storage += k8s::get_bool(v, {"storage"}).value_or(false) ? 1 : 0;
  if (!vs || !vs->IsArray() || vs->Empty())
    causes.push_back({"FieldValueRequired", "Required value: must have exactly one version marked as storage version", "spec.versions"});
  else if (storage != 1)
    causes.push_back({"FieldValueInvalid",
                      fmt::format("Invalid value: []string{{}}: must have exactly one version marked "
                                  "as storage version"),
                      "spec.versions"});
  if (!causes.empty())
    fail(k8s::make_invalid("apiextensions.k8s.io", "CustomResourceDefinition", name, std::move(causes)));
}

}  // namespace

bool is_builtin(const k8s::api_resource& r) {
  for (const auto& b : builtin_kinds())
    if (b.group == r.group && b.plural == r.plural) return true;
  return false;
}

bool allows_unconditional_update(const k8s::api_resource& r) {
  return is_builtin(r) && !is_apiservice(r);
}

bool tracks_generation(const k8s::api_resource& r) {
  return !is_builtin(r) || r.group == "apiextensions.k8s.io";
}

void prepare_for_create(const k8s::api_resource& r, json_document& doc, bool custom) {
  drop_empty_fields(r, doc);
  if (custom && r.status_subresource) k8s::remove_member(doc, "status");
  if (is_core(r, "secrets")) secret_rules(doc);
  if (is_core(r, "services")) service_defaults(doc);
  if (is_core(r, "namespaces")) namespace_create(doc);
  if (is_core_event(r) || is_events_group_event(r)) canonicalize_core_event(doc);
  if (is_apiservice(r)) apiservice_prepare_create(doc, k8s::format_rfc3339(k8s::clock::now()));
  if (r.group == "apiextensions.k8s.io") {
    crd_validate(doc);
    crd_status(doc);
  }
}

void prepare_for_update(const k8s::api_resource& r, json_document& doc, const k8s::object& old) {
  auto& a = doc.GetAllocator();
  drop_empty_fields(r, doc);
  if (is_core(r, "secrets")) secret_rules(doc);
  if (is_core(r, "services")) service_defaults(doc);
  if (is_core_event(r) || is_events_group_event(r)) canonicalize_core_event(doc);
  if (is_apiservice(r)) apiservice_defaults(doc);
  if (is_core(r, "namespaces")) {
    if (auto* f = old.get({"spec", "finalizers"}); f && !k8s::find(doc, {"spec", "finalizers"}))
      k8s::set_member(k8s::ensure_object(doc, {"spec"}, a), "finalizers", k8s::copy_json(*f, a), a);
    auto phase = old.get_string({"status", "phase"});
    if (!phase.empty())
      k8s::set_member(k8s::ensure_object(doc, {"status"}, a), "phase", k8s::make_string(phase, a), a);
  }
  if (r.group == "apiextensions.k8s.io") {
    crd_validate(doc);
    crd_status(doc);
  }
}

void validate_kind(const k8s::api_resource& r, json_document& doc, const k8s::object* old) {
  if (r.group == "apiextensions.k8s.io" && r.plural == "customresourcedefinitions")
    validate_crd_schemas(doc);
  if (!is_builtin(r)) validate_custom(r, doc, old ? &old->json() : nullptr);
  std::string name(k8s::get_string(doc, {"metadata", "name"}));
  if (is_core_event(r) || is_events_group_event(r))
    if (auto errs = validate_event(doc, is_events_group_event(r), old ? &old->json() : nullptr); !errs.empty())
      fail(validation::invalid_error(r.group, r.kind, name, errs));
  if (is_apiservice(r)) {
    auto errs = validate_apiservice(doc);
    for (auto& e : validate_apiservice_status(doc)) errs.push_back(e);
    if (!errs.empty()) fail(validation::invalid_error(r.group, r.kind, name, errs));
  }
}

std::vector<k8s::api_resource> crd_resources(const k8s::object& crd) {
  std::vector<k8s::api_resource> out;
  const auto& j = crd.json();
  const auto* vs = k8s::find(j, {"spec", "versions"});
  if (!vs || !vs->IsArray()) return out;
  for (const auto& v : vs->GetArray()) {
    if (!k8s::get_bool(v, {"served"}).value_or(true)) continue;
    k8s::api_resource r;
    r.group = k8s::get_string(j, {"spec", "group"});
    r.version = k8s::get_string(v, {"name"});
    r.kind = k8s::get_string(j, {"spec", "names", "kind"});
    r.list_kind = k8s::get_string(j, {"spec", "names", "listKind"});
    if (r.list_kind.empty()) r.list_kind = r.kind + "List";
    r.plural = k8s::get_string(j, {"spec", "names", "plural"});
    r.singular = k8s::get_string(j, {"spec", "names", "singular"});
    if (r.singular.empty()) r.singular = lower(r.kind);
    r.namespaced = k8s::get_string(j, {"spec", "scope"}) != "Cluster";
    r.verbs = {"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"};
    if (auto* sn = k8s::find(j, {"spec", "names", "shortNames"}); sn && sn->IsArray())
      for (auto& s : sn->GetArray())
        if (s.IsString()) r.short_names.emplace_back(k8s::as_string_view(s));
    if (auto* cs = k8s::find(j, {"spec", "names", "categories"}); cs && cs->IsArray())
      for (auto& s : cs->GetArray())
        if (s.IsString()) r.categories.emplace_back(k8s::as_string_view(s));
    r.status_subresource = k8s::find(v, {"subresources", "status"}) != nullptr;
    r.scale_subresource = k8s::find(v, {"subresources", "scale"}) != nullptr;
    r.storage_version = k8s::get_bool(v, {"storage"}).value_or(false);
    if (auto* s = k8s::find(v, {"schema", "openAPIV3Schema"}))
      r.schema = std::make_shared<const json_document>(k8s::copy_document(*s));
    if (auto* cols = k8s::member(v, "additionalPrinterColumns"); cols && cols->IsArray())
      for (auto& c : cols->GetArray()) {
        k8s::printer_column pc;
        pc.name = k8s::get_string(c, {"name"});
        pc.type = k8s::get_string(c, {"type"});
        pc.format = k8s::get_string(c, {"format"});
        pc.description = k8s::get_string(c, {"description"});
        pc.priority = static_cast<int>(k8s::get_int(c, {"priority"}).value_or(0));
        pc.json_path = k8s::get_string(c, {"jsonPath"});
        r.printer_columns.push_back(std::move(pc));
      }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace c5c3::sim
