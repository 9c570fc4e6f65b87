// Fault rules of the monitoring stand-ins (Grafana, the trickster backend,
// Rancher): a small list like the emulator's, matched on method and path.
//   - id: grafana-down        # optional; generated when empty
//     method: POST            # optional; any when empty
//     path: /api/dashboards/  # a prefix of the request path; any when empty
//     status: 503             # answer this code with the stand-in's error body
//     message: "..."          # the error text in that body (a default per code)
//     latency: 2s             # Go duration (or milliseconds), before anything else
//     reset: true             # "down": the connection is reset, no answer
//     times: 1                # fire at most this often (default: forever)
// A YAML or JSON document holds a list of rules, {rules: [...]}, or one rule.
#pragma once

#include "k8s/json.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::monitoring {

struct fault_rule {
  std::string id;
  std::string method;
  std::string path;
  int status = 0;
  std::string message;
  std::chrono::milliseconds latency{0};
  bool reset = false;
  int times = -1;
};

// Parse errors are thrown as std::runtime_error naming the field.
fault_rule fault_from_json(const k8s::json_value& v);
k8s::json_value fault_to_json(const fault_rule& r, k8s::json_allocator& a);
std::vector<fault_rule> faults_from_text(std::string_view yaml_or_json);

// Thread-safe: the stand-ins' connection threads match while tests edit.
class fault_list {
 public:
  std::string add(fault_rule r);  // returns the id
  bool remove(const std::string& id);
  void clear();
  std::vector<fault_rule> rules() const;
  // The first live rule matching (counted as fired), if any.
  std::optional<fault_rule> match(std::string_view method, std::string_view path);
  std::map<std::string, int> fired() const;

 private:
  mutable std::mutex mu_;
  std::vector<fault_rule> rules_;
  std::map<std::string, int> fired_;
  int next_ = 1;
};

}  // namespace c5c3::sim::monitoring
