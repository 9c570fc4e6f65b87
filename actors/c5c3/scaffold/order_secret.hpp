// Secrets as the orders write them, and ensureOrderSecret: a read-modify-write
// of a labelled Secret, so a generated value is kept across passes.
#pragma once

#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "k8s/object.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3 {

// The decoded value of data[key] (or stringData[key]); nullopt when absent or
// not base64.
std::optional<std::string> secret_value(const k8s::object& secret, std::string_view key);

// A v1 Secret of type Opaque with `data` (plain values, base64-encoded here).
k8s::object_builder secret_builder(std::string_view namespace_, std::string_view name,
                                   const std::map<std::string, std::string>& data);

struct order_secret_spec {
  std::string namespace_;
  std::string name;
  // Keys written on every pass.
  std::map<std::string, std::string> set;
  // Keys generated once (generate_secret_value) and kept while non-empty.
  std::vector<std::string> generated;
  // Labels beside the three ownership labels.
  std::map<std::string, std::string> extra_labels;
  // Keys removed when present (a CA bundle no longer configured).
  std::vector<std::string> dropped = {};
};

struct order_secret_decision {
  ensure_decision ensure;  // create / update (read-modify-write) / unchanged / refuse
  std::map<std::string, std::string> data;  // the Secret's data once written (plain)
};

// `live`: the Secret of that name as the order sees it (null: none). A live
// Secret the order did not create is refused.
order_secret_decision ensure_order_secret(const order_ref& o, const order_secret_spec& spec,
                                          const k8s::object* live, const random_source& random);

}  // namespace c5c3::c5c3
