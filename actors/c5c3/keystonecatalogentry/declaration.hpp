// The KeystoneCatalogEntry kind as the order runner runs it: its reads (the
// K-ORC Services, Regions and Endpoints listed by the order's labels in the
// ControlPlane's namespace), the adapter to plan_pass, and its constants.
// Pure: no actor, no request.
#pragma once

#include "actors/c5c3/keystonecatalogentry/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::c5c3::keystonecatalogentry {

k8s::gvk order_gvk();
std::vector<runtime::read_slot> reads();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> declaration();

}  // namespace c5c3::c5c3::keystonecatalogentry
