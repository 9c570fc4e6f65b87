#include "sim/openapi/openapi.hpp"
#include "sim/openapi/resources.hpp"

#include "tests/openapi/sample_crd.hpp"

#include <boost/test/unit_test.hpp>

#include <functional>
#include <set>

using namespace c5c3;
using namespace c5c3::sim::openapi;

namespace {

resource_list served() {
  resource_list all = builtin_resources();
  for (auto& r : resources_from_crd(c5c3::test::sample_crd())) all.push_back(std::move(r));
  return all;
}

const k8s::json_value& schemas_of(const k8s::json_value& doc) {
  const auto* s = k8s::find(doc, {"components", "schemas"});
  BOOST_REQUIRE(s && s->IsObject());
  return *s;
}

// Every "$ref" in `v`.
void refs(const k8s::json_value& v, std::set<std::string>& out) {
  if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      if (k8s::as_string_view(m.name) == "$ref" && m.value.IsString())
        out.emplace(k8s::as_string_view(m.value));
      else
        refs(m.value, out);
    }
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) refs(e, out);
  }
}

bool contains_key(const k8s::json_value& v, std::string_view key) {
  if (v.IsObject()) {
    for (const auto& m : v.GetObject())
      if (k8s::as_string_view(m.name) == key || contains_key(m.value, key)) return true;
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray())
      if (contains_key(e, key)) return true;
  }
  return false;
}

// What `kubectl explain <kind>.<fields>` walks: find the schema whose
// x-kubernetes-group-version-kind matches, then follow properties through
// $ref, allOf, items and additionalProperties. Returns the field's schema
// (resolved) or null.
const k8s::json_value* explain(const k8s::json_value& doc, std::string_view group,
                               std::string_view version, std::string_view kind,
                               const std::vector<std::string>& fields) {
  const auto& schemas = schemas_of(doc);
  auto resolve = [&](const k8s::json_value* s) -> const k8s::json_value* {
    for (int guard = 0; s && guard < 8; ++guard) {
      if (const auto* r = k8s::member(*s, "$ref")) {
        std::string_view ref = k8s::as_string_view(*r);
        s = k8s::member(schemas, ref.substr(std::string_view("#/components/schemas/").size()));
      } else if (const auto* all = k8s::member(*s, "allOf"); all && all->Size() == 1 &&
                                                             !k8s::member(*s, "properties")) {
        s = &(*all)[0];
      } else if (const auto* items = k8s::member(*s, "items")) {
        s = items;
      } else {
        return s;
      }
    }
    return s;
  };
  const k8s::json_value* current = nullptr;
  for (const auto& m : schemas.GetObject()) {
    const auto* gvks = k8s::member(m.value, "x-kubernetes-group-version-kind");
    if (!gvks) continue;
    for (const auto& g : gvks->GetArray())
      if (k8s::get_string(g, {"group"}) == group && k8s::get_string(g, {"version"}) == version &&
          k8s::get_string(g, {"kind"}) == kind)
        current = &m.value;
  }
  for (const auto& f : fields) {
    current = resolve(current);
    if (!current) return nullptr;
    current = k8s::find(*current, {"properties", f});
  }
  return current;
}

std::string description(const k8s::json_value* field) {
  return field ? std::string(k8s::get_string(*field, {"description"})) : "<missing>";
}

std::vector<std::string> patch_content_types(const k8s::json_value& doc, const std::string& path) {
  std::vector<std::string> out;
  const auto* paths = k8s::member(doc, "paths");
  BOOST_REQUIRE(paths);
  const auto* content = k8s::find(*k8s::member(*paths, path), {"patch", "requestBody", "content"});
  BOOST_REQUIRE(content);
  for (const auto& m : content->GetObject()) out.emplace_back(k8s::as_string_view(m.name));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_documents)

BOOST_AUTO_TEST_CASE(v3_index_lists_group_versions_with_hashes) {
  auto all = served();
  BOOST_TEST(openapi_v3_paths(all) ==
                 (std::vector<std::string>{"api/v1", "apis/apiextensions.k8s.io/v1", "apis/apps/v1",
                                           "apis/c5c3.io/v1alpha1", "apis/c5c3.io/v1alpha2",
                                           "apis/coordination.k8s.io/v1", "apis/events.k8s.io/v1",
                                           "apis/policy/v1", "apis/rbac.authorization.k8s.io/v1"}),
             boost::test_tools::per_element());
  auto index = openapi_v3_index(all);
  const auto* entry = k8s::find(index, {"paths", "apis/c5c3.io/v1alpha1"});
  BOOST_REQUIRE(entry);
  auto doc = openapi_v3_document(all, "apis/c5c3.io/v1alpha1");
  BOOST_REQUIRE(doc);
  std::string hash = openapi_hash(*doc);
  BOOST_TEST(hash.size() == 128u);
  BOOST_TEST(hash.find_first_not_of("0123456789ABCDEF") == std::string::npos);
  BOOST_TEST(k8s::get_string(*entry, {"serverRelativeURL"}) == "/openapi/v3/apis/c5c3.io/v1alpha1?hash=" + hash);
  BOOST_TEST(k8s::find(index, {"paths", "api/v1", "serverRelativeURL"}) != nullptr);
  // Same input, same hash; a different document, a different one.
  BOOST_TEST(openapi_hash(*openapi_v3_document(all, "apis/c5c3.io/v1alpha1")) == hash);
  BOOST_TEST(openapi_hash(*openapi_v3_document(all, "apis/c5c3.io/v1alpha2")) != hash);
  for (std::string_view bad : {"apis/c5c3.io", "apis/batch/v1", "api/v2", "apis//v1", "foo", "api/v1/x"})
    BOOST_TEST(!openapi_v3_document(all, bad), bad);
}

BOOST_AUTO_TEST_CASE(v3_custom_resource_document) {
  auto doc = openapi_v3_document(served(), "apis/c5c3.io/v1alpha1");
  BOOST_REQUIRE(doc);
  BOOST_TEST(k8s::get_string(*doc, {"openapi"}) == "3.0.0");
  const auto& schemas = schemas_of(*doc);
  std::vector<std::string> names;
  for (const auto& m : schemas.GetObject()) names.emplace_back(k8s::as_string_view(m.name));
  BOOST_TEST(names == (std::vector<std::string>{
                          "io.c5c3.v1alpha1.RabbitMQVhost", "io.c5c3.v1alpha1.RabbitMQVhostList",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
                          "io.k8s.apimachinery.pkg.apis.meta.v1.Time"}),
             boost::test_tools::per_element());
  const auto& kind = *k8s::member(schemas, "io.c5c3.v1alpha1.RabbitMQVhost");
  BOOST_TEST(k8s::to_json(*k8s::member(kind, "x-kubernetes-group-version-kind")) ==
             R"([{"group":"c5c3.io","kind":"RabbitMQVhost","version":"v1alpha1"}])");
  std::vector<std::string> props;
  for (const auto& m : k8s::member(kind, "properties")->GetObject()) props.emplace_back(k8s::as_string_view(m.name));
  BOOST_TEST(props == (std::vector<std::string>{"apiVersion", "kind", "metadata", "spec", "status"}),
             boost::test_tools::per_element());
  BOOST_TEST(k8s::to_json(*k8s::find(kind, {"properties", "metadata", "allOf"})) ==
             R"([{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}])");
  BOOST_TEST(k8s::get_string(kind, {"description"}) ==
             "RabbitMQVhost orders one vhost and one user on the ControlPlane's RabbitMQ.");
  const auto& list = *k8s::member(schemas, "io.c5c3.v1alpha1.RabbitMQVhostList");
  BOOST_TEST(k8s::get_string(list, {"properties", "items", "items", "$ref"}) ==
             "#/components/schemas/io.c5c3.v1alpha1.RabbitMQVhost");
  BOOST_TEST(k8s::get_string((*k8s::member(list, "x-kubernetes-group-version-kind"))[0], {"kind"}) ==
             "RabbitMQVhostList");

  // Every reference resolves inside the document.
  std::set<std::string> all_refs;
  refs(*doc, all_refs);
  for (const auto& r : all_refs) {
    BOOST_TEST_CONTEXT(r) {
      BOOST_TEST(r.rfind("#/components/schemas/", 0) == 0u);
      BOOST_TEST(k8s::member(schemas, r.substr(21)) != nullptr);
    }
  }
}

BOOST_AUTO_TEST_CASE(v3_paths_carry_gvk_and_field_validation) {
  auto doc = openapi_v3_document(served(), "apis/c5c3.io/v1alpha1");
  BOOST_REQUIRE(doc);
  const auto& paths = *k8s::member(*doc, "paths");
  std::vector<std::string> names;
  for (const auto& m : paths.GetObject()) names.emplace_back(k8s::as_string_view(m.name));
  BOOST_TEST(names == (std::vector<std::string>{
                          "/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts",
                          "/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts/{name}",
                          "/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts/{name}/status"}),
             boost::test_tools::per_element());
  const std::string item = "/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts/{name}";
  const auto& patch = *k8s::find(paths, {item, "patch"});
  BOOST_TEST(k8s::to_json(*k8s::member(patch, "x-kubernetes-group-version-kind")) ==
             R"({"group":"c5c3.io","kind":"RabbitMQVhost","version":"v1alpha1"})");
  BOOST_TEST(k8s::get_string(patch, {"x-kubernetes-action"}) == "patch");
  bool field_validation = false;
  for (const auto& p : k8s::member(patch, "parameters")->GetArray())
    if (k8s::get_string(p, {"name"}) == "fieldValidation" && k8s::get_string(p, {"in"}) == "query")
      field_validation = true;
  BOOST_TEST(field_validation);
  // Custom resources take no strategic merge patch.
  BOOST_TEST(patch_content_types(*doc, item) ==
                 (std::vector<std::string>{"application/json-patch+json", "application/merge-patch+json",
                                           "application/apply-patch+yaml"}),
             boost::test_tools::per_element());
  BOOST_TEST(k8s::get_string(paths, {item, "get", "x-kubernetes-action"}) == "get");
  BOOST_TEST(k8s::get_string(paths, {"/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts", "get",
                                     "x-kubernetes-action"}) == "list");
  BOOST_TEST(k8s::get_string(paths, {"/apis/c5c3.io/v1alpha1/namespaces/{namespace}/rabbitmqvhosts", "delete",
                                     "x-kubernetes-action"}) == "deletecollection");
  BOOST_TEST(k8s::get_string(paths, {item, "patch", "operationId"}) == "patchC5c3IoV1alpha1NamespacedRabbitMQVhost");
}

BOOST_AUTO_TEST_CASE(explain_walks_custom_and_builtin_kinds) {
  auto all = served();
  auto c5c3 = *openapi_v3_document(all, "apis/c5c3.io/v1alpha1");
  BOOST_TEST(description(explain(c5c3, "c5c3.io", "v1alpha1", "RabbitMQVhost", {"spec"})) ==
             "Desired state of the RabbitMQVhost.");
  BOOST_TEST(description(explain(c5c3, "c5c3.io", "v1alpha1", "RabbitMQVhost", {"spec", "controlPlaneRef", "name"})) ==
             "Name of the ControlPlane.");
  BOOST_TEST(description(explain(c5c3, "c5c3.io", "v1alpha1", "RabbitMQVhost", {"metadata", "ownerReferences", "uid"})) ==
             "UID of the owner.");
  BOOST_TEST(!explain(c5c3, "c5c3.io", "v1alpha1", "RabbitMQVhost", {"spec", "nope"}));

  auto core = *openapi_v3_document(all, "api/v1");
  BOOST_TEST(description(explain(core, "", "v1", "Secret", {"stringData"})).find("Write-only") == 0u);
  BOOST_TEST(description(explain(core, "", "v1", "ConfigMap", {"data"})) == "Configuration data as UTF-8 strings.");
  BOOST_TEST(description(explain(core, "", "v1", "Service", {"spec", "ports", "targetPort"})) ==
             "The number or name of the port on the pods; defaults to port.");
  BOOST_TEST(description(explain(core, "", "v1", "Namespace", {"status", "phase"})) ==
             "The lifecycle phase of the namespace.");
  auto rbac = *openapi_v3_document(all, "apis/rbac.authorization.k8s.io/v1");
  BOOST_TEST(description(explain(rbac, "rbac.authorization.k8s.io", "v1", "RoleBinding", {"roleRef", "kind"})) ==
             "Role or ClusterRole.");
  auto lease = *openapi_v3_document(all, "apis/coordination.k8s.io/v1");
  BOOST_TEST(explain(lease, "coordination.k8s.io", "v1", "Lease", {"spec", "holderIdentity"}) != nullptr);
  auto crds = *openapi_v3_document(all, "apis/apiextensions.k8s.io/v1");
  BOOST_TEST(explain(crds, "apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                     {"spec", "versions", "additionalPrinterColumns", "jsonPath"}) != nullptr);
  auto events = *openapi_v3_document(all, "apis/events.k8s.io/v1");
  BOOST_TEST(explain(events, "events.k8s.io", "v1", "Event", {"regarding", "kind"}) != nullptr);
}

BOOST_AUTO_TEST_CASE(v3_builtin_patch_strategies) {
  auto core = *openapi_v3_document(served(), "api/v1");
  const auto& schemas = schemas_of(core);
  for (const auto& r : builtin_resources()) {
    if (!r.group.empty()) continue;
    BOOST_TEST_CONTEXT(r.kind) {
      BOOST_TEST(k8s::member(schemas, schema_name(r)) != nullptr);
      BOOST_TEST(k8s::member(schemas, schema_name(r).substr(0, schema_name(r).size() - r.kind.size()) + r.list_kind) !=
                 nullptr);
    }
  }
  const auto& ports = *k8s::find(schemas, {"io.k8s.api.core.v1.ServiceSpec", "properties", "ports"});
  BOOST_TEST(k8s::get_string(ports, {"x-kubernetes-patch-merge-key"}) == "port");
  BOOST_TEST(k8s::get_string(ports, {"x-kubernetes-patch-strategy"}) == "merge");
  BOOST_TEST(k8s::get_string(ports, {"x-kubernetes-list-type"}) == "map");
  BOOST_TEST(k8s::to_json(*k8s::member(ports, "x-kubernetes-list-map-keys")) == R"(["port","protocol"])");
  const auto& meta = *k8s::member(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  BOOST_TEST(k8s::get_string(meta, {"properties", "ownerReferences", "x-kubernetes-list-type"}) == "map");
  BOOST_TEST(k8s::to_json(*k8s::find(meta, {"properties", "ownerReferences", "x-kubernetes-list-map-keys"})) ==
             R"(["uid"])");
  BOOST_TEST(k8s::get_string(meta, {"properties", "ownerReferences", "x-kubernetes-patch-merge-key"}) == "uid");
  BOOST_TEST(k8s::get_string(meta, {"properties", "finalizers", "x-kubernetes-list-type"}) == "set");
  BOOST_TEST(k8s::get_string(meta, {"properties", "managedFields", "x-kubernetes-list-type"}) == "atomic");
  BOOST_TEST(patch_content_types(core, "/api/v1/namespaces/{namespace}/secrets/{name}") ==
                 (std::vector<std::string>{"application/json-patch+json", "application/merge-patch+json",
                                           "application/strategic-merge-patch+json",
                                           "application/apply-patch+yaml"}),
             boost::test_tools::per_element());
  BOOST_TEST(k8s::find(core, {"paths", "/api/v1/namespaces/{name}", "patch"}) != nullptr);  // cluster-scoped
  BOOST_TEST(k8s::find(core, {"paths", "/api/v1/namespaces/{name}/status", "put"}) != nullptr);
  // Namespaces cannot be deleted as a collection.
  BOOST_TEST(k8s::find(core, {"paths", "/api/v1/namespaces", "delete"}) == nullptr);
  BOOST_TEST(k8s::find(core, {"paths", "/api/v1/namespaces/{namespace}/secrets", "delete"}) != nullptr);
}

BOOST_AUTO_TEST_CASE(v2_document) {
  auto d = openapi_v2(served());
  BOOST_TEST(k8s::get_string(d, {"swagger"}) == "2.0");
  const auto* defs = k8s::member(d, "definitions");
  BOOST_REQUIRE(defs);
  const auto* kind = k8s::member(*defs, "io.c5c3.v1alpha1.RabbitMQVhost");
  BOOST_REQUIRE(kind);
  BOOST_TEST(k8s::get_string(*kind, {"properties", "metadata", "$ref"}) ==
             "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  BOOST_TEST(!contains_key(*kind, "nullable"));  // Swagger 2.0 has none
  BOOST_TEST(k8s::member(*defs, "io.k8s.api.core.v1.Secret") != nullptr);
  BOOST_TEST(k8s::member(*defs, "io.k8s.api.rbac.v1.ClusterRoleBinding") != nullptr);
  std::set<std::string> all_refs;
  refs(d, all_refs);
  for (const auto& r : all_refs) {
    BOOST_TEST_CONTEXT(r) {
      BOOST_TEST(r.rfind("#/definitions/", 0) == 0u);
      BOOST_TEST(k8s::member(*defs, r.substr(14)) != nullptr);
    }
  }
  const auto* patch = k8s::find(d, {"paths", "/api/v1/namespaces/{namespace}/services/{name}", "patch"});
  BOOST_REQUIRE(patch);
  BOOST_TEST(k8s::to_json(*k8s::member(*patch, "consumes")) ==
             R"(["application/json-patch+json","application/merge-patch+json","application/strategic-merge-patch+json","application/apply-patch+yaml"])");
  BOOST_TEST(k8s::get_string(*patch, {"x-kubernetes-group-version-kind", "kind"}) == "Service");
}

// gnostic openapi_v2.Document: swagger (1) and info (2: title 1, version 2).
BOOST_AUTO_TEST_CASE(v2_protobuf_document) {
  auto d = k8s::parse_json(R"({"swagger":"2.0","info":{"title":"Kubernetes","version":"v1.32.0"}})");
  BOOST_REQUIRE(d);
  auto pb = openapi_v2_protobuf(*d);
  const std::string want = std::string("\x0a\x03" "2.0" "\x12\x15" "\x0a\x0a" "Kubernetes" "\x12\x07" "v1.32.0");
  BOOST_TEST(pb == want);
  BOOST_TEST(openapi_v2_protobuf_type == "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
}

BOOST_AUTO_TEST_SUITE_END()
