// `c5c3-operator --embedded` as a child process for the e2e tests: a
// temporary data directory, the run (its kubeconfig, kubectl against the
// emulator, the lines it printed, SIGTERM).
#pragma once

#include "tests/operator/child_process.hpp"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::test {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

inline std::string operator_bin() {
  const char* p = std::getenv("C5C3_OPERATOR_BIN");
  BOOST_REQUIRE_MESSAGE(p && *p, "C5C3_OPERATOR_BIN is not set");
  return p;
}

struct temp_dir {
  fs::path path;
  temp_dir() {
    char tmpl[] = "/tmp/c5c3-embedded-e2e-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(tmpl));
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// One run of the embedded operator on `data_dir`.
struct embedded_run {
  std::unique_ptr<child_process> proc;
  std::string kubeconfig;

  // `extra`: more flags (e.g. "-v", "10").
  explicit embedded_run(const fs::path& data_dir, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv{operator_bin(),  "--embedded",
                                  "--embedded-port", "0",
                                  "--data-dir",      data_dir.string(),
                                  "--metrics-bind-address", "127.0.0.1:0",
                                  "--health-probe-bind-address=127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<child_process>(std::move(argv));
    auto deadline = clock_type::now() + 120s;
    auto line = proc->wait_for_line("export KUBECONFIG=", deadline);
    BOOST_REQUIRE_MESSAGE(line, "no kubeconfig line; output so far:\n" << output());
    kubeconfig = line->substr(line->find('=') + 1);
    BOOST_TEST(kubeconfig == (data_dir / "kubeconfig").string());
    BOOST_REQUIRE_MESSAGE(proc->wait_for_line("Operator started", deadline), "not started:\n" << output());
  }

  std::string output() const {
    std::string s;
    for (const auto& l : proc->lines()) s += l + "\n";
    return s;
  }

  // kubectl against the emulator; reads the operator's output meanwhile so its pipe never fills.
  std::pair<int, std::string> kubectl(std::vector<std::string> args) {
    std::vector<std::string> argv{"kubectl", "--kubeconfig", kubeconfig};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_with_input(argv, "");
    proc->drain(clock_type::now() + 20ms);
    return r;
  }

  // Retries `args` until kubectl exits 0 (bounded).
  std::pair<int, std::string> kubectl_eventually(const std::vector<std::string>& args, std::chrono::seconds limit) {
    auto deadline = clock_type::now() + limit;
    auto r = kubectl(args);
    while (r.first != 0 && clock_type::now() < deadline) {
      proc->drain(clock_type::now() + 500ms);
      r = kubectl(args);
    }
    return r;
  }

  // Whether a line with `needle` was printed (already, or before the deadline).
  bool printed(const std::string& needle, clock_type::time_point deadline) {
    for (const auto& l : proc->lines())
      if (l.find(needle) != std::string::npos) return true;
    return proc->wait_for_line(needle, deadline).has_value();
  }

  std::optional<int> stop() {
    proc->signal(SIGTERM);
    auto rc = proc->wait(clock_type::now() + 60s);
    proc->drain(clock_type::now() + 5s);
    return rc;
  }
};

}  // namespace c5c3::test
