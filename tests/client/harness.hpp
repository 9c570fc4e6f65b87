// Test harness: the in-process API server emulator over TLS, an io_context
// with two threads, a client built from the emulator's kubeconfig through
// config/, and helpers that wait for asynchronous answers with a bounded
// deadline (never sleep-and-hope).
#pragma once

#include "config/connection.hpp"
#include "k8s/client/client.hpp"
#include "k8s/client/informer.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/fast_retries.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <thread>

namespace c5c3::testing {

using namespace std::chrono_literals;
inline constexpr auto deadline = 30s;

// Runs `start` with a callback and waits (bounded by `limit`) for its answer.
template <class T, class Start>
k8s::result<T> await(Start start, std::chrono::milliseconds limit = deadline) {
  auto p = std::make_shared<std::promise<k8s::result<T>>>();
  auto f = p->get_future();
  start([p](k8s::result<T> r) { p->set_value(std::move(r)); });
  BOOST_TEST_REQUIRE((f.wait_for(limit) == std::future_status::ready), "no answer within the deadline");
  return f.get();
}

// The error of a failed result, for assertion messages ("" when it succeeded).
template <class T>
std::string why(const k8s::result<T>& r) {
  return r.ok() ? std::string() : r.error().describe();
}

// Polls `pred` until it holds or the deadline passes.
inline bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = deadline) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return pred();
}

struct io_threads {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::vector<std::thread> threads;
  io_threads() {
    for (int i = 0; i < 2; ++i) threads.emplace_back([this] { io.run(); });
  }
  ~io_threads() {
    work.reset();
    io.stop();
    for (auto& t : threads) t.join();
  }
};

inline std::string temp_path(const std::string& name) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "c5c3-client-XXXXXX").string();
  std::string dir = mkdtemp(tmpl.data());
  return dir + "/" + name;
}

struct emulator_fixture {
  sim::apiserver server;
  io_threads threads;
  std::shared_ptr<k8s::request_counters> counters = std::make_shared<k8s::request_counters>();
  std::string kubeconfig_path;

  emulator_fixture() {
    server.start();
    kubeconfig_path = temp_path("kubeconfig");
    server.write_kubeconfig(kubeconfig_path);
  }
  ~emulator_fixture() {
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(kubeconfig_path).parent_path(), ec);
  }

  // The kubeconfig's connection (TLS, token) with fast retries for tests.
  k8s::client_config base_config() {
    auto conn = config::load_connection({kubeconfig_path, "", ""});
    BOOST_TEST_REQUIRE(conn.ok(), (conn.ok() ? "" : conn.error()));
    k8s::client_config c = conn->client;
    c.observer = counters;
    testing::fast_retries(c);
    return c;
  }

  std::shared_ptr<k8s::client> make_client(k8s::client_config c) {
    auto cl = k8s::client::create(threads.io, std::move(c));
    BOOST_TEST_REQUIRE(cl.ok(), (cl.ok() ? "" : cl.error()));
    return cl.value();
  }
  std::shared_ptr<k8s::client> make_client() { return make_client(base_config()); }
};

inline const k8s::gvk configmap_kind{"", "v1", "ConfigMap"};
inline const k8s::gvk namespace_kind{"", "v1", "Namespace"};

inline k8s::object configmap(const std::string& ns, const std::string& name, const std::string& value) {
  k8s::object_builder b("v1", "ConfigMap", ns, name);
  b.set_string({"data", "value"}, value);
  return std::move(b).freeze();
}

}  // namespace c5c3::testing
