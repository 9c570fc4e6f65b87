// What the Keystone order tests read of the simulated world's in-memory
// Keystone (sim/world/memory_identity.hpp, K-ORC's backend), by names:
// users, projects, role assignments ("role|user|project"), services
// ("name|type"), a service's endpoints ("interface|url"), regions; and what
// a test makes in Keystone directly as its admin (a name taken before the
// order). Thread-safe as memory_identity is.
#pragma once

#include "sim/world/keystone_session.hpp"
#include "sim/world/memory_identity.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <memory>
#include <set>
#include <string>

namespace c5c3::testing {

class keystone_view {
 public:
  explicit keystone_view(std::shared_ptr<sim::world::memory_identity> identity)
      : identity_(std::move(identity)), sessions_(identity_) {}

  sim::world::memory_identity& identity() { return *identity_; }

  // The id of the record of `collection` named `name` ("" none).
  std::string id(std::string_view collection, std::string_view name) const {
    auto found = identity_->named(collection, name);
    return found.empty() ? "" : std::string(found.front().get_string({"id"}));
  }
  bool has(std::string_view collection, std::string_view name) const { return !id(collection, name).empty(); }
  bool user(std::string_view name) const { return has("users", name); }
  bool project(std::string_view name) const { return has("projects", name); }
  bool region(std::string_view name) const { return has("regions", name); }
  // Whether `user` holds `role` on `project` (names).
  bool assigned(std::string_view role, std::string_view user, std::string_view project) const {
    auto r = id("roles", role), u = id("users", user), p = id("projects", project);
    if (r.empty() || u.empty() || p.empty()) return false;
    for (const auto& a : identity_->list("role_assignments"))
      if (a.get_string({"role", "id"}) == r && a.get_string({"user", "id"}) == u &&
          a.get_string({"scope", "project", "id"}) == p)
        return true;
    return false;
  }
  // The services of that name and type.
  bool service(std::string_view name, std::string_view type) const {
    for (const auto& s : identity_->named("services", name))
      if (s.get_string({"type"}) == type) return true;
    return false;
  }
  // "interface|url" of every endpoint of the service named `name`.
  std::set<std::string> endpoints(std::string_view name) const {
    std::set<std::string> out;
    auto svc = id("services", name);
    for (const auto& e : identity_->list("endpoints"))
      if (!svc.empty() && e.get_string({"service_id"}) == svc)
        out.insert(fmt::format("{}|{}", e.get_string({"interface"}), e.get_string({"url"})));
    return out;
  }

  // Whether Keystone issues a token (unscoped) for the cloud's user and
  // password: the credential authenticates. A session of its own, so no
  // token cached before counts.
  bool authenticates(sim::world::cloud_config cloud) const {
    cloud.project_name = cloud.project_id = cloud.project_domain_name = cloud.project_domain_id = "";
    sim::world::keystone_sessions fresh(identity_);
    return !fresh.authenticate(cloud).has_value();
  }

  // POST /v3/<collection> as the admin, e.g. ("projects", R"({"project":{"name":"x","domain_id":"default"}})").
  void create(const std::string& collection, const std::string& body) {
    sim::world::cloud_config admin;
    admin.auth_url = "http://keystone.sim:5000/v3";
    admin.username = "admin";
    admin.password = identity_->admin_password();
    admin.user_domain_name = "Default";
    admin.project_name = "admin";
    admin.project_domain_name = "Default";
    auto a = sessions_.run(admin, {"POST", "/v3/" + collection, body});
    BOOST_TEST_REQUIRE(static_cast<bool>(a), (a.error ? a.error->message : ""));
  }

 private:
  std::shared_ptr<sim::world::memory_identity> identity_;
  sim::world::keystone_sessions sessions_;
};

}  // namespace c5c3::testing
