// Calls into a stand-in's pure core without sockets, and the documented-call
// table the stand-ins are checked against.
#pragma once

#include "k8s/base64.hpp"
#include "sim/monitoring/standin_server.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

namespace c5c3::sim::monitoring::testing {

inline std::string bearer(const std::string& t) { return "Bearer " + t; }
inline std::string basic(const std::string& u, const std::string& p) {
  return "Basic " + k8s::base64_encode(u + ":" + p);
}

struct answer {
  int status = 0;
  std::string body;
  k8s::http_headers headers;
  k8s::json_document json() const {
    auto d = k8s::parse_json(body);
    return d ? std::move(*d) : k8s::json_document();
  }
};

inline answer call(standin_core& core, const std::string& method, const std::string& path,
                   const std::string& authorization, const std::string& body = {},
                   const std::map<std::string, std::string>& headers = {}, const std::string& query = {},
                   const std::string& base = "http://127.0.0.1:3000") {
  k8s::http_request req;
  req.method = method;
  req.path = path;
  req.query = query;
  req.target = query.empty() ? path : path + "?" + query;
  if (!authorization.empty()) req.headers.emplace_back("Authorization", authorization);
  if (!body.empty()) req.headers.emplace_back("Content-Type", "application/json");
  for (auto& [k, v] : headers) req.headers.emplace_back(k, v);
  req.body = body;
  auto r = core.handle(req, base);
  return {r.status, r.body, r.headers};
}

// A top-level member as text (numbers and booleans printed).
inline std::string field(const answer& a, const char* name) {
  auto d = a.json();
  const k8s::json_value* v = d.IsObject() ? k8s::member(d, name) : nullptr;
  if (!v) return "<absent>";
  if (v->IsString()) return std::string(k8s::as_string_view(*v));
  return k8s::to_json(*v);
}

struct documented_call {
  const char* name;  // what the row checks (the doc section)
  std::string method, path, authorization, body;
  int status;
  std::vector<std::string> keys;                    // members the documented answer has
  std::map<std::string, std::string> values;        // members with fixed documented values
};

inline void run_documented(standin_core& core, const std::vector<documented_call>& rows) {
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.name) {
      auto a = call(core, r.method, r.path, r.authorization, r.body);
      BOOST_TEST(a.status == r.status, a.body);
      for (auto& k : r.keys) BOOST_TEST(field(a, k.c_str()) != "<absent>", k);
      for (auto& [k, v] : r.values) BOOST_TEST(field(a, k.c_str()) == v, k);
    }
}

}  // namespace c5c3::sim::monitoring::testing
