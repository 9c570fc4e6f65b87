// What the Keystone kinds' plan scenarios share (plan_runner.hpp): the order
// hosts of tests/keystone_actor against the emulator, the simulated K-ORC and
// its in-memory Keystone; fault rules on the operator's requests only; the
// steps' conditions (an order Ready for its generation, gone) and the parts
// of an order's state the oracles compare (its K-ORC children by kind).
#pragma once

#include "actors/c5c3/korc/control_plane.hpp"
#include "sim/world/clouds_yaml.hpp"
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
  // A KeystoneUser's delivered clouds.yaml: "yes" when its cloud
  // authenticates against Keystone with the delivered password.
  std::string user_authenticates(const std::string& name) const {
    auto cp = server.get_object("controlplanes.c5c3.io", "openstack", "cp");
    auto cloud = sim::world::parse_clouds_yaml(secret(name + "-credentials", "clouds.yaml"), c5c3::korc::cloud_name(cp));
    if (!cloud.ok()) return "unreadable";
    if (cloud->password != secret(name + "-credentials", "password")) return "two passwords";
    return keystone->authenticates(*cloud) ? "yes" : "no";
  }
  // A KeystoneApplicationCredential's delivered credential: "none", "not the
  // status's", or Keystone's answer to it ("201/<project>").
  std::string credential_delivered(const std::string& name, const k8s::object& o) const {
    const auto id = secret(name + "-credentials", "application_credential_id");
    if (id.empty() || !o) return "none";
    if (id != o.get_string({"status", "credentialID"})) return "not the status's";
    auto [status, project] = authenticate(id, secret(name + "-credentials", "application_credential_secret"));
    return fmt::format("{}/{}", status, project);
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
