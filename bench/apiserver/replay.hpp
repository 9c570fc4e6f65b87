// The writes bench_replay sends again (issue 19, P3): what an operator wrote
// during a convergence, taken from the emulator's write log by
// bench/rabbitmqvhost/absorb.py, one JSON object a line:
//   {"setup": false, "key": "...", "method": "PUT", "target": "...",
//    "contentType": "application/json", "body": "..."}
// Two placeholders stand for what only the replay knows: "@RUN@" (the run's
// name, a prefix of the fresh namespaces) in target and body, and "@RV@" (the
// object's resourceVersion as the replay's last answer for that key gave it)
// in the body. Writes of one key go out in file order on one connection.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::bench {

struct replay_write {
  bool setup = false;  // made before timing starts (namespaces, the objects the writes need)
  std::string key;     // the object written; its writes stay in order
  std::string method;
  std::string target;
  std::string content_type;
  std::string body;
};

// Every line of `in` (blank lines skipped); throws std::runtime_error naming
// the line that is not such an object.
std::vector<replay_write> read_replay(std::istream& in);

// `text` with every `placeholder` replaced by `value`.
std::string substitute(std::string_view text, std::string_view placeholder, std::string_view value);

// The writes' indexes split over `connections` queues by key: each key on one
// queue, file order kept within a queue.
std::vector<std::vector<std::size_t>> partition_by_key(const std::vector<replay_write>& writes,
                                                       const std::vector<std::size_t>& which, int connections);

// metadata.resourceVersion of an answered object, "" when there is none.
std::string answered_resource_version(std::string_view body);

}  // namespace c5c3::bench
