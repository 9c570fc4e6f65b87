// The RabbitMQVhost order host with fault rules on the operator's client
// (matched by its bearer token; the world and the test's writes stay
// healthy): orders o0..o9, the oracles of a converged run (every order
// Ready, one child of each kind, each child created once, one password
// Secret, the delivered credential's vhost on the broker), and quiet after
// convergence. Shared by rabbitmqvhost_faults_test and stream_faults_test.
#pragma once

#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace c5c3::testing {

inline constexpr int orders = 10;
inline constexpr int converge_seconds = 240;

inline std::string order_name(int i) { return "o" + std::to_string(i); }

struct fault_fixture : fixture {
  explicit fault_fixture(bool start = true) : fixture(start) {}

  int count = orders;  // the orders o0..o<count-1>

  // The namespaces, the ClusterSecretStore, the RabbitmqCluster and the
  // ControlPlane, written by the test (healthy), and the operator synced.
  void prepare() {
    BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
    for (auto& ns : namespaces) create(ns);
    create(store);
    create(rabbitmq_cluster);
    create(control_plane);
  }

  // Whether one of the operator's watches delivered the stored version of
  // the object (the watch log; `resource` as get_object takes it).
  bool operator_saw_current(const std::string& resource, const std::string& ns, const std::string& name) const {
    auto o = server.get_object(resource, ns, name);
    if (!o) return false;
    const auto plural = resource.substr(0, resource.find('.'));
    for (auto& w : server.watch_log())
      if (w.client == operator_user && w.resource == plural && w.namespace_ == ns && w.name == name &&
          w.resource_version == o.resource_version())
        return true;
    return false;
  }

  // The world has done its part for the prerequisites (the RabbitmqCluster's
  // status, its default-user Secret, the ControlPlane's AdminCredentialReady,
  // the store's status) and the operator's informers have seen their stored
  // versions. A stream rule that holds events behind added before this may
  // withhold a prerequisite's last event with nothing after it on that watch:
  // a watch-only client never sees it (issue 18).
  bool prerequisites_seen() const {
    auto cp = server.get_object("controlplanes.c5c3.io", "openstack", "cp");
    auto ready = cp ? cp.find_condition("AdminCredentialReady") : std::nullopt;
    auto cluster = server.get_object("rabbitmqclusters.rabbitmq.com", "openstack", "openstack-rabbitmq");
    auto store_ = server.get_object("clustersecretstores.external-secrets.io", "", "openbao-cluster-store");
    return ready && ready->is_true() && cluster && cluster.get({"status"}) && store_ && store_.get({"status"}) &&
           operator_saw_current("controlplanes.c5c3.io", "openstack", "cp") &&
           operator_saw_current("rabbitmqclusters.rabbitmq.com", "openstack", "openstack-rabbitmq") &&
           operator_saw_current("secrets", "openstack", "openstack-rabbitmq-default-user") &&
           operator_saw_current("clustersecretstores.external-secrets.io", "", "openbao-cluster-store");
  }

  // A rule matching the operator's client only.
  std::string add(sim::fault_rule r) {
    r.client = operator_token;
    return server.add_fault(std::move(r));
  }

  void create_orders(const std::string& policy) {
    for (int i = 0; i < count; ++i) create(vhost_order(order_name(i), policy));
  }

  std::string not_ready() const {
    std::string out;
    for (int i = 0; i < count; ++i)
      if (!ready(order_name(i)))
        out += order_name(i) + "(VhostReady=" + reason(order_name(i), "VhostReady") +
               " DeliveryReady=" + reason(order_name(i), "DeliveryReady") + ") ";
    return out;
  }

  bool all_ready() const { return not_ready().empty(); }

  // Every rule in `ids` fired at least once.
  void expect_fired(const std::vector<std::string>& ids) const {
    auto counts = server.fault_counts();
    BOOST_TEST(counts.total > 0u);
    BOOST_TEST_MESSAGE("faults fired: " << counts.total);
    for (auto& id : ids) {
      BOOST_TEST_CONTEXT("fault rule " << id) {
        auto it = counts.by_rule.find(id);
        BOOST_TEST((it != counts.by_rule.end() && it->second > 0u));
      }
    }
  }

  // The operator's successful creates, by group/resource/namespace/name.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int> operator_creates() const {
    std::map<std::tuple<std::string, std::string, std::string, std::string>, int> out;
    for (auto& w : server.write_log())
      if (w.client == operator_user && w.verb == "create" && w.code >= 200 && w.code < 300 && !w.dry_run)
        ++out[{w.group, w.resource, w.namespace_, w.name}];
    return out;
  }

  // The password Secrets of an order (<prefix>password-v<N>) in the
  // ControlPlane's namespace.
  std::vector<std::string> password_secrets(const std::string& order) const {
    std::vector<std::string> out;
    for (auto& s : server.list_objects("secrets", "openstack"))
      if (s.label(vh::label_name).value_or("") == order && std::string(s.name()).find("-password-v") != std::string::npos)
        out.emplace_back(s.name());
    return out;
  }

  // Converged orders hold one child of each kind and one password Secret
  // (generation 1); the write log shows each child name created at most
  // once and exactly one password Secret created per order; of the first
  // `live` orders (all by default) when the others were deleted.
  void expect_converged_children(int live = -1) const {
    auto creates = operator_creates();
    for (auto& [k, n] : creates) {
      BOOST_TEST_CONTEXT(std::get<0>(k) << "/" << std::get<1>(k) << " " << std::get<2>(k) << "/" << std::get<3>(k)) {
        BOOST_TEST(n == 1);
      }
    }
    for (int i = 0; i < (live < 0 ? count : live); ++i) {
      const auto name = order_name(i);
      BOOST_TEST_CONTEXT(name) {
        for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                         "pushsecrets.external-secrets.io"}) {
          BOOST_TEST_CONTEXT(res) { BOOST_TEST(children(res, name) == 1u); }
        }
        auto pw = password_secrets(name);
        BOOST_TEST(pw.size() == 1u);
        int created = 0;
        for (auto& [k, n] : creates)
          if (std::get<1>(k) == "secrets" && std::get<2>(k) == "openstack" &&
              std::get<3>(k).rfind(name + "-", 0) == 0 && std::get<3>(k).find("-password-v") != std::string::npos)
            created += n;
        BOOST_TEST(created == 1);
        auto d = delivered(name);
        BOOST_TEST(d.size() == 6u);
        BOOST_TEST(world->broker->vhosts().count(d["vhost"]) == 1u);
        BOOST_TEST(order(name).has_finalizer(vh::finalizer));
      }
    }
  }

  void wait_ready() {
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return all_ready(); }, converge_seconds), "not Ready: " << not_ready());
  }

  // No operator request for `quiet` after the last ones settle.
  void expect_quiet(std::chrono::milliseconds quiet) {
    BOOST_TEST_REQUIRE(eventually([&] { return no_requests_for(*operator_requests, 500ms); }));
    auto before = operator_requests->by_method_code_host();
    std::this_thread::sleep_for(quiet);
    BOOST_TEST(requests_since(before) == "none");
  }
};

inline sim::fault_rule rule(std::string verb, int code, int times) {
  sim::fault_rule r;
  r.verb = std::move(verb);
  r.status_code = code;
  r.times = times;
  return r;
}

}  // namespace c5c3::testing
