#include "sim/openapi/discovery.hpp"

#include "sim/openapi/json_build.hpp"
#include "sim/openapi/resources.hpp"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <set>

namespace c5c3::sim::openapi {

using detail::json_builder;
using k8s::json_document;
using k8s::json_value;

namespace {

// Built-in groups in the order kube-apiserver lists them; CRD groups follow
// in name order (they all have the same group priority).
const std::vector<std::string_view> builtin_group_order = {
    "apiregistration.k8s.io", "apps", "events.k8s.io", "policy", "rbac.authorization.k8s.io",
    "apiextensions.k8s.io", "coordination.k8s.io"};

std::size_t group_rank(std::string_view g) {
  auto it = std::find(builtin_group_order.begin(), builtin_group_order.end(), g);
  return static_cast<std::size_t>(it - builtin_group_order.begin());
}

// The version a resource's objects are stored in, for storageVersionHash.
std::string storage_hash_for(const resource_list& all, const k8s::api_resource& r) {
  // events.k8s.io Events are stored as core/v1 Events.
  if (r.group == "events.k8s.io" && r.plural == "events")
    return storage_version_hash("", "v1", "Event");
  for (const auto& o : all)
    if (o.group == r.group && o.plural == r.plural && o.storage_version)
      return storage_version_hash(o.group, o.version, o.kind);
  return storage_version_hash(r.group, r.version, r.kind);
}

std::vector<const k8s::api_resource*> resources_in(const resource_list& all, std::string_view group,
                                                   std::string_view version) {
  std::vector<const k8s::api_resource*> out;
  for (const auto& r : all)
    if (r.group == group && r.version == version) out.push_back(&r);
  std::sort(out.begin(), out.end(),
            [](const auto* a, const auto* b) { return a->plural < b->plural; });
  return out;
}

json_value group_version_for_discovery(json_builder& b, std::string_view group,
                                       std::string_view version) {
  json_value gv = json_builder::obj();
  b.add(gv, "groupVersion", group.empty() ? std::string(version)
                                          : std::string(group) + "/" + std::string(version));
  b.add(gv, "version", version);
  return gv;
}

json_value group_json(json_builder& b, const resource_list& resources, std::string_view group) {
  json_value g = json_builder::obj();
  b.add(g, "name", group);
  json_value versions = json_builder::arr();
  auto served = served_versions(resources, group);
  for (const auto& v : served) b.push(versions, group_version_for_discovery(b, group, v));
  b.add(g, "versions", std::move(versions));
  if (!served.empty()) b.add(g, "preferredVersion", group_version_for_discovery(b, group, served[0]));
  return g;
}

json_value response_kind(json_builder& b, std::string_view group, std::string_view version,
                         std::string_view kind) {
  json_value k = json_builder::obj();
  b.add(k, "group", group);
  b.add(k, "version", version);
  b.add(k, "kind", kind);
  return k;
}

const std::vector<std::string> subresource_verbs = {"get", "patch", "update"};

json_value aggregated_resource(json_builder& b, const k8s::api_resource& r) {
  json_value o = json_builder::obj();
  b.add(o, "resource", r.plural);
  b.add(o, "responseKind", response_kind(b, r.group, r.version, r.kind));
  b.add(o, "scope", r.namespaced ? "Namespaced" : "Cluster");
  b.add(o, "singularResource", r.singular);
  b.add(o, "verbs", b.str_array(r.verbs));
  if (!r.short_names.empty()) b.add(o, "shortNames", b.str_array(r.short_names));
  if (!r.categories.empty()) b.add(o, "categories", b.str_array(r.categories));
  json_value subs = json_builder::arr();
  if (r.scale_subresource) {
    json_value s = json_builder::obj();
    b.add(s, "subresource", "scale");
    b.add(s, "responseKind", response_kind(b, "autoscaling", "v1", "Scale"));
    b.add(s, "verbs", b.str_array(subresource_verbs));
    b.push(subs, std::move(s));
  }
  if (r.status_subresource) {
    json_value s = json_builder::obj();
    b.add(s, "subresource", "status");
    b.add(s, "responseKind", response_kind(b, r.group, r.version, r.kind));
    b.add(s, "verbs", b.str_array(subresource_verbs));
    b.push(subs, std::move(s));
  }
  if (!subs.Empty()) b.add(o, "subresources", std::move(subs));
  return o;
}

json_value aggregated_group(json_builder& b, const resource_list& resources,
                            std::string_view group) {
  json_value item = json_builder::obj();
  json_value meta = json_builder::obj();
  if (!group.empty()) b.add(meta, "name", group);
  b.add(meta, "creationTimestamp", json_value(rapidjson::kNullType));
  b.add(item, "metadata", std::move(meta));
  json_value versions = json_builder::arr();
  for (const auto& v : served_versions(resources, group)) {
    json_value ver = json_builder::obj();
    b.add(ver, "version", v);
    json_value list = json_builder::arr();
    for (const auto* r : resources_in(resources, group, v)) b.push(list, aggregated_resource(b, *r));
    b.add(ver, "resources", std::move(list));
    b.add(ver, "freshness", "Current");
    b.push(versions, std::move(ver));
  }
  b.add(item, "versions", std::move(versions));
  return item;
}

}  // namespace

std::string storage_version_hash(std::string_view group, std::string_view version,
                                 std::string_view kind) {
  if (kind.empty()) return {};
  std::string gvk = std::string(group) + "/" + std::string(version) + "/" + std::string(kind);
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(gvk.data()), gvk.size(), digest.data());
  std::array<unsigned char, 16> out{};  // base64 of 8 bytes is 12 characters
  int n = EVP_EncodeBlock(out.data(), digest.data(), 8);
  return std::string(reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n));
}

std::vector<std::string> served_groups(const resource_list& resources) {
  std::set<std::string> set;
  for (const auto& r : resources)
    if (!r.group.empty()) set.insert(r.group);
  std::vector<std::string> out(set.begin(), set.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return group_rank(a) < group_rank(b);
  });
  return out;
}

std::vector<std::string> served_versions(const resource_list& resources, std::string_view group) {
  std::set<std::string> set;
  for (const auto& r : resources)
    if (r.group == group) set.insert(r.version);
  std::vector<std::string> out(set.begin(), set.end());
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return kube_version_less(a, b); });
  return out;
}

json_document api_versions(std::string_view server_address) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "APIVersions");
  json_value versions = json_builder::arr();
  b.push(versions, b.str("v1"));
  b.add(d, "versions", std::move(versions));
  json_value addrs = json_builder::arr();
  json_value a = json_builder::obj();
  b.add(a, "clientCIDR", "0.0.0.0/0");
  b.add(a, "serverAddress", server_address);
  b.push(addrs, std::move(a));
  b.add(d, "serverAddressByClientCIDRs", std::move(addrs));
  return d;
}

json_document api_group_list(const resource_list& resources) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "APIGroupList");
  b.add(d, "apiVersion", "v1");
  json_value groups = json_builder::arr();
  for (const auto& g : served_groups(resources)) b.push(groups, group_json(b, resources, g));
  b.add(d, "groups", std::move(groups));
  return d;
}

std::optional<json_document> api_group(const resource_list& resources, std::string_view group) {
  if (group.empty() || served_versions(resources, group).empty()) return std::nullopt;
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "APIGroup");
  b.add(d, "apiVersion", "v1");
  json_value g = group_json(b, resources, group);
  for (auto& m : g.GetObject()) d.AddMember(m.name, m.value, d.GetAllocator());
  return d;
}

std::optional<json_document> api_resource_list(const resource_list& resources,
                                               std::string_view group, std::string_view version) {
  auto list = resources_in(resources, group, version);
  if (list.empty()) return std::nullopt;
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "APIResourceList");
  // The legacy core list carries no apiVersion; group lists do.
  if (!group.empty()) b.add(d, "apiVersion", "v1");
  b.add(d, "groupVersion", list.front()->api_version());
  json_value out = json_builder::arr();
  auto subresource = [&](const k8s::api_resource& r, std::string_view sub, std::string_view g,
                         std::string_view v, std::string_view kind) {
    json_value s = json_builder::obj();
    b.add(s, "name", r.plural + "/" + std::string(sub));
    b.add(s, "singularName", "");
    b.add(s, "namespaced", r.namespaced);
    if (!g.empty() || !v.empty()) {
      b.add(s, "group", g);
      b.add(s, "version", v);
    }
    b.add(s, "kind", kind);
    b.add(s, "verbs", b.str_array(subresource_verbs));
    b.push(out, std::move(s));
  };
  for (const auto* r : list) {
    json_value o = json_builder::obj();
    b.add(o, "name", r->plural);
    b.add(o, "singularName", r->singular);
    b.add(o, "namespaced", r->namespaced);
    b.add(o, "kind", r->kind);
    b.add(o, "verbs", b.str_array(r->verbs));
    if (!r->short_names.empty()) b.add(o, "shortNames", b.str_array(r->short_names));
    if (!r->categories.empty()) b.add(o, "categories", b.str_array(r->categories));
    b.add(o, "storageVersionHash", storage_hash_for(resources, *r));
    b.push(out, std::move(o));
    if (r->scale_subresource) subresource(*r, "scale", "autoscaling", "v1", "Scale");
    if (r->status_subresource) subresource(*r, "status", "", "", r->kind);
  }
  b.add(d, "resources", std::move(out));
  return d;
}

json_document aggregated_discovery(const resource_list& resources, bool legacy_core,
                                   discovery_version version) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "APIGroupDiscoveryList");
  b.add(d, "apiVersion", version == discovery_version::v2 ? "apidiscovery.k8s.io/v2"
                                                          : "apidiscovery.k8s.io/v2beta1");
  b.add(d, "metadata", json_builder::obj());
  json_value items = json_builder::arr();
  if (legacy_core) {
    if (!served_versions(resources, "").empty()) b.push(items, aggregated_group(b, resources, ""));
  } else {
    for (const auto& g : served_groups(resources)) b.push(items, aggregated_group(b, resources, g));
  }
  b.add(d, "items", std::move(items));
  return d;
}

std::string aggregated_discovery_content_type(discovery_version version) {
  return std::string("application/json;g=apidiscovery.k8s.io;v=") +
         (version == discovery_version::v2 ? "v2" : "v2beta1") + ";as=APIGroupDiscoveryList";
}

}  // namespace c5c3::sim::openapi
