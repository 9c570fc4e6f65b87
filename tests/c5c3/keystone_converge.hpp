// A pure stand-in for the world a Keystone order's plan acts on, for the
// convergence tests: the writes of a plan applied to an in-memory store, then
// K-ORC (managed Users and Projects Available with an id and the applied
// password; an unmanaged import Available when Keystone holds the name, else
// waiting to be created externally; Roles and Regions imported, Services and
// Endpoints managed or probed, RoleAssignments Available once what they
// reference is) and External Secrets (a stamped
// PushSecret pushed) take a step. No actor, no socket.
#pragma once

#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "tests/c5c3/keystone_world.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace c5c3::test {

struct keystone_world {
  using key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  std::map<key, object> objects;
  std::set<std::string> keystone_users{"admin"};  // names Keystone holds
  std::set<std::string> keystone_projects{"admin"};
  std::set<std::string> keystone_roles{"admin", "member", "reader"};
  std::set<std::pair<std::string, std::string>> keystone_services;  // name, type
  std::set<std::string> keystone_regions{"RegionOne"};
  int creates = 0;
  int rv = 1;

  void put(object o);
  const object* get(std::string_view kind, std::string_view ns, std::string_view name) const;
  // Every object of `kind` in `ns` carrying label `label`.
  std::vector<object> labelled(std::string_view kind, std::string_view ns, std::string_view label) const;
  std::vector<object> of_kind(std::string_view kind, std::string_view ns) const;
  // The answer of `w` (empty for a delete).
  object apply(const orders::child_write& w);
  // K-ORC and ESO react to what is stored.
  void controllers_step();
  // K-ORC's next status of a Role, Region, Service, Endpoint or
  // RoleAssignment (nullopt: another kind).
  std::optional<object> catalog_step(const object& o) const;
};

// Passes of `plan` on `order` against `w`: each pass's writes applied, its
// status and finalizer change taken, then the controllers step; until a pass
// moves nothing (returns how many passes moved) or `max` passes (-1).
int drive(keystone_world& w, object& order, std::string_view finalizer,
          const std::function<::c5c3::c5c3::korc::order_pass_plan(const object&)>& plan, int max);

}  // namespace c5c3::test
