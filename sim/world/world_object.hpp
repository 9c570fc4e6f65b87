// What a simulated controller's step returns, and the condition shapes the
// simulated operators write. Conditions here are not metav1.Condition: the
// RabbitMQ operators and External Secrets write {type, status,
// lastTransitionTime, reason, message} without observedGeneration.
#pragma once

#include "k8s/object.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::world {

// How a driver sends an object to the API server.
enum class write_verb {
  update,         // PUT of the object (metadata: finalizers); resourceVersion is the precondition
  update_status,  // PUT of the status subresource
  upsert,         // create, or replace when it exists (Secrets the controller owns)
  create,         // create only; one that exists is an error (the next pass sees it)
};

struct object_write {
  write_verb verb = write_verb::update;
  k8s::object obj;
};

// A condition as the RabbitMQ operators and ESO write it.
struct plain_condition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
};

// status.conditions replaced by exactly `conds` (the topology operator's
// SetStatusConditions). lastTransitionTime of a condition whose type and status
// were already in `b` is kept; otherwise it is `now`. Returns whether the
// conditions changed.
bool replace_conditions(k8s::object_builder& b, const std::vector<plain_condition>& conds,
                        k8s::time_point now);

// Sets one condition by type, keeping the others (ESO's SetPushSecretCondition
// and the cluster operator). Returns whether anything changed.
bool upsert_condition(k8s::object_builder& b, const plain_condition& c, k8s::time_point now);

// The condition of `type` in status.conditions, if any.
std::optional<plain_condition> find_plain_condition(const k8s::object& o, std::string_view type);

// Random characters for generated user names and passwords: n characters of
// [A-Za-z0-9_-]. Tests pass a deterministic one.
using random_source = std::function<std::string(std::size_t n)>;
random_source system_random();

// Whether two objects differ in `status` (as JSON).
bool status_differs(const k8s::object& a, const k8s::object& b);

}  // namespace c5c3::sim::world
