// The cluster actor's integration-test fixture: the in-process API server
// emulator over TLS, a cluster actor on it, and helpers that wait for
// subscription messages (bounded receives, never fixed sleeps).
#pragma once

#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/messages.hpp"
#include "actors/cluster/target_registry.hpp"
#include "config/base64.hpp"
#include "config/connection.hpp"
#include "protocol/api_error.hpp"
#include "protocol/order.hpp"
#include "protocol/registry.hpp"
#include "protocol/subscription.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/actor_config.hpp"
#include "tests/fast_retries.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <variant>

namespace c5c3::testing::cluster_tests {

using namespace std::chrono_literals;
inline constexpr auto deadline = 30s;

inline const k8s::gvk configmap_kind{"", "v1", "ConfigMap"};
inline const k8s::gvk widget_kind{"example.c5c3.io", "v1", "Widget"};

using c5c3::testing::make_config;

struct cluster_fixture {
  sim::apiserver server;
  std::string dir;
  caf::actor_system sys{make_config()};
  caf::actor cluster;

  cluster_fixture() {
    server.start();
    std::string tmpl = (std::filesystem::temp_directory_path() / "c5c3-cluster-XXXXXX").string();
    dir = mkdtemp(tmpl.data());
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto c = conn->client;
    testing::fast_retries(c);
    cluster = cluster::spawn_cluster(sys, {"", c});
  }
  ~cluster_fixture() {
    caf::anon_send_exit(cluster, caf::exit_reason::user_shutdown);
    {
      caf::scoped_actor self{sys};
      self->wait_for(cluster);
    }
    cluster = nullptr;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  template <class R, class Req>
  caf::expected<R> ask(caf::scoped_actor& self, Req req) {
    caf::expected<R> out{caf::error{}};
    bool answered = false;
    self->request(cluster, deadline, std::move(req))
        .receive([&](R& r) { out = std::move(r); answered = true; },
                 [&](caf::error& e) { out = std::move(e); answered = true; });
    BOOST_TEST_REQUIRE(answered);
    return out;
  }
};

inline k8s::object configmap(const std::string& name, const std::string& value) {
  k8s::object_builder b("v1", "ConfigMap", "default", name);
  b.set_string({"data", "value"}, value);
  return std::move(b).freeze();
}

template <class T>
inline std::string why(caf::actor_system& sys, const caf::expected<T>& e) {
  return e ? std::string() : sys.render(e.error());
}

inline bool has_managed_fields(const k8s::object& o) { return o.get({"metadata", "managedFields"}) != nullptr; }

using note = std::variant<protocol::object_event, protocol::informer_synced, protocol::kind_availability>;

// Receives subscription messages into `log` until `done(log)` holds or the
// deadline passes; returns whether it held.
inline bool receive_until(caf::scoped_actor& self, std::vector<note>& log,
                   const std::function<bool(const std::vector<note>&)>& done) {
  auto end = std::chrono::steady_clock::now() + deadline;
  while (!done(log)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left <= 0ms) return false;
    bool timed_out = false;
    self->receive([&](protocol::object_event& e) { log.emplace_back(std::move(e)); },
                  [&](protocol::informer_synced& e) { log.emplace_back(std::move(e)); },
                  [&](protocol::kind_availability& e) { log.emplace_back(std::move(e)); },
                  caf::after(left) >> [&] { timed_out = true; });
    if (timed_out) return done(log);
  }
  return true;
}

inline std::function<bool(const std::vector<note>&)> has_event(protocol::event_type t, std::string name,
                                                        std::string value = {}) {
  return [t, name, value](const std::vector<note>& log) {
    for (const auto& n : log) {
      const auto* e = std::get_if<protocol::object_event>(&n);
      if (e == nullptr || e->type != t || e->obj.name() != name) continue;
      if (value.empty() || e->obj.get_string({"data", "value"}) == value) return true;
    }
    return false;
  };
}

inline std::function<bool(const std::vector<note>&)> has_synced() {
  return [](const std::vector<note>& log) {
    for (const auto& n : log) {
      if (std::holds_alternative<protocol::informer_synced>(n)) return true;
    }
    return false;
  };
}

inline std::function<bool(const std::vector<note>&)> has_availability(bool served) {
  return [served](const std::vector<note>& log) {
    for (const auto& n : log) {
      const auto* e = std::get_if<protocol::kind_availability>(&n);
      if (e != nullptr && e->served == served) return true;
    }
    return false;
  };
}


}  // namespace c5c3::testing::cluster_tests
