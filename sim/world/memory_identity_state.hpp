// The records of memory_identity and the pieces its two translation units
// share (memory_identity.cpp: tokens, policy, dispatch; memory_identity_routes.cpp:
// the collections). Internal to sim/world.
#pragma once

#include "k8s/object.hpp"
#include "sim/world/memory_identity.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::world::keystone_memory {

struct domain_rec {
  std::string id, name, description;
  bool enabled = true;
};
struct project_rec {
  std::string id, name, description, domain_id;
  bool enabled = true;
  std::vector<std::string> tags;
};
struct role_rec {
  std::string id, name, description, domain_id;  // domain_id "" for a global role
};
struct user_rec {
  std::string id, name, description, domain_id, default_project_id, password;
  bool enabled = true;
};
struct assignment_rec {
  std::string role_id, user_id, project_id, domain_id;  // one of project_id / domain_id
  friend auto operator<=>(const assignment_rec&, const assignment_rec&) = default;
};
struct app_cred_rec {
  std::string id, name, description, user_id, project_id, secret;
  bool unrestricted = false;
  std::vector<std::string> role_ids;
  std::optional<k8s::time_point> expires_at;
  std::string access_rules;  // JSON array as sent
};
struct service_rec {
  std::string id, name, type, description;
  bool enabled = true;
};
struct endpoint_rec {
  std::string id, interface, url, service_id, region_id, description;
  bool enabled = true;
};
struct region_rec {
  std::string id, description, parent_region_id;
};
struct token_rec {
  std::string user_id, project_id, app_cred_id;
  std::vector<std::string> role_ids;  // effective on the project
  std::vector<std::string> methods;
  k8s::time_point issued, expires;
  std::uint64_t serial = 0;  // issue order, for revocation
};

// One parsed request.
struct request_view {
  std::string method;
  std::vector<std::string> segments;  // "/v3/users/x" -> {"v3", "users", "x"} (decoded)
  std::map<std::string, std::string> query;
  std::optional<k8s::json_document> body;  // parsed JSON (nullopt: none or invalid)
  bool bad_body = false;
  const token_rec* token = nullptr;  // the X-Auth-Token's, when valid
  std::string query_value(const std::string& k) const;
};

struct reply {
  int status = 200;
  std::string body;
  std::string subject_token;
};

reply error_reply(int code, std::string_view message);
reply json_reply(int code, const k8s::json_value& v);

}  // namespace c5c3::sim::world::keystone_memory

namespace c5c3::sim::world {

struct memory_identity::state {
  memory_identity_options opts;
  std::function<k8s::time_point()> clock;
  random_source random;
  mutable std::mutex mu;

  std::map<std::string, keystone_memory::domain_rec> domains;
  std::map<std::string, keystone_memory::project_rec> projects;
  std::map<std::string, keystone_memory::role_rec> roles;
  std::map<std::string, keystone_memory::user_rec> users;
  std::set<keystone_memory::assignment_rec> assignments;
  std::map<std::string, keystone_memory::app_cred_rec> app_creds;
  std::map<std::string, keystone_memory::service_rec> services;
  std::map<std::string, keystone_memory::endpoint_rec> endpoints;
  std::map<std::string, keystone_memory::region_rec> regions;
  std::map<std::string, std::string> implied;  // prior role id -> implied role id
  std::map<std::string, keystone_memory::token_rec> tokens;
  std::map<std::string, std::uint64_t> revoked_before;  // user id -> token serials below are revoked
  std::uint64_t serial = 0;
  std::uint64_t ids = 0;

  bool down = false;
  int fail_status = 0;
  int fail_times = 0;
  std::size_t requests = 0;

  std::string new_id();  // 32 hex digits
  // Roles of `user` on `project`, with the implied ones.
  std::vector<std::string> effective_roles(const std::string& user, const std::string& project) const;
  bool is_admin(const keystone_memory::token_rec& t) const;

  // The collections (memory_identity_routes.cpp): answers nullopt when no route matches.
  std::optional<keystone_memory::reply> route(const keystone_memory::request_view& r);
  // Records as the API shows them.
  k8s::object domain_json(const keystone_memory::domain_rec& d) const;
  k8s::object project_json(const keystone_memory::project_rec& p) const;
  k8s::object role_json(const keystone_memory::role_rec& r) const;
  k8s::object user_json(const keystone_memory::user_rec& u) const;
  k8s::object assignment_json(const keystone_memory::assignment_rec& a) const;
  k8s::object app_cred_json(const keystone_memory::app_cred_rec& c) const;
  k8s::object service_json(const keystone_memory::service_rec& s) const;
  k8s::object endpoint_json(const keystone_memory::endpoint_rec& e) const;
  k8s::object region_json(const keystone_memory::region_rec& r) const;
  std::vector<k8s::object> collection_json(std::string_view collection) const;

  // Cascades.
  void delete_user(const std::string& id);
  void delete_role(const std::string& id);
  void delete_project(const std::string& id);
};

}  // namespace c5c3::sim::world
