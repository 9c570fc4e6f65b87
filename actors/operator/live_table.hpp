// The embedded default's live table of orders, as pure functions: a row per
// order (NAMESPACE NAME KIND READY REASON AGE MESSAGE, from its Ready
// condition), the table redrawn on a terminal, and one line per change when
// the output is not a terminal. Only the Ready condition's status, reason and
// message are shown: the order documents keep credentials out of conditions,
// and nothing else of an object is printed.
#pragma once

#include "k8s/object.hpp"
#include "k8s/time.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace c5c3::operator_::live {

struct order_row {
  std::string namespace_;
  std::string name;
  std::string kind;
  std::string ready;  // the Ready condition's status ("True", "False", "Unknown"), "" without one
  std::string reason;
  std::string message;
  std::string created;  // metadata.creationTimestamp
  bool terminating = false;
  friend bool operator==(const order_row&, const order_row&) = default;
};

// kind, namespace, name: the table's order.
using row_key = std::tuple<std::string, std::string, std::string>;
using snapshot = std::map<row_key, order_row>;

order_row row_of(const k8s::object& order);
snapshot snapshot_of(const std::vector<k8s::object>& orders);

// Whether a CustomResourceDefinition defines an order kind: group c5c3.io,
// any kind but ControlPlane.
bool is_order_crd(const k8s::object& crd);

// The table, each line cut to `width` columns (0: no limit), ending in "\n".
// `header` lines are printed above it, cut too (e.g. how to reach the API server). At most
// `max_rows` orders are listed (0: all), then "... and N more"; the last line
// counts the orders and those Ready.
std::string render_table(const snapshot& rows, k8s::time_point now, std::size_t width,
                         const std::string& header = {}, std::size_t max_rows = 0);

// One line per order that appeared, changed (its READY, REASON, MESSAGE or
// terminating) or went away between `before` and `after`, stamped with `now`.
std::vector<std::string> changes(const snapshot& before, const snapshot& after, k8s::time_point now);

}  // namespace c5c3::operator_::live
