// A Grafana HTTP API stand-in answering the calls of apis-monitoring.md
// section 13 as Grafana's documented API does (grafana/grafana
// docs/sources/developers/http_api/{dashboard,data_source,org,folder}.md):
//
//   POST   /api/dashboards/db            create or update (uid, id, version, overwrite, folderId/folderUid)
//   GET    /api/dashboards/uid/:uid      {"dashboard", "meta"}
//   DELETE /api/dashboards/uid/:uid      {"title", "message": "Dashboard <title> deleted", "id"}
//   GET    /api/search                   query, type (dash-db, dash-folder), folderIds
//   GET    /api/folders, /api/folders/:uid; POST /api/folders
//   GET    /api/datasources, /api/datasources/:id, /uid/:uid, /name/:name, /id/:name
//   POST   /api/datasources              409 on a duplicate name
//   PUT    /api/datasources/:id, /api/datasources/uid/:uid
//   DELETE /api/datasources/:id, /uid/:uid, /name/:name
//   GET    /api/org (and /api/org/)      the caller's org
//   GET    /api/orgs, /api/orgs/:id, /api/orgs/name/:name; POST /api/orgs   (server admin)
//   POST   /api/auth/keys                API keys (org Admin)
//   GET    /api/health                   no authentication
//
// Authentication: `Authorization: Bearer <API key or service account token>`
// (the key's org and role) or Basic auth of a user (the server admin; its org
// from X-Grafana-Org-Id, default 1). Errors are Grafana's JSON bodies
// {"message": ...} (412 adds "status"); Viewer keys get 403 on writes.
#pragma once

#include "sim/monitoring/standin_server.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace c5c3::sim::monitoring {

struct grafana_options {
  std::string admin_user = "admin";
  std::string admin_password = "admin";
  struct key {
    std::string key;
    std::int64_t org_id = 1;
    std::string role = "Admin";  // Viewer, Editor, Admin
  };
  std::vector<key> api_keys;
};

struct grafana_dashboard {
  std::int64_t id = 0;
  std::string uid, title, slug;
  std::int64_t version = 0;
  std::int64_t folder_id = 0;  // 0: the root ("General")
  std::string created, updated;
  k8s::json_document model;  // as stored, id, uid, title and version set
  bool is_folder = false;
};

struct grafana_datasource {
  std::int64_t id = 0, org_id = 1, version = 1;
  std::string uid, name, type, access, url, user, database, basic_auth_user;
  bool basic_auth = false, with_credentials = false, is_default = false, read_only = false;
  k8s::json_document json_data;     // {} when not sent
  std::set<std::string> secure_fields;
};

class grafana_api : public standin_core {
 public:
  explicit grafana_api(grafana_options o = {});

  k8s::http_response handle(const k8s::http_request& req, const std::string& base_url) override;
  k8s::http_response error(int status, const std::string& message) const override;
  k8s::json_document state() const override;

  // Seeding and reading, for tests and c5c3-sim monitoring.
  std::int64_t add_org(const std::string& name);  // returns its id (existing: that one)
  void add_api_key(const std::string& key, std::int64_t org_id, const std::string& role);
  std::int64_t ensure_folder(std::int64_t org_id, const std::string& title);
  std::int64_t ensure_datasource(std::int64_t org_id, const std::string& name, const std::string& type,
                                 const std::string& url);
  const grafana_dashboard* dashboard(std::int64_t org_id, const std::string& uid) const;
  std::vector<const grafana_dashboard*> dashboards(std::int64_t org_id) const;  // not folders
  const grafana_datasource* datasource(std::int64_t org_id, std::int64_t id) const;
  std::vector<const grafana_datasource*> datasources(std::int64_t org_id) const;

  struct caller {
    std::int64_t org_id = 1;
    std::string role;  // Viewer, Editor, Admin
    bool server_admin = false;
  };

 private:
  friend struct grafana_routes;
  using response = k8s::http_response;
  response dashboards_route(const k8s::http_request& req, const caller& who, const std::vector<std::string>& p);
  response save_dashboard(const k8s::json_value& body, const caller& who, bool folder_only);
  response search(const k8s::http_request& req, const caller& who);
  response folders_route(const k8s::http_request& req, const caller& who, const std::vector<std::string>& p);
  response datasources_route(const k8s::http_request& req, const caller& who, const std::vector<std::string>& p);
  response save_datasource(const k8s::json_value& body, const caller& who, grafana_datasource* existing);
  response orgs_route(const k8s::http_request& req, const caller& who, const std::vector<std::string>& p);
  response keys_route(const k8s::http_request& req, const caller& who);
  k8s::json_value dashboard_meta(const grafana_dashboard& d, std::int64_t org, k8s::json_allocator& a) const;
  k8s::json_value datasource_json(const grafana_datasource& d, k8s::json_allocator& a) const;
  std::string new_uid();
  std::string now() const;

  grafana_options opts_;
  std::map<std::int64_t, std::string> orgs_;  // id -> name
  std::map<std::string, grafana_options::key> keys_;
  // org -> uid -> dashboard (folders too: is_folder)
  std::map<std::int64_t, std::map<std::string, grafana_dashboard>> dashboards_;
  std::map<std::int64_t, std::map<std::int64_t, grafana_datasource>> datasources_;
  std::int64_t next_org_ = 1, next_dashboard_ = 1, next_datasource_ = 1, next_key_ = 1;
  std::uint64_t uid_counter_ = 0;
};

// Grafana's error body {"message": text} (412 adds {"status": word}).
k8s::http_response grafana_message(int status, std::string_view text, std::string_view status_word = {});

// Grafana's slugify for the ASCII cases ("Production Overview" -> "production-overview").
std::string grafana_slug(std::string_view title);

}  // namespace c5c3::sim::monitoring
