// Log lines a k8s::log::logger wrote, for tests: a sink that keeps them
// (thread-safe) and a count of the lines holding given substrings.
#pragma once

#include "k8s/log.hpp"

#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace c5c3::testing {

struct captured_log {
  std::mutex mu;
  std::vector<std::string> lines;

  k8s::log::sink_fn sink() {
    return [this](std::string_view l) {
      std::lock_guard<std::mutex> g(mu);
      lines.emplace_back(l);
    };
  }
  // Lines holding every one of `needles`.
  int count(std::initializer_list<std::string> needles) {
    std::lock_guard<std::mutex> g(mu);
    int n = 0;
    for (const auto& l : lines) n += holds_all(l, needles);
    return n;
  }
  // The lines holding every one of `needles`, one per line (for messages).
  std::string matching(std::initializer_list<std::string> needles) {
    std::lock_guard<std::mutex> g(mu);
    std::string out;
    for (const auto& l : lines)
      if (holds_all(l, needles)) out += l + "\n";
    return out;
  }
  std::size_t size() {
    std::lock_guard<std::mutex> g(mu);
    return lines.size();
  }

 private:
  static bool holds_all(const std::string& l, std::initializer_list<std::string> needles) {
    for (const auto& x : needles)
      if (l.find(x) == std::string::npos) return false;
    return true;
  }
};

}  // namespace c5c3::testing
