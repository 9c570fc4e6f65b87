// ensureOrderChild as a decision (apis.md 1.1): a live object of the child's
// name the order did not create is refused; otherwise the child is claimed
// (the three labels) and written when the live object lacks what it applies.
#pragma once

#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"

#include <optional>
#include <string>

namespace c5c3::c5c3 {

enum class ensure_action {
  unchanged,  // the live object carries every applied field: no request
  create,     // nothing live: create (AlreadyExists sends the actor to read it)
  apply,      // a live child drifted: write it (apply; update for a read-modify-write)
  refuse,     // a live object the order did not create
};

struct ensure_decision {
  ensure_action action = ensure_action::unchanged;
  std::optional<child_write> write;
  std::string refusal;  // "refusing to adopt pre-existing <Kind> <ns/name>: it was not created by this order"
  bool refused() const { return action == ensure_action::refuse; }
};

// True when every field `desired` sets (metadata labels, annotations and owner
// references, spec, data, ...) is present with the same value in `live`:
// what Server-Side Apply would leave unchanged. Status is never compared.
bool applied_fields_present(const k8s::object& desired, const k8s::object& live);

// The refusal message of a foreign object.
std::string refusing_to_adopt_message(std::string_view kind, const k8s::object_key& key);

// `desired` is claimed here; `live` is the object of that name as the order
// sees it (null: none).
ensure_decision ensure_order_child(const order_ref& o, const k8s::object& desired, const k8s::object* live,
                                   const order_owner& owner = {});

}  // namespace c5c3::c5c3
