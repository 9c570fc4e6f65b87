#include "sim/monitoring/rancher.hpp"

#include "k8s/base64.hpp"
#include "sim/apiserver/pki.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace c5c3::sim::monitoring {

using k8s::json_value;

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    auto j = s.find(sep, i);
    out.emplace_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) return out;
    i = j + 1;
  }
}

std::string lower_alnum(std::size_t n) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  auto hex = random_hex(n);
  std::string out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(alphabet[std::stoi(hex.substr(2 * i, 2), nullptr, 16) % 36]);
  return out;
}

std::string rfc3339(k8s::time_point t) { return k8s::format_rfc3339(t); }

}  // namespace

k8s::http_response rancher_error(int status, std::string_view code, std::string_view message) {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("type", "error", a);
  d.AddMember("status", k8s::make_string(std::to_string(status), a), a);
  d.AddMember("code", k8s::make_string(code, a), a);
  d.AddMember("message", k8s::make_string(message, a), a);
  return json_response(status, d);
}

rancher_api::rancher_api(rancher_options o) : opts_(std::move(o)) {
  for (auto& t : opts_.tokens) add_token(t);
}

rancher_token rancher_api::parse_seed(const std::string& text) {
  auto parts = split(text, ':');
  if (parts.size() < 2 || parts[0].empty() || parts[1].empty())
    throw std::runtime_error("a Rancher token is id:secret[:user[:ttl]], not " + text);
  rancher_token t;
  t.id = parts[0];
  t.secret = parts[1];
  if (parts.size() > 2 && !parts[2].empty()) t.user_id = parts[2];
  if (parts.size() > 3) {
    auto d = k8s::parse_go_duration(parts[3]);
    if (!d) throw std::runtime_error("invalid token ttl: " + parts[3]);
    t.ttl_ms = std::chrono::duration_cast<std::chrono::milliseconds>(*d).count();
  }
  return t;
}

const rancher_token& rancher_api::add_token(rancher_token t) {
  if (t.created == k8s::time_point{}) t.created = now();
  auto id = t.id;
  tokens_[id] = std::move(t);
  return tokens_[id];
}

bool rancher_api::expired(const rancher_token& t) const {
  return t.ttl_ms > 0 && now() >= t.created + std::chrono::milliseconds(t.ttl_ms);
}

k8s::http_response rancher_api::error(int status, const std::string& message) const {
  std::string code = status == 401 ? "Unauthorized" : status == 403 ? "PermissionDenied"
                   : status == 404 ? "NotFound" : status >= 500 ? "ServerError" : "InvalidBodyContent";
  return rancher_error(status, code, message);
}

const rancher_token* rancher_api::authenticate(const k8s::http_request& req) const {
  auto authz = req.header("Authorization");
  std::string presented;
  if (authz.rfind("Bearer ", 0) == 0) presented = authz.substr(7);
  else if (authz.rfind("Basic ", 0) == 0) presented = k8s::base64_decode(authz.substr(6)).value_or("");
  auto colon = presented.find(':');
  if (colon == std::string::npos) return nullptr;
  auto it = tokens_.find(presented.substr(0, colon));
  if (it == tokens_.end() || it->second.secret != presented.substr(colon + 1) || !it->second.enabled ||
      expired(it->second))
    return nullptr;
  return &it->second;
}

json_value rancher_api::token_json(const rancher_token& t, bool with_secret, const std::string& base,
                                   k8s::json_allocator& a) const {
  json_value v(rapidjson::kObjectType);
  std::string self = base + "/v3/tokens/" + t.id;
  v.AddMember("authProvider", "local", a);
  v.AddMember("baseType", "token", a);
  v.AddMember("created", k8s::make_string(rfc3339(t.created), a), a);
  v.AddMember("current", false, a);
  v.AddMember("description", k8s::make_string(t.description, a), a);
  v.AddMember("enabled", t.enabled, a);
  v.AddMember("expired", expired(t), a);
  std::string expires = t.ttl_ms > 0 ? rfc3339(t.created + std::chrono::milliseconds(t.ttl_ms)) : "";
  v.AddMember("expiresAt", k8s::make_string(expires, a), a);
  v.AddMember("id", k8s::make_string(t.id, a), a);
  v.AddMember("isDerived", true, a);
  json_value links(rapidjson::kObjectType);
  links.AddMember("self", k8s::make_string(self, a), a);
  links.AddMember("remove", k8s::make_string(self, a), a);
  v.AddMember("links", std::move(links), a);
  v.AddMember("name", k8s::make_string(t.id, a), a);
  if (with_secret) v.AddMember("token", k8s::make_string(t.full(), a), a);
  v.AddMember("ttl", t.ttl_ms, a);
  v.AddMember("type", "token", a);
  v.AddMember("userId", k8s::make_string(t.user_id, a), a);
  return v;
}

json_value rancher_api::token_schema(const std::string& base, k8s::json_allocator& a) const {
  json_value s(rapidjson::kObjectType);
  s.AddMember("id", "token", a);
  s.AddMember("type", "schema", a);
  s.AddMember("pluralName", "tokens", a);
  json_value links(rapidjson::kObjectType);
  links.AddMember("self", k8s::make_string(base + "/v3/schemas/token", a), a);
  links.AddMember("collection", k8s::make_string(base + "/v3/tokens", a), a);
  s.AddMember("links", std::move(links), a);
  json_value cm(rapidjson::kArrayType), rm(rapidjson::kArrayType);
  cm.PushBack("GET", a).PushBack("POST", a);
  rm.PushBack("GET", a).PushBack("DELETE", a);
  s.AddMember("collectionMethods", std::move(cm), a);
  s.AddMember("resourceMethods", std::move(rm), a);
  json_value fields(rapidjson::kObjectType);
  for (const char* f : {"description", "expiresAt", "token", "userId"}) {
    json_value t(rapidjson::kObjectType);
    t.AddMember("type", "string", a);
    fields.AddMember(json_value(f, a), std::move(t), a);
  }
  json_value ttl(rapidjson::kObjectType);
  ttl.AddMember("type", "int", a);
  fields.AddMember("ttl", std::move(ttl), a);
  s.AddMember("resourceFields", std::move(fields), a);
  return s;
}

k8s::http_response rancher_api::handle(const k8s::http_request& req, const std::string& base) {
  std::string path = req.path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path != "/v3" && path.rfind("/v3/", 0) != 0) return rancher_error(404, "NotFound", "not found");
  const rancher_token* who = authenticate(req);
  if (!who) return rancher_error(401, "Unauthorized", "must authenticate");
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  auto collection = [&](const char* resource_type, json_value data) {
    d.AddMember("type", "collection", a);
    d.AddMember("resourceType", json_value(resource_type, a), a);
    json_value links(rapidjson::kObjectType);
    links.AddMember("self", k8s::make_string(base + path, a), a);
    d.AddMember("links", std::move(links), a);
    d.AddMember("data", std::move(data), a);
    return json_response(200, d);
  };
  if (path == "/v3" && req.method == "GET") {
    d.AddMember("type", "apiRoot", a);
    d.AddMember("id", "v3", a);
    json_value links(rapidjson::kObjectType);
    links.AddMember("self", k8s::make_string(base + "/v3", a), a);
    links.AddMember("schemas", k8s::make_string(base + "/v3/schemas", a), a);
    links.AddMember("tokens", k8s::make_string(base + "/v3/tokens", a), a);
    d.AddMember("links", std::move(links), a);
    auto r = json_response(200, d);
    r.headers.emplace_back("X-API-Schemas", base + "/v3/schemas");
    return r;
  }
  if (path == "/v3/schemas" && req.method == "GET") {
    json_value data(rapidjson::kArrayType);
    data.PushBack(token_schema(base, a), a);
    return collection("schema", std::move(data));
  }
  if (path == "/v3/schemas/token" && req.method == "GET") {
    auto s = token_schema(base, a);
    d.CopyFrom(s, a);
    return json_response(200, d);
  }
  if (path == "/v3/tokens" && req.method == "GET") {
    json_value data(rapidjson::kArrayType);
    for (auto& [id, t] : tokens_)
      if (t.user_id == who->user_id) data.PushBack(token_json(t, false, base, a), a);
    return collection("token", std::move(data));
  }
  if (path == "/v3/tokens" && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject()) return rancher_error(422, "InvalidBodyContent", "Failed to parse body");
    rancher_token t;
    t.id = "token-" + lower_alnum(5);
    while (tokens_.count(t.id)) t.id = "token-" + lower_alnum(5);
    t.secret = lower_alnum(54);
    t.user_id = who->user_id;
    t.description = k8s::get_string(*body, {"description"});
    t.ttl_ms = k8s::get_int(*body, {"ttl"}).value_or(0);
    if (opts_.max_ttl_ms > 0 && (t.ttl_ms == 0 || t.ttl_ms > opts_.max_ttl_ms)) t.ttl_ms = opts_.max_ttl_ms;
    ++created_;
    auto v = token_json(add_token(std::move(t)), true, base, a);
    d.CopyFrom(v, a);
    return json_response(201, d);
  }
  if (path.rfind("/v3/tokens/", 0) == 0) {
    auto id = path.substr(std::string("/v3/tokens/").size());
    auto it = tokens_.find(id);
    if (it == tokens_.end() || it->second.user_id != who->user_id)
      return rancher_error(404, "NotFound", fmt::format("tokens.management.cattle.io \"{}\" not found", id));
    if (req.method == "GET") {
      auto v = token_json(it->second, false, base, a);
      d.CopyFrom(v, a);
      return json_response(200, d);
    }
    if (req.method == "DELETE") {
      tokens_.erase(it);
      return {204, {}, ""};
    }
  }
  return rancher_error(405, "MethodNotAllowed", "Method not allowed");
}

std::optional<k8s::http_response> rancher_api::admin(const k8s::http_request& req) {
  if (req.path == "/sim/clock" && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject()) return text_response(400, "expected a JSON object\n");
    if (auto adv = k8s::get_string(*body, {"advance"}); !adv.empty()) {
      auto d = k8s::parse_go_duration(adv);
      if (!d) return text_response(400, "invalid duration\n");
      advance(std::chrono::duration_cast<std::chrono::milliseconds>(*d));
    } else if (auto at = k8s::get_string(*body, {"now"}); !at.empty()) {
      auto t = k8s::parse_rfc3339(at);
      if (!t) return text_response(400, "invalid time\n");
      offset_ = std::chrono::duration_cast<std::chrono::milliseconds>(*t - k8s::clock::now());
    }
    k8s::json_document d(rapidjson::kObjectType);
    d.AddMember("now", k8s::make_string(rfc3339(now()), d.GetAllocator()), d.GetAllocator());
    return json_response(200, d);
  }
  if (req.path == "/sim/tokens" && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject() || k8s::get_string(*body, {"id"}).empty() ||
        k8s::get_string(*body, {"secret"}).empty())
      return text_response(400, "expected {id, secret, userId?, ttl?, expiresAt?}\n");
    rancher_token t;
    t.id = k8s::get_string(*body, {"id"});
    t.secret = k8s::get_string(*body, {"secret"});
    if (auto u = k8s::get_string(*body, {"userId"}); !u.empty()) t.user_id = u;
    t.ttl_ms = k8s::get_int(*body, {"ttl"}).value_or(0);
    if (auto e = k8s::get_string(*body, {"expiresAt"}); !e.empty()) {
      auto at = k8s::parse_rfc3339(e);
      if (!at) return text_response(400, "invalid expiresAt\n");
      t.created = now();
      t.ttl_ms = std::chrono::duration_cast<std::chrono::milliseconds>(*at - t.created).count();
    }
    add_token(std::move(t));
    return text_response(201, "created\n");
  }
  return std::nullopt;
}

k8s::json_document rancher_api::state() const {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("now", k8s::make_string(rfc3339(now()), a), a);
  d.AddMember("created", created_, a);
  json_value list(rapidjson::kArrayType);
  for (auto& [id, t] : tokens_) list.PushBack(token_json(t, false, "", a), a);
  d.AddMember("tokens", std::move(list), a);
  return d;
}

}  // namespace c5c3::sim::monitoring
