#include "sim/world/keystone_session.hpp"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>

namespace c5c3::sim::world {
namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

void key(writer& w, std::string_view k) { w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }
void str(writer& w, std::string_view v) { w.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); }

// {"id": ...} or {"name": ..., "domain": {...}} of a user, project or domain.
void named(writer& w, std::string_view id, std::string_view name, std::string_view domain_id,
           std::string_view domain_name, bool with_domain) {
  w.StartObject();
  if (!id.empty()) {
    key(w, "id");
    str(w, id);
  } else {
    key(w, "name");
    str(w, name);
    if (with_domain) {
      key(w, "domain");
      w.StartObject();
      if (!domain_id.empty()) {
        key(w, "id");
        str(w, domain_id);
      } else {
        key(w, "name");
        str(w, domain_name.empty() ? std::string_view("Default") : domain_name);
      }
      w.EndObject();
    }
  }
  w.EndObject();
}

// Go's url.Error operation: "Post", "Get", ...
std::string go_op(std::string_view method) {
  std::string op;
  for (std::size_t i = 0; i < method.size(); ++i) {
    auto c = static_cast<unsigned char>(method[i]);
    op += static_cast<char>(i == 0 ? std::toupper(c) : std::tolower(c));
  }
  return op;
}

std::string_view expected_codes(std::string_view method) {
  if (method == "POST") return "[201]";
  if (method == "PUT" || method == "DELETE" || method == "HEAD") return "[204]";
  return "[200]";
}

}  // namespace

std::string token_request_body(const cloud_config& c) {
  rapidjson::StringBuffer buf;
  writer w(buf);
  w.StartObject();
  key(w, "auth");
  w.StartObject();
  key(w, "identity");
  w.StartObject();
  key(w, "methods");
  w.StartArray();
  str(w, c.application_credential() ? "application_credential" : "password");
  w.EndArray();
  if (c.application_credential()) {
    key(w, "application_credential");
    w.StartObject();
    if (!c.application_credential_id.empty()) {
      key(w, "id");
      str(w, c.application_credential_id);
    } else {
      key(w, "name");
      str(w, c.application_credential_name);
      key(w, "user");
      named(w, c.user_id, c.username, c.user_domain_id, c.user_domain_name, true);
    }
    key(w, "secret");
    str(w, c.application_credential_secret);
    w.EndObject();
  } else {
    key(w, "password");
    w.StartObject();
    key(w, "user");
    // The user object carries the password beside its name or id.
    w.StartObject();
    if (!c.user_id.empty()) {
      key(w, "id");
      str(w, c.user_id);
    } else {
      key(w, "name");
      str(w, c.username);
      key(w, "domain");
      w.StartObject();
      key(w, c.user_domain_id.empty() ? "name" : "id");
      str(w, c.user_domain_id.empty() ? (c.user_domain_name.empty() ? "Default" : c.user_domain_name)
                                      : c.user_domain_id);
      w.EndObject();
    }
    key(w, "password");
    str(w, c.password);
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();  // identity
  if (!c.application_credential() && (!c.project_name.empty() || !c.project_id.empty())) {
    key(w, "scope");
    w.StartObject();
    key(w, "project");
    named(w, c.project_id, c.project_name, c.project_domain_id, c.project_domain_name, true);
    w.EndObject();
  }
  w.EndObject();  // auth
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

std::string call_url(const cloud_config& cloud, std::string_view path) {
  std::string base = cloud.auth_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v3") == 0) base.resize(base.size() - 3);
  return base + std::string(path);
}

identity_error describe_failure(const identity_call& call, const std::string& url, const identity_reply& reply) {
  if (reply.status == 0) return {0, fmt::format("{} \"{}\": {}", go_op(call.method), url, reply.transport_error)};
  std::string body = reply.body;
  if (body.size() > 512) body = body.substr(0, 512) + "...";
  return {reply.status, fmt::format("Expected HTTP response code {} when accessing [{} {}], but got {} instead: {}",
                                    expected_codes(call.method), call.method, url, reply.status, body)};
}

keystone_sessions::keystone_sessions(std::shared_ptr<identity_service> service,
                                     std::function<k8s::time_point()> clock)
    : service_(std::move(service)), clock_(std::move(clock)) {}

std::optional<identity_error> keystone_sessions::issue(const cloud_config& cloud) {
  identity_call call{"POST", "/v3/auth/tokens", token_request_body(cloud)};
  identity_reply reply;
  {
    std::lock_guard lock(mu_);
    ++requests_;
  }
  reply = service_->send({call.method, call.path, call.body, ""});
  if (reply.status != 201 || reply.subject_token.empty()) return describe_failure(call, call_url(cloud, call.path), reply);
  token t;
  t.id = reply.subject_token;
  auto now = clock_();
  t.reuse_until = now + std::chrono::minutes(30);
  if (auto doc = k8s::parse_json(reply.body)) {
    t.user_id = std::string(k8s::get_string(*doc, {"token", "user", "id"}));
    if (auto exp = k8s::parse_rfc3339(k8s::get_string(*doc, {"token", "expires_at"}))) {
      if (*exp > now) t.reuse_until = now + (*exp - now) / 2;
    }
  }
  std::lock_guard lock(mu_);
  tokens_[cloud.cache_key()] = std::move(t);
  return std::nullopt;
}

std::optional<identity_error> keystone_sessions::authenticate(const cloud_config& cloud) {
  {
    std::lock_guard lock(mu_);
    auto it = tokens_.find(cloud.cache_key());
    if (it != tokens_.end() && clock_() < it->second.reuse_until) return std::nullopt;
  }
  return issue(cloud);
}

identity_answer keystone_sessions::send(const cloud_config& cloud, const identity_call& call, const std::string& token) {
  {
    std::lock_guard lock(mu_);
    ++requests_;
  }
  auto reply = service_->send({call.method, call.path, call.body, token});
  identity_answer a;
  a.status = reply.status;
  if (reply.status < 200 || reply.status >= 300) {
    a.error = describe_failure(call, call_url(cloud, call.path), reply);
    return a;
  }
  if (!reply.body.empty()) {
    if (auto o = k8s::object::parse(reply.body)) a.body = *o;
  }
  return a;
}

identity_answer keystone_sessions::run(const cloud_config& cloud, const identity_call& call) {
  if (auto err = authenticate(cloud)) return {0, {}, err};
  std::string token;
  {
    std::lock_guard lock(mu_);
    token = tokens_[cloud.cache_key()].id;
  }
  auto a = send(cloud, call, token);
  if (a.status != 401) return a;
  // gophercloud re-authenticates once on a 401 and retries.
  if (auto err = issue(cloud)) return {0, {}, err};
  {
    std::lock_guard lock(mu_);
    token = tokens_[cloud.cache_key()].id;
  }
  return send(cloud, call, token);
}

std::string keystone_sessions::token_user(const cloud_config& cloud) const {
  std::lock_guard lock(mu_);
  auto it = tokens_.find(cloud.cache_key());
  return it == tokens_.end() ? std::string() : it->second.user_id;
}

void keystone_sessions::forget() {
  std::lock_guard lock(mu_);
  tokens_.clear();
}

std::size_t keystone_sessions::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

}  // namespace c5c3::sim::world
