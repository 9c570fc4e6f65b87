// The KeystoneRoleAssignment as the reconciler resolves it (apis.md 1.6):
// the references and the role, the status fields, the child names and the
// names of the K-ORC objects it binds (the user's <user prefix>user, the
// project's <project prefix>project: the children of those orders, on the
// assignment's cluster and in its namespace).
#pragma once

#include "actors/c5c3/keystoneroleassignment/constants.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <string>

namespace c5c3::c5c3::keystoneroleassignment {

struct assignment_status {
  std::int64_t observed_generation = 0;
  std::string role_id;
  std::string user_id;
  std::string project_id;
  friend bool operator==(const assignment_status&, const assignment_status&) = default;
};
assignment_status read_status(const k8s::object& order);
void write_status(k8s::object_builder& b, const assignment_status& s);

struct assignment_order {
  korc::order_identity id;
  std::string user;     // spec.userRef.name
  std::string project;  // spec.projectRef.name
  std::string role;     // spec.role
  assignment_status status;
};
assignment_order make_assignment_order(const k8s::object& order, std::string_view cluster);

// <name>-<8 hex>-roleassignment-{role,assignment}, and the K-ORC objects of
// the referenced orders.
struct assignment_names {
  std::string prefix;
  std::string user_child;     // the user's <user prefix>user
  std::string project_child;  // the project's <project prefix>project
  explicit assignment_names(const assignment_order& o);
  std::string role() const { return prefix + "role"; }
  std::string assignment() const { return prefix + "assignment"; }
};

}  // namespace c5c3::c5c3::keystoneroleassignment
