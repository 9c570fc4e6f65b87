#include "bench/apiserver/report.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace c5c3::bench {

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

namespace {

std::uint64_t status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream fields(line.substr(key.size()));
    std::uint64_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

}  // namespace

std::uint64_t resident_bytes() { return status_bytes("VmRSS:"); }

std::uint64_t data_bytes() { return status_bytes("VmData:"); }

void trim_heap() { malloc_trim(0); }

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  std::getline(in, line);
  return line;
}

std::string table::render() const {
  std::vector<std::size_t> width;
  for (const auto& r : rows_)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    out += "|";
    for (std::size_t i = 0; i < width.size(); ++i) {
      std::string cell = i < r.size() ? r[i] : "";
      bool left = i == 0 || i + 1 == width.size();
      std::string pad(width[i] - cell.size(), ' ');
      out += " " + (left ? cell + pad : pad + cell) + " |";
    }
    out += "\n";
  };
  line(rows_.front());
  out += "|";
  for (auto w : width) out += std::string(w + 2, '-') + "|";
  out += "\n";
  for (std::size_t i = 1; i < rows_.size(); ++i) line(rows_[i]);
  return out;
}

}  // namespace c5c3::bench
