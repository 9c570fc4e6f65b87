// An in-memory Keystone answering the v3 API subset K-ORC uses (identity.hpp):
// tokens (password and application credential, project-scoped or unscoped),
// domains, projects, roles (with bootstrap's implied roles admin -> member ->
// reader), users, role assignments, application credentials, services,
// endpoints and regions. It keeps Keystone's rules that the orders meet:
//  - names are unique per domain (409), ids are 32 hex digits, the ids Keystone
//    bootstrap uses are "default" for the Default domain and the region's name;
//  - everything needs an admin token except a user's own application
//    credentials; an admin may not create one for another user and a
//    restricted application credential may not create one at all (403, the
//    policy rule named as Keystone names it);
//  - an application credential is scoped to its token's project, its roles must
//    be held there, its secret is answered once (on create), an expiry in the
//    past is refused (400) and an expired one no longer authenticates (401),
//    nor one whose user lost a role on its project;
//  - a password change revokes the user's tokens and the old password is
//    refused; deleting a user deletes its role assignments and application
//    credentials; deleting a role deletes its assignments and the application
//    credentials holding it; deleting a project deletes its assignments;
//  - an enabled domain cannot be deleted (403), a region with endpoints either.
// Bootstrap creates what `keystone-manage bootstrap` creates (notes/keystone.md).
// Thread-safe; tests read its state.
#pragma once

#include "k8s/object.hpp"
#include "sim/world/identity.hpp"
#include "sim/world/world_object.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

struct memory_identity_options {
  std::string admin_password;  // empty: 32 random characters
  std::string admin_user = "admin";
  std::string admin_project = "admin";
  std::string region = "RegionOne";
  std::string identity_url = "http://keystone.sim:5000/v3";  // the bootstrap endpoints
  std::chrono::seconds token_lifetime{3600};
};

class memory_identity final : public identity_service {
 public:
  explicit memory_identity(memory_identity_options opts = {},
                           std::function<k8s::time_point()> clock = [] { return k8s::clock::now(); },
                           random_source random = system_random());
  ~memory_identity() override;

  identity_reply send(const identity_request& r) override;

  std::string admin_password() const;

  // ---- faults ----
  // While down, every request fails as a refused connection.
  void set_down(bool down);
  // The next `times` requests (tokens included) answer `status` (500, 503, 429...).
  void fail_next(int status, int times = 1);

  // ---- inspection (as GET shows them: never a password or a secret) ----
  // Every record of a collection: "domains", "projects", "roles", "users",
  // "role_assignments", "application_credentials", "services", "endpoints",
  // "regions".
  std::vector<k8s::object> list(std::string_view collection) const;
  // The records of `collection` whose "name" is `name` (a region's "id").
  std::vector<k8s::object> named(std::string_view collection, std::string_view name) const;
  std::size_t requests() const;

  struct state;

 private:
  std::unique_ptr<state> s_;
};

}  // namespace c5c3::sim::world
