// A real server on loopback started by one of the tools/*-loopback scripts
// (`start DIR` prints KEY=VALUE lines, `stop DIR` stops it), stopped and its
// directory removed when this goes away, even when a check failed.
#pragma once

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace c5c3::sim::world::test {

inline std::string run_capture(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[512];
  while (auto n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  status = ::pclose(p);
  return out;
}

class loopback_service {
 public:
  // `script_env` names the environment variable holding the script's path.
  loopback_service(const char* script_env, std::string fallback, const std::string& what) : what_(what) {
    const char* script = std::getenv(script_env);
    script_ = script ? script : std::move(fallback);
    std::string tmpl = (std::filesystem::temp_directory_path() / ("c5c3-" + what + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    start();
  }
  ~loopback_service() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  loopback_service(const loopback_service&) = delete;
  loopback_service& operator=(const loopback_service&) = delete;

  // (Re)starts it; a restart keeps the directory's state.
  void start() {
    int status = 0;
    auto out = run_capture(fmt::format("'{}' start '{}'", script_, dir_), status);
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      if (auto eq = line.find('='); eq != std::string::npos) vars_[line.substr(0, eq)] = line.substr(eq + 1);
    }
    running_ = true;
    if (status != 0) throw std::runtime_error(fmt::format("{} start failed:\n{}", script_, out));
  }
  void stop() {
    if (!running_) return;
    int status = 0;
    run_capture(fmt::format("'{}' stop '{}' 2>&1", script_, dir_), status);
    if (status != 0) BOOST_TEST_MESSAGE(what_ << " loopback stop answered " << status);
    running_ = false;
  }

  std::string var(const std::string& k) const {
    auto it = vars_.find(k);
    if (it == vars_.end()) throw std::runtime_error(fmt::format("{} printed no {}", script_, k));
    return it->second;
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string what_, script_, dir_;
  std::map<std::string, std::string> vars_;
  bool running_ = false;
};

}  // namespace c5c3::sim::world::test
