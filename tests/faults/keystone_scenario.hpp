// What the Keystone kinds' plan scenarios share (plan_runner.hpp): the order
// hosts of tests/keystone_actor against the emulator, the simulated K-ORC and
// its in-memory Keystone; fault rules on the operator's requests only; the
// steps' conditions (an order Ready for its generation, gone) and the parts
// of an order's state the oracles compare (its K-ORC children by kind).
#pragma once

#include "tests/faults/plan_runner.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace c5c3::testing::faults {

struct keystone_scenario : keystone_fixture {
  explicit keystone_scenario(bool start) : keystone_fixture(start) {}

  std::string add(sim::fault_rule r) {
    r.client = operator_token;
    return server.add_fault(std::move(r));
  }

  void await_synced() { BOOST_TEST_REQUIRE(eventually([&] { return synced(); })); }

  // A step writing JSON orders (create) once the caches synced.
  scenario_step create_step(std::string name, std::vector<std::string> orders, std::function<std::string()> pending) {
    return {std::move(name),
            [this, orders = std::move(orders)] {
              await_synced();
              for (const auto& o : orders) create(o);
            },
            std::move(pending)};
  }

  void patch(const k8s::gvk& gvk, const std::string& name, const std::string& merge_patch) {
    auto r = world->merge_patch(gvk, "tenant-a", name, merge_patch);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  void remove(const k8s::gvk& gvk, const std::string& name) {
    auto r = world->remove(gvk, "tenant-a", name);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }

  // "" once `name` of `resource` reads Ready for its current generation;
  // otherwise the name and the reasons of `conditions`.
  std::string not_ready(const std::string& resource, const std::string& name,
                        std::initializer_list<const char*> conditions) const {
    if (ready(resource, name)) return "";
    std::string out = name + "(";
    for (const auto* c : conditions) out += fmt::format("{}={} ", c, reason(resource, name, c));
    return out + ") ";
  }
  // "" once `name` of `resource` is gone.
  std::string not_gone(const std::string& resource, const std::string& name) const {
    return get(resource, name) ? name + " still there " : "";
  }
  // The order's K-ORC children of each kind ("roles" ->
  // roles.openstack.k-orc.cloud) by its name label, as "roles=1 ...".
  std::string korc_children(const std::string& label, const std::string& name,
                            std::initializer_list<const char*> kinds) const {
    std::string out;
    for (const auto* k : kinds)
      out += fmt::format("{}={} ", k, labelled(std::string(k) + ".openstack.k-orc.cloud", label, name));
    return out;
  }
};

}  // namespace c5c3::testing::faults
