// Test helpers: the operator binary as a child process (stderr read line by
// line with a bounded deadline), a blocking HTTP GET over loopback, and
// running a tool with some stdin.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::test {

class child_process {
 public:
  // argv[0] is the program path. stdout and stderr are both read.
  explicit child_process(std::vector<std::string> argv);
  ~child_process();  // kills and reaps a child still running
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  // The next output line, or nullopt when the deadline passes or the output ends.
  std::optional<std::string> next_line(std::chrono::steady_clock::time_point deadline);
  // Reads lines until one contains `needle`; nullopt on deadline or end.
  std::optional<std::string> wait_for_line(const std::string& needle, std::chrono::steady_clock::time_point deadline);
  // Every line read so far.
  const std::vector<std::string>& lines() const { return lines_; }
  // Reads the rest of the output until it ends or the deadline passes.
  void drain(std::chrono::steady_clock::time_point deadline);

  void signal(int sig);
  // The exit status once it exits before the deadline (-signal when killed by one).
  std::optional<int> wait(std::chrono::steady_clock::time_point deadline);

 private:
  int pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  std::string buffer_;
  std::vector<std::string> lines_;
};

struct http_result {
  int status = 0;
  std::string headers;  // raw, lower-cased names kept as sent
  std::string body;
};

// GET http://127.0.0.1:port/path with Connection: close; throws on failure.
http_result http_get(int port, const std::string& path);

// Runs argv with `input` on stdin; returns the exit status and the output (stdout and stderr).
std::pair<int, std::string> run_with_input(const std::vector<std::string>& argv, const std::string& input);

// The directory of PATH holding `tool`, or "" when not found.
std::string find_in_path(const std::string& tool);

}  // namespace c5c3::test
