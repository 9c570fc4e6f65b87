// Fault rules as JSON/YAML (the --faults file and the /sim/faults endpoint):
//   - id: api-500            # optional
//     verb: get              # get list watch create update patch delete deletecollection
//     resource: secrets      # plural, plural/subresource or plural.group
//     namespace: ns
//     name: x
//     client: my-operator    # User-Agent substring, user name substring, or the token
//     status: 429            # answer this code with a Status body
//     retryAfterSeconds: 2
//     message: "..."
//     latency: 250ms         # Go duration
//     cutWatchAfterEvents: 3
//     expireResume: true     # watch/list with a resourceVersion: 410 Expired
//     resetConnection: true
//     times: 1               # fire at most this often (default: forever)
//     body: truncated        # serve, then spoil the answer (hostile.hpp): truncated huge
//     bodyBytes: 100         #   wrongKind missingField nonUtf8 garbage
//     bodyField: metadata
//     latencyMax: 500ms      # latency drawn from [latency, latencyMax]
//     probability: 0.2       # fire on a seeded draw; otherwise the next rule is tried
//     afterWrites: 3         # dormant until `client` made 3 successful writes
//     holdWatchEvents: 2     # stream rules (open watches): 2 events behind,
//     coalesceModified: true #   MODIFIED withheld until its successor replaces it,
//     expireWatches: true    #   open streams end with 410 when the rule arms
// A file holds a list of rules, or {rules: [...]}, or one rule per document.
#pragma once

#include "k8s/json.hpp"
#include "sim/apiserver/apiserver.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim {

struct request_info;

std::optional<fault_rule> fault_from_json(const k8s::json_value& v, std::string* error = nullptr);
k8s::json_value fault_to_json(const fault_rule& r, k8s::json_allocator& alloc);
// Throws std::runtime_error on malformed input.
std::vector<fault_rule> faults_from_yaml(std::string_view text);
bool fault_matches(const fault_rule& f, const request_info& ri, std::string_view user_agent,
                   const std::string& user, const std::string& token);
// Whether a rule's `client` names this requester.
bool client_matches(const std::string& client, std::string_view user_agent, const std::string& user,
                    const std::string& token);

}  // namespace c5c3::sim
