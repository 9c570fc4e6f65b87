// A Rancher v3 API stand-in for the TokenRefresher (apis-monitoring.md section
// 10): what norman's client and the refresher call, as Rancher answers them.
//
//   GET    /v3                 200, header X-API-Schemas: <base>/v3/schemas (norman's NewAPIClient)
//   GET    /v3/schemas         the schema collection (the "token" schema: collection <base>/v3/tokens)
//   GET    /v3/schemas/token
//   GET    /v3/tokens          the caller's tokens (secrets never shown)
//   GET    /v3/tokens/<id>     {id, name, userId, ttl (ms), expiresAt (RFC 3339), expired, enabled, ...}
//   POST   /v3/tokens          {"description", "ttl"} -> 201 with "token": "<id>:<secret>"
//   DELETE /v3/tokens/<id>     204
// Auth: `Authorization: Bearer <id>:<secret>` (or Basic of the two) of an
// enabled token that has not expired, else 401 {"type": "error", "status":
// "401", "code": "Unauthorized", "message": "must authenticate"}.
// Time is the stand-in's clock (the system clock plus an offset the tests move:
// POST /sim/clock {"advance": "24h"} or {"now": "<RFC 3339>"}); tokens are
// seeded with --token or POST /sim/tokens {"id", "secret", "userId", "ttl" or "expiresAt"}.
#pragma once

#include "k8s/time.hpp"
#include "sim/monitoring/standin_server.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace c5c3::sim::monitoring {

struct rancher_token {
  std::string id;         // token-xxxxx
  std::string secret;
  std::string user_id = "user-c5c3";
  std::string description;
  std::int64_t ttl_ms = 0;  // 0: never expires
  k8s::time_point created{};
  bool enabled = true;
  std::string full() const { return id + ":" + secret; }
};

struct rancher_options {
  std::vector<rancher_token> tokens;  // created at start (created = now when unset)
  std::int64_t max_ttl_ms = 0;        // auth-token-max-ttl; 0: none
};

class rancher_api : public standin_core {
 public:
  explicit rancher_api(rancher_options o = {});

  k8s::http_response handle(const k8s::http_request& req, const std::string& base_url) override;
  k8s::http_response error(int status, const std::string& message) const override;
  k8s::json_document state() const override;
  std::optional<k8s::http_response> admin(const k8s::http_request& req) override;

  k8s::time_point now() const { return k8s::clock::now() + offset_; }
  void advance(std::chrono::milliseconds d) { offset_ += d; }
  const rancher_token& add_token(rancher_token t);
  const std::map<std::string, rancher_token>& tokens() const { return tokens_; }
  int created_count() const { return created_; }
  // "<id>:<secret>" from a seed text `id:secret[:user[:ttl]]` (ttl a Go duration).
  static rancher_token parse_seed(const std::string& text);

 private:
  k8s::json_value token_json(const rancher_token& t, bool with_secret, const std::string& base,
                             k8s::json_allocator& a) const;
  k8s::json_value token_schema(const std::string& base, k8s::json_allocator& a) const;
  const rancher_token* authenticate(const k8s::http_request& req) const;
  bool expired(const rancher_token& t) const;

  rancher_options opts_;
  std::map<std::string, rancher_token> tokens_;
  std::chrono::milliseconds offset_{0};
  int created_ = 0;
};

// norman's error body.
k8s::http_response rancher_error(int status, std::string_view code, std::string_view message);

}  // namespace c5c3::sim::monitoring
