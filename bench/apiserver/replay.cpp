// Reading and arranging the writes bench_replay sends (replay.hpp).
#include "bench/apiserver/replay.hpp"

#include "k8s/json.hpp"

#include <fmt/format.h>

#include <functional>
#include <istream>
#include <stdexcept>

namespace c5c3::bench {

std::vector<replay_write> read_replay(std::istream& in) {
  std::vector<replay_write> out;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string error;
    auto doc = k8s::parse_json(line, &error);
    if (!doc || !doc->IsObject()) throw std::runtime_error(fmt::format("line {}: not a JSON object {}", n, error));
    replay_write w;
    w.setup = k8s::get_bool(*doc, {"setup"}).value_or(false);
    w.key = k8s::get_string(*doc, {"key"});
    w.method = k8s::get_string(*doc, {"method"});
    w.target = k8s::get_string(*doc, {"target"});
    w.content_type = k8s::get_string(*doc, {"contentType"});
    w.body = k8s::get_string(*doc, {"body"});
    if (w.key.empty() || w.method.empty() || w.target.empty())
      throw std::runtime_error(fmt::format("line {}: key, method and target are required", n));
    out.push_back(std::move(w));
  }
  return out;
}

std::string substitute(std::string_view text, std::string_view placeholder, std::string_view value) {
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  for (auto at = text.find(placeholder); at != std::string_view::npos; at = text.find(placeholder, from)) {
    out.append(text.substr(from, at - from));
    out.append(value);
    from = at + placeholder.size();
  }
  out.append(text.substr(from));
  return out;
}

std::vector<std::vector<std::size_t>> partition_by_key(const std::vector<replay_write>& writes,
                                                       const std::vector<std::size_t>& which, int connections) {
  std::vector<std::vector<std::size_t>> out(static_cast<std::size_t>(std::max(1, connections)));
  for (auto i : which) out[std::hash<std::string>{}(writes[i].key) % out.size()].push_back(i);
  return out;
}

std::string answered_resource_version(std::string_view body) {
  auto doc = k8s::parse_json(body);
  if (!doc || !doc->IsObject()) return {};
  return std::string(k8s::get_string(*doc, {"metadata", "resourceVersion"}));
}

}  // namespace c5c3::bench
