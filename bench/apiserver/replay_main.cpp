// bench_replay: sends recorded writes again to a running API server and
// reports how fast it absorbs them (issue 19, P3: the rate beside which an
// operator's convergence is judged). The writes come from
// bench/rabbitmqvhost/absorb.py (format in replay.hpp): the setup writes first,
// untimed, on one connection in file order; then the timed writes over
// --connections keep-alive connections, each key's writes in order on one of
// them, every request sent as soon as its connection's previous answer is read
// (no rate limit). Prints a summary and a line "RESULT {json}".
#include "bench/apiserver/load.hpp"
#include "bench/apiserver/replay.hpp"
#include "bench/apiserver/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

using namespace c5c3::bench;

namespace {

struct options {
  std::string server, ca_file, token_file, file, run = "r1";
  int connections = 2;
  int threads = 1;
  bool watch = false;
};

void usage() {
  std::cout << "usage: bench_replay --server URL --ca FILE --token-file FILE --file WRITES --run NAME\n"
               "                    [--connections N] [--threads N] [--watch]\n"
               "  --run NAME        replaces @RUN@ in targets and bodies (fresh namespaces per run)\n"
               "  --connections N   keep-alive connections of the timed writes (default 2)\n"
               "  --threads N       client I/O threads (default 1)\n"
               "  --watch           one watch stream on each collection the timed writes touch, open\n"
               "                    before timing starts (as an operator's informers receive the events)\n";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

options parse_options(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else if (a == "--server") {
      o.server = value();
    } else if (a == "--ca") {
      o.ca_file = value();
    } else if (a == "--token-file") {
      o.token_file = value();
    } else if (a == "--file") {
      o.file = value();
    } else if (a == "--run") {
      o.run = value();
    } else if (a == "--connections") {
      o.connections = std::max(1, std::stoi(value()));
    } else if (a == "--threads") {
      o.threads = std::max(1, std::stoi(value()));
    } else if (a == "--watch") {
      o.watch = true;
    } else {
      throw std::runtime_error("unknown option " + a + " (see --help)");
    }
  }
  if (o.server.empty() || o.file.empty()) throw std::runtime_error("--server and --file are required");
  return o;
}

// Sends `which` of `writes` over `connections`, keeping each key's
// resourceVersion (from the answers) for the next body's "@RV@".
class replayer {
 public:
  replayer(const std::vector<replay_write>& w, std::unordered_map<std::string, std::string>& rv)
      : writes_(w), rv_(rv) {}

  load_result run(const endpoint& ep, const std::vector<std::size_t>& which, int connections, int threads) {
    queues_ = partition_by_key(writes_, which, connections);
    pos_.assign(queues_.size(), 0);
    current_.assign(queues_.size(), 0);
    load_spec s;
    s.connections = static_cast<int>(queues_.size());
    s.threads = threads;
    s.next = [this](int c) -> std::optional<request> {
      auto ci = static_cast<std::size_t>(c);
      if (pos_[ci] >= queues_[ci].size()) return std::nullopt;
      const auto& w = writes_[current_[ci] = queues_[ci][pos_[ci]++]];
      std::string body = w.body;
      if (body.find("@RV@") != std::string::npos) {
        std::lock_guard lock(mu_);
        body = substitute(body, "@RV@", rv_[w.key]);
      }
      return request{w.method, w.target, w.content_type, std::move(body)};
    };
    s.on_reply = [this](const reply& r) {
      if (r.status < 200 || r.status >= 300) return;
      auto v = answered_resource_version(*r.body);
      if (v.empty()) return;
      std::lock_guard lock(mu_);
      rv_[writes_[current_[static_cast<std::size_t>(r.connection)]].key] = v;
      max_rv_ = std::max(max_rv_, std::strtoll(v.c_str(), nullptr, 10));
    };
    return run_load(ep, s);
  }

  long long max_resource_version() const { return max_rv_; }

 private:
  const std::vector<replay_write>& writes_;
  std::unordered_map<std::string, std::string>& rv_;
  std::vector<std::vector<std::size_t>> queues_;
  std::vector<std::size_t> pos_, current_;
  std::mutex mu_;
  long long max_rv_ = 0;
};

int run(const options& o) {
  std::ifstream in(o.file);
  if (!in) throw std::runtime_error("cannot read " + o.file);
  auto writes = read_replay(in);
  std::vector<std::size_t> setup, timed;
  std::map<std::string, std::uint64_t> by_method;
  std::vector<std::string> collections;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    auto& w = writes[i];
    w.key = substitute(w.key, "@RUN@", o.run);
    w.target = substitute(w.target, "@RUN@", o.run);
    w.body = substitute(w.body, "@RUN@", o.run);
    (w.setup ? setup : timed).push_back(i);
    if (w.setup) continue;
    ++by_method[w.method];
    auto coll = w.key.substr(0, w.key.rfind('/'));
    if (std::find(collections.begin(), collections.end(), coll) == collections.end()) collections.push_back(coll);
  }
  auto ep = endpoint_from_url(o.server, o.ca_file.empty() ? "" : slurp(o.ca_file),
                              o.token_file.empty() ? "" : slurp(o.token_file));
  while (!ep.token.empty() && (ep.token.back() == '\n' || ep.token.back() == '\r')) ep.token.pop_back();
  std::unordered_map<std::string, std::string> rv;
  replayer rp(writes, rv);
  auto s = rp.run(ep, setup, 1, 1);
  if (s.failed) throw std::runtime_error("set-up failed: " + s.first_failure);

  std::vector<std::unique_ptr<watch_group>> watches;
  if (o.watch) {
    for (const auto& c : collections) {
      watches.push_back(std::make_unique<watch_group>(
          ep, fmt::format("{}?watch=1&resourceVersion={}", c, rp.max_resource_version()), 1));
      if (!watches.back()->wait_ready(bench_clock::now() + std::chrono::seconds(20)))
        throw std::runtime_error("watch of " + c + " did not start: " + watches.back()->failure());
    }
  }
  std::string load_before = load_average();
  auto r = rp.run(ep, timed, o.connections, o.threads);
  std::uint64_t events = 0;
  std::string watch_failure;  // e.g. a stream that fell behind the watch history (410) and ended
  for (auto& w : watches) {
    w->stop();
    events += w->total_events();
    if (watch_failure.empty()) watch_failure = w->failure();
  }
  double rate = r.seconds > 0 ? static_cast<double>(r.ok) / r.seconds : 0;
  auto p50 = percentile(r.latency_ms, 50);
  auto p99 = percentile(r.latency_ms, 99);
  std::string methods;
  for (auto& [m, n] : by_method) methods += fmt::format("{}{} {}", methods.empty() ? "" : ", ", m, n);
  std::cout << fmt::format(
      "replay {}: {} setup writes, then {} writes ({}) over {} connection(s){}: {} ok, {} failed in {:.2f} s, "
      "{:.0f} writes/s, p50 {:.2f} ms, p99 {:.2f} ms; watch events {}\nload average before: {}, after: {}\n",
      o.run, setup.size(), timed.size(), methods, o.connections,
      o.watch ? fmt::format(", {} watch streams", watches.size()) : "", r.ok, r.failed, r.seconds, rate, p50, p99,
      events, load_before, load_average());
  if (!r.first_failure.empty()) std::cout << "first failure: " << r.first_failure.substr(0, 300) << "\n";
  if (!watch_failure.empty()) std::cout << "watch: " << watch_failure.substr(0, 300) << "\n";
  std::cout << fmt::format(
      R"(RESULT {{"run":"{}","writes":{},"ok":{},"failed":{},"seconds":{:.4f},"rate":{:.1f},"p50_ms":{:.3f},)"
      R"("p99_ms":{:.3f},"connections":{},"watch_events":{}}})"
      "\n",
      o.run, timed.size(), r.ok, r.failed, r.seconds, rate, p50, p99, o.connections, events);
  return r.failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "bench_replay: " << e.what() << "\n";
    return 1;
  }
}
