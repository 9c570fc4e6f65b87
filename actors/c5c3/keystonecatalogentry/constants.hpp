// The KeystoneCatalogEntry kind's constants (apis.md 1.7): finalizer,
// labels, condition types and reasons, the instrumenter table.
#pragma once

#include "actors/c5c3/scaffold/order_ref.hpp"

#include <array>
#include <string_view>

namespace c5c3::c5c3::keystonecatalogentry {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "KeystoneCatalogEntry";
inline constexpr std::string_view segment = "catalogentry";

inline constexpr std::string_view finalizer = "c5c3.io/keystonecatalogentry-teardown";

inline constexpr std::string_view label_name = "c5c3.io/keystonecatalogentry-name";
inline constexpr std::string_view label_namespace = "c5c3.io/keystonecatalogentry-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/keystonecatalogentry-cluster";

inline constexpr std::string_view condition_type_catalog_ready = "CatalogReady";
inline constexpr std::array<std::string_view, 1> sub_condition_types{condition_type_catalog_ready};

inline constexpr std::string_view reason_catalog_registered = "CatalogRegistered";
inline constexpr std::string_view reason_catalog_not_allowed = "CatalogNotAllowed";
inline constexpr std::string_view reason_service_collision = "ServiceCollision";
inline constexpr std::string_view reason_probing_for_collision = "ProbingForCollision";
inline constexpr std::string_view reason_waiting_for_catalog = "WaitingForCatalog";
inline constexpr std::string_view reason_catalog_failed = "CatalogFailed";
inline constexpr std::string_view reason_catalog_error = "CatalogError";

// The read slots.
inline constexpr std::string_view slot_services = "services";
inline constexpr std::string_view slot_regions = "regions";
inline constexpr std::string_view slot_endpoints = "endpoints";

struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 1> sub_reconcilers{{
    {"KeystoneCatalogEntryProvision", condition_type_catalog_ready},
}};

order_label_keys label_keys();

}  // namespace c5c3::c5c3::keystonecatalogentry
