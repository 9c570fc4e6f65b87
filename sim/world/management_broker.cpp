#include "sim/world/management_broker.hpp"

#include "k8s/json.hpp"
#include "sim/world/identity.hpp"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace c5c3::sim::world {
namespace {

std::string json_object(std::initializer_list<std::pair<std::string_view, std::string_view>> members) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  for (const auto& [k, v] : members) {
    w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

// The "reason" of the API's error body, or a short prefix of the body.
std::string error_reason(const std::string& body) {
  if (auto doc = k8s::parse_json(body)) {
    auto reason = k8s::get_string(*doc, {"reason"});
    if (!reason.empty()) return std::string(reason);
  }
  return body.substr(0, 200);
}

}  // namespace

std::string encode_path_segment(std::string_view s) { return percent_encode(s); }

management_broker::management_broker(std::shared_ptr<management_http> http) : http_(std::move(http)) {}

broker_error management_broker::send(std::string_view method, const std::string& path, std::string_view body) {
  auto reply = http_->request(method, path, body);
  if (reply.status == 0) return fmt::format("{} {}: {}", method, path, reply.transport_error);
  if (reply.status >= 200 && reply.status < 300) return std::nullopt;
  if (method == "DELETE" && reply.status == 404) return std::nullopt;
  return fmt::format("{} {}: API responded with {}: {}", method, path, reply.status, error_reason(reply.body));
}

broker_error management_broker::put_vhost(std::string_view name) {
  return send("PUT", "/api/vhosts/" + encode_path_segment(name), "{}");
}

broker_error management_broker::delete_vhost(std::string_view name) {
  return send("DELETE", "/api/vhosts/" + encode_path_segment(name), "");
}

broker_error management_broker::put_user(const broker_user& user) {
  std::string body = user.password_hash.empty()
                         ? json_object({{"password", user.password}, {"tags", user.tags}})
                         : json_object({{"password_hash", user.password_hash},
                                        {"hashing_algorithm", "rabbit_password_hashing_sha512"},
                                        {"tags", user.tags}});
  return send("PUT", "/api/users/" + encode_path_segment(user.name), body);
}

broker_error management_broker::delete_user(std::string_view name) {
  return send("DELETE", "/api/users/" + encode_path_segment(name), "");
}

broker_error management_broker::put_permissions(std::string_view vhost, std::string_view user,
                                                const permission_set& p) {
  return send("PUT", "/api/permissions/" + encode_path_segment(vhost) + "/" + encode_path_segment(user),
              json_object({{"configure", p.configure}, {"write", p.write}, {"read", p.read}}));
}

broker_error management_broker::delete_permissions(std::string_view vhost, std::string_view user) {
  return send("DELETE", "/api/permissions/" + encode_path_segment(vhost) + "/" + encode_path_segment(user), "");
}

}  // namespace c5c3::sim::world
