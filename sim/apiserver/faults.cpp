// Fault rules: matching, counting, loading from YAML, and their JSON form.
#include "k8s/time.hpp"
#include "k8s/yaml.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/faults_codec.hpp"
#include "sim/apiserver/hostile.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <stdexcept>

namespace c5c3::sim {

using k8s::json_value;

std::optional<fault_rule> fault_from_json(const json_value& v, std::string* error) {
  if (!v.IsObject()) {
    if (error) *error = "a fault rule must be an object";
    return std::nullopt;
  }
  fault_rule r;
  r.id = k8s::get_string(v, {"id"});
  r.verb = k8s::get_string(v, {"verb"});
  r.resource = k8s::get_string(v, {"resource"});
  r.namespace_ = k8s::get_string(v, {"namespace"});
  r.name = k8s::get_string(v, {"name"});
  r.client = k8s::get_string(v, {"client"});
  r.status_code = static_cast<int>(k8s::get_int(v, {"status"}).value_or(0));
  r.retry_after_seconds = static_cast<int>(k8s::get_int(v, {"retryAfterSeconds"}).value_or(1));
  r.message = k8s::get_string(v, {"message"});
  // A Go duration, or milliseconds.
  auto duration = [&](const char* key, std::chrono::milliseconds& out) {
    auto* l = k8s::member(v, key);
    if (!l) return true;
    if (l->IsString()) {
      auto d = k8s::parse_go_duration(k8s::as_string_view(*l));
      if (!d) {
        if (error) *error = std::string("invalid ") + key + ": " + std::string(k8s::as_string_view(*l));
        return false;
      }
      out = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    } else if (l->IsInt64()) {
      out = std::chrono::milliseconds(l->GetInt64());
    }
    return true;
  };
  if (!duration("latency", r.latency) || !duration("latencyMax", r.latency_max)) return std::nullopt;
  r.cut_watch_after_events = static_cast<int>(k8s::get_int(v, {"cutWatchAfterEvents"}).value_or(-1));
  r.expire_resume = k8s::get_bool(v, {"expireResume"}).value_or(false);
  r.reset_connection = k8s::get_bool(v, {"resetConnection"}).value_or(false);
  r.times = static_cast<int>(k8s::get_int(v, {"times"}).value_or(-1));
  r.body = k8s::get_string(v, {"body"});
  r.body_bytes = static_cast<std::size_t>(std::max<std::int64_t>(0, k8s::get_int(v, {"bodyBytes"}).value_or(0)));
  r.body_field = k8s::get_string(v, {"bodyField"});
  r.hold_watch_events = static_cast<int>(k8s::get_int(v, {"holdWatchEvents"}).value_or(-1));
  r.coalesce_modified = k8s::get_bool(v, {"coalesceModified"}).value_or(false);
  r.expire_watches = k8s::get_bool(v, {"expireWatches"}).value_or(false);
  r.after_writes = static_cast<int>(k8s::get_int(v, {"afterWrites"}).value_or(0));
  if (const auto* of = k8s::member(v, "afterWritesOf")) {
    if (!of->IsObject()) {
      if (error) *error = "afterWritesOf must be an object (verb, group, resource, namespace, name)";
      return std::nullopt;
    }
    auto field = [&](const char* k) { return std::string(k8s::get_string(*of, {k})); };
    r.after_writes_of = {field("verb"), field("group"), field("resource"), field("namespace"), field("name")};
  }
  if (auto* p = k8s::member(v, "probability"); p && p->IsNumber()) r.probability = p->GetDouble();
  if (r.probability < 0 || r.probability > 1) {
    if (error) *error = "probability must be between 0 and 1";
    return std::nullopt;
  }
  if (!r.body.empty() && !known_hostile_body(r.body)) {
    if (error) *error = "unknown fault body: " + r.body;
    return std::nullopt;
  }
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    static const char* known[] = {"id", "verb", "resource", "namespace", "name", "client", "status",
                                  "retryAfterSeconds", "message", "latency", "cutWatchAfterEvents",
                                  "expireResume", "resetConnection", "times", "body", "bodyBytes",
                                  "bodyField", "latencyMax", "holdWatchEvents", "coalesceModified",
                                  "expireWatches", "afterWrites", "afterWritesOf", "probability"};
    bool ok = false;
    for (auto* k : known) ok |= k8s::as_string_view(it->name) == k;
    if (!ok) {
      if (error) *error = "unknown fault rule field: " + std::string(k8s::as_string_view(it->name));
      return std::nullopt;
    }
  }
  return r;
}

k8s::json_value fault_to_json(const fault_rule& r, k8s::json_allocator& a) {
  json_value v(rapidjson::kObjectType);
  auto str_in = [&](json_value& obj, const char* k, const std::string& s) {
    if (!s.empty()) obj.AddMember(json_value(k, a), k8s::make_string(s, a), a);
  };
  auto str = [&](const char* k, const std::string& s) { str_in(v, k, s); };
  str("id", r.id);
  str("verb", r.verb);
  str("resource", r.resource);
  str("namespace", r.namespace_);
  str("name", r.name);
  str("client", r.client);
  if (r.status_code) v.AddMember("status", r.status_code, a);
  if (r.status_code == 429 || r.status_code == 503) v.AddMember("retryAfterSeconds", r.retry_after_seconds, a);
  str("message", r.message);
  auto duration = [&](const char* k, std::chrono::milliseconds d) {
    if (d.count() > 0) str(k, k8s::format_go_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(d)));
  };
  duration("latency", r.latency);
  duration("latencyMax", r.latency_max);
  if (r.cut_watch_after_events >= 0) v.AddMember("cutWatchAfterEvents", r.cut_watch_after_events, a);
  if (r.expire_resume) v.AddMember("expireResume", true, a);
  if (r.reset_connection) v.AddMember("resetConnection", true, a);
  if (r.times >= 0) v.AddMember("times", r.times, a);
  str("body", r.body);
  if (r.body_bytes) v.AddMember("bodyBytes", static_cast<std::uint64_t>(r.body_bytes), a);
  str("bodyField", r.body_field);
  if (r.hold_watch_events >= 0) v.AddMember("holdWatchEvents", r.hold_watch_events, a);
  if (r.coalesce_modified) v.AddMember("coalesceModified", true, a);
  if (r.expire_watches) v.AddMember("expireWatches", true, a);
  if (r.after_writes > 0) v.AddMember("afterWrites", r.after_writes, a);
  json_value of(rapidjson::kObjectType);
  str_in(of, "verb", r.after_writes_of.verb);
  str_in(of, "group", r.after_writes_of.group);
  str_in(of, "resource", r.after_writes_of.resource);
  str_in(of, "namespace", r.after_writes_of.namespace_);
  str_in(of, "name", r.after_writes_of.name);
  if (of.MemberCount() > 0) v.AddMember("afterWritesOf", of, a);
  if (r.probability < 1) v.AddMember("probability", r.probability, a);
  return v;
}

std::vector<fault_rule> faults_from_yaml(std::string_view text) {
  std::string err;
  auto docs = k8s::yaml_documents_to_json(text, &err);
  if (!docs) throw std::runtime_error("faults: " + err);
  std::vector<fault_rule> out;
  auto add_list = [&](const json_value& arr) {
    for (auto& item : arr.GetArray()) {
      auto r = fault_from_json(item, &err);
      if (!r) throw std::runtime_error("faults: " + err);
      out.push_back(std::move(*r));
    }
  };
  for (auto& d : *docs) {
    if (d.IsArray()) {
      add_list(d);
    } else if (auto* rules = k8s::member(d, "rules"); rules && rules->IsArray()) {
      add_list(*rules);
    } else {
      auto r = fault_from_json(d, &err);
      if (!r) throw std::runtime_error("faults: " + err);
      out.push_back(std::move(*r));
    }
  }
  return out;
}

bool fault_matches(const fault_rule& f, const request_info& ri, std::string_view user_agent,
                   const std::string& user, const std::string& token) {
  auto verb_ok = f.verb.empty() || f.verb == ri.verb;
  if (!verb_ok) return false;
  if (!f.resource.empty()) {
    std::string with_sub = ri.resource();
    std::string qualified = ri.group.empty() ? ri.plural : ri.plural + "." + ri.group;
    if (f.resource != with_sub && f.resource != qualified &&
        !(f.resource == ri.plural && ri.subresource.empty()))
      return false;
  }
  if (!f.namespace_.empty() && f.namespace_ != ri.namespace_) return false;
  if (!f.name.empty() && f.name != ri.name) return false;
  return f.client.empty() || client_matches(f.client, user_agent, user, token);
}

bool client_matches(const std::string& client, std::string_view user_agent, const std::string& user,
                    const std::string& token) {
  return user_agent.find(client) != std::string_view::npos || user.find(client) != std::string::npos ||
         (!token.empty() && token == client);
}

std::optional<fault_rule> apiserver::impl::match_fault(const request_info& ri,
                                                       const k8s::http_request& req,
                                                       const identity& who) {
  std::lock_guard lock(faults_mu_);
  for (auto& f : faults_) {
    // Stream rules act on open watches (stream_faults.cpp), not on requests.
    if (f.hold_watch_events >= 0 || f.coalesce_modified || f.expire_watches) continue;
    if (f.times >= 0 && fired_[f.id] >= f.times) continue;
    if (!armed_locked(f)) continue;
    if (!fault_matches(f, ri, req.header("User-Agent"), who.user, who.token)) continue;
    if (f.probability < 1 && draw_locked() >= f.probability) continue;
    ++fired_[f.id];
    ++counters_.by_rule[f.id];
    ++counters_.total;
    fault_rule fired = f;
    if (f.latency_max > f.latency)
      fired.latency += std::chrono::milliseconds(static_cast<std::int64_t>(
          draw_locked() * static_cast<double>((f.latency_max - f.latency).count())));
    return fired;
  }
  return std::nullopt;
}

void apiserver::impl::load_faults_file(const std::string& path) {
  std::string text;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read faults file " + path);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  for (auto& r : faults_from_yaml(text)) add_fault_rule(std::move(r));
}

std::string apiserver::impl::add_fault_rule(fault_rule r) {
  std::lock_guard lock(faults_mu_);
  if (r.id.empty()) r.id = fmt::format("fault-{}", next_fault_id_++);
  fault_state_.erase(r.id);
  arm_if_due_locked(r);
  for (auto& f : faults_)
    if (f.id == r.id) {
      f = r;
      fired_[r.id] = 0;
      return r.id;
    }
  fired_[r.id] = 0;
  counters_.by_rule.emplace(r.id, 0);
  faults_.push_back(r);
  return r.id;
}

}  // namespace c5c3::sim
