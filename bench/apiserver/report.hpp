// Figures and the printed table of the API server benchmark: percentiles,
// the process's resident memory, and a plain aligned table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::bench {

// The p-th percentile (0..100, nearest rank) of `v`; 0 when empty. Sorts v.
double percentile(std::vector<double>& v, double p);

// VmRSS of this process in bytes (from /proc/self/status); 0 when unknown.
std::uint64_t resident_bytes();
// VmData (heap and other private writable mappings, touched or not), likewise.
std::uint64_t data_bytes();

// Returns freed heap memory to the system so RSS reflects live data.
void trim_heap();

// The first line of /proc/loadavg, "" when unknown.
std::string load_average();

class table {
 public:
  explicit table(std::vector<std::string> header) : rows_{std::move(header)} {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;  // Markdown-style, columns aligned

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace c5c3::bench
