#include "actors/operator/scheduler.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace c5c3::operator_ {

namespace {

std::optional<long long> to_number(std::string_view s) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

std::optional<double> parse_cpu_max(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto quota = text.substr(0, space);
  if (quota == "max") return std::nullopt;
  auto q = to_number(quota);
  auto period = to_number(text.substr(space + 1));
  if (!q || !period) return std::nullopt;
  return static_cast<double>(*q) / static_cast<double>(*period);
}

std::size_t usable_cores() {
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cores = std::max(1, CPU_COUNT(&set));
  if (auto limit = parse_cpu_max(read_file("/sys/fs/cgroup/cpu.max")))
    cores = std::min(cores, static_cast<std::size_t>(std::max(1.0, std::ceil(*limit))));
  return cores;
}

std::size_t worker_threads(int requested, std::size_t cores) {
  if (requested > 0) return static_cast<std::size_t>(requested);
  return std::max<std::size_t>(2, cores);
}

}  // namespace c5c3::operator_
