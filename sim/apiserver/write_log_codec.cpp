#include "sim/apiserver/write_log_codec.hpp"

namespace c5c3::sim {

k8s::json_value write_record_to_json(const write_record& w, k8s::json_allocator& a) {
  k8s::json_value v(rapidjson::kObjectType);
  v.AddMember("seq", k8s::json_value(static_cast<std::uint64_t>(w.seq)), a);
  v.AddMember("client", k8s::make_string(w.client, a), a);
  v.AddMember("userAgent", k8s::make_string(w.user_agent, a), a);
  v.AddMember("verb", k8s::make_string(w.verb, a), a);
  v.AddMember("group", k8s::make_string(w.group, a), a);
  v.AddMember("resource", k8s::make_string(w.resource, a), a);
  v.AddMember("namespace", k8s::make_string(w.namespace_, a), a);
  v.AddMember("name", k8s::make_string(w.name, a), a);
  v.AddMember("code", w.code, a);
  v.AddMember("resourceVersion", k8s::make_string(w.resource_version, a), a);
  v.AddMember("dryRun", w.dry_run, a);
  if (!w.method.empty()) {
    v.AddMember("method", k8s::make_string(w.method, a), a);
    v.AddMember("target", k8s::make_string(w.target, a), a);
    v.AddMember("contentType", k8s::make_string(w.content_type, a), a);
    v.AddMember("body", k8s::make_string(w.body, a), a);
  }
  return v;
}

}  // namespace c5c3::sim
