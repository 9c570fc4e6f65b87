// Why an order is not Ready, from the running operator (issue 20 "explain"):
// the gate or step its last pass stopped at, the child it waits for and that
// child's own condition, the timers armed and when they fire, the last error
// with its time. Served on the health address as
// GET /debug/orders/<controller>/<namespace>/<name>[?cluster=<target>] and
// printed by `c5c3-operator explain <kind>/<name> -n <namespace>`. Built from
// the order actor's probe: condition reasons and messages and object names,
// never a Secret's data.
#pragma once

#include "protocol/order.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::operator_ {

struct explain_request {
  std::string controller;  // the kind's controller name, e.g. "rabbitmqvhost"
  std::string namespace_;
  std::string name;
  std::string cluster;  // "" the management cluster
};

// "/debug/orders/<controller>/<namespace>/<name>" and the query "cluster=<c>";
// nullopt when the path is not one.
std::optional<explain_request> parse_debug_path(std::string_view path, std::string_view cluster_param);
std::string debug_path(const explain_request& r);

// The controller a user's kind names: "RabbitMQVhost", "rabbitmqvhosts" and
// "rabbitmqvhost" are all "rabbitmqvhost" when that is in `controllers`.
std::optional<std::string> controller_for(std::string_view kind, const std::vector<std::string>& controllers);

// The text: `probe` is the order actor's (nullopt: no actor holds that order).
std::string render_explain(const explain_request& r, const std::optional<protocol::order_probe>& probe);

// `c5c3-operator explain KIND/NAME [-n NAMESPACE] [--cluster NAME]
// [--health-probe-bind-address HOST:PORT]`: asks the running operator and
// prints its answer. Returns the exit code (0 found, 1 not found or
// unreachable, 2 usage).
int run_explain(const std::vector<std::string>& args, const std::vector<std::string>& controllers);

}  // namespace c5c3::operator_
