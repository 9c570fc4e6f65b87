// The KeystoneCatalogEntry as the reconciler resolves it (apis.md 1.7): the
// spec with its default (serviceName: metadata.name), the declared
// endpoints, the status fields, the child names.
#pragma once

#include "actors/c5c3/keystonecatalogentry/constants.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::c5c3::keystonecatalogentry {

struct endpoint_spec {
  std::string interface;  // public, internal, admin
  std::string url;
  friend bool operator==(const endpoint_spec&, const endpoint_spec&) = default;
};

struct endpoint_status {
  std::string interface;
  std::string id;
  friend bool operator==(const endpoint_status&, const endpoint_status&) = default;
};

struct catalog_status {
  std::int64_t observed_generation = 0;
  std::string service_id;
  std::string service_name;
  std::vector<endpoint_status> endpoints;
  friend bool operator==(const catalog_status&, const catalog_status&) = default;
};
catalog_status read_status(const k8s::object& order);
void write_status(k8s::object_builder& b, const catalog_status& s);

struct catalog_order {
  korc::order_identity id;
  std::string service_type;  // spec.serviceType
  std::string service_name;  // spec.serviceName, else metadata.name
  std::vector<endpoint_spec> endpoints;
  catalog_status status;
};
catalog_order make_catalog_order(const k8s::object& order, std::string_view cluster);

// <name>-<8 hex>-catalogentry-{service,service-probe,region,endpoint-<interface>}
struct catalog_names {
  std::string prefix;
  explicit catalog_names(const order_ref& ref) : prefix(ref.child_prefix()) {}
  std::string service() const { return prefix + "service"; }
  std::string probe() const { return prefix + "service-probe"; }
  std::string region() const { return prefix + "region"; }
  std::string endpoint_prefix() const { return prefix + "endpoint-"; }
  std::string endpoint(std::string_view interface) const { return endpoint_prefix() + std::string(interface); }
};

}  // namespace c5c3::c5c3::keystonecatalogentry
