// The status writes both openviz reconcilers make (internal to
// actors/monitoring/grafana_*.cpp).
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"
#include "k8s/time.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::monitoring::detail {

inline const std::string deleting_reason = "Resource has been going to be deleted";

// The declaration both start from: no admission, the finalizer, and the
// reads: every AppBinding (cache), and the Secret of the one the object
// resolves to (from the API server: no Secret informer), only when `calls`
// says the pass will call Grafana (the object and its AppBinding).
std::shared_ptr<runtime::kind_declaration> grafana_kind(
    std::string controller, k8s::gvk gvk, std::string finalizer,
    std::function<bool(const k8s::object&, const k8s::object&)> calls);

// The Warning Event of a failure: reason the error, message "Failed to
// complete operation for <Kind>: "<name>", Reason: "<error>"".
runtime::event_record warning(const k8s::object& order, const std::string& error);

// A merge patch of the order's status subresource to what `mutate` makes of
// it (nullopt: no change). The runner goes on from its answer in the same pass.
std::optional<runtime::child_write> status_write(const k8s::object& order,
                                                 const std::function<void(k8s::object_builder&)>& mutate);
// A merge patch of the order's status subresource setting phase and reason
// (nullopt: already so). The runner goes on from its answer in the same pass.
std::optional<runtime::child_write> phase_write(const k8s::object& order, const std::string& phase,
                                                const std::string& reason);

// The failure of handleSetDashboardError / the datasource's: phase Failed,
// reason, condition Failed=True (and Ready=False), observedGeneration when
// `observe`.
k8s::object failed_status(const k8s::object& order, const std::string& error, bool observe, k8s::time_point now);

// The Warning Event and the failed status into `p` (no status when unchanged).
void fail(runtime::order_plan& p, const k8s::object& order, const std::string& error, bool observe,
          k8s::time_point now);

}  // namespace c5c3::monitoring::detail
