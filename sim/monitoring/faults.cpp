#include "sim/monitoring/faults.hpp"

#include "k8s/time.hpp"
#include "k8s/yaml.hpp"

#include <stdexcept>

namespace c5c3::sim::monitoring {

fault_rule fault_from_json(const k8s::json_value& v) {
  if (!v.IsObject()) throw std::runtime_error("a fault rule must be an object");
  static const char* known[] = {"id", "method", "path", "status", "message", "latency", "reset", "times"};
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    bool ok = false;
    for (auto* k : known) ok |= k8s::as_string_view(it->name) == k;
    if (!ok) throw std::runtime_error("unknown fault rule field: " + std::string(k8s::as_string_view(it->name)));
  }
  fault_rule r;
  r.id = k8s::get_string(v, {"id"});
  r.method = k8s::get_string(v, {"method"});
  r.path = k8s::get_string(v, {"path"});
  r.status = static_cast<int>(k8s::get_int(v, {"status"}).value_or(0));
  r.message = k8s::get_string(v, {"message"});
  if (const auto* l = k8s::member(v, "latency")) {
    if (l->IsString()) {
      auto d = k8s::parse_go_duration(k8s::as_string_view(*l));
      if (!d) throw std::runtime_error("invalid latency: " + std::string(k8s::as_string_view(*l)));
      r.latency = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    } else if (l->IsInt64()) {
      r.latency = std::chrono::milliseconds(l->GetInt64());
    } else {
      throw std::runtime_error("invalid latency");
    }
  }
  r.reset = k8s::get_bool(v, {"reset"}).value_or(false);
  r.times = static_cast<int>(k8s::get_int(v, {"times"}).value_or(-1));
  if (r.status == 0 && !r.reset && r.latency.count() == 0)
    throw std::runtime_error("a fault rule needs status, reset or latency");
  return r;
}

k8s::json_value fault_to_json(const fault_rule& r, k8s::json_allocator& a) {
  k8s::json_value v(rapidjson::kObjectType);
  auto str = [&](const char* k, const std::string& s) {
    if (!s.empty()) v.AddMember(k8s::json_value(k, a), k8s::make_string(s, a), a);
  };
  str("id", r.id);
  str("method", r.method);
  str("path", r.path);
  if (r.status) v.AddMember("status", r.status, a);
  str("message", r.message);
  if (r.latency.count() > 0) str("latency", k8s::format_go_duration(r.latency));
  if (r.reset) v.AddMember("reset", true, a);
  if (r.times >= 0) v.AddMember("times", r.times, a);
  return v;
}

std::vector<fault_rule> faults_from_text(std::string_view text) {
  std::string err;
  auto docs = k8s::yaml_documents_to_json(text, &err);
  if (!docs) throw std::runtime_error("faults: " + err);
  std::vector<fault_rule> out;
  for (auto& d : *docs) {
    const k8s::json_value* list = d.IsArray() ? &d : k8s::member(d, "rules");
    if (list && list->IsArray())
      for (auto& item : list->GetArray()) out.push_back(fault_from_json(item));
    else
      out.push_back(fault_from_json(d));
  }
  return out;
}

std::string fault_list::add(fault_rule r) {
  std::lock_guard lock(mu_);
  if (r.id.empty()) r.id = "fault-" + std::to_string(next_++);
  for (auto& x : rules_)
    if (x.id == r.id) {
      x = r;
      return r.id;
    }
  rules_.push_back(r);
  return r.id;
}

bool fault_list::remove(const std::string& id) {
  std::lock_guard lock(mu_);
  for (auto it = rules_.begin(); it != rules_.end(); ++it)
    if (it->id == id) {
      rules_.erase(it);
      return true;
    }
  return false;
}

void fault_list::clear() {
  std::lock_guard lock(mu_);
  rules_.clear();
}

std::vector<fault_rule> fault_list::rules() const {
  std::lock_guard lock(mu_);
  return rules_;
}

std::map<std::string, int> fault_list::fired() const {
  std::lock_guard lock(mu_);
  return fired_;
}

std::optional<fault_rule> fault_list::match(std::string_view method, std::string_view path) {
  std::lock_guard lock(mu_);
  for (auto& r : rules_) {
    if (!r.method.empty() && r.method != method) continue;
    if (!r.path.empty() && path.substr(0, r.path.size()) != r.path) continue;
    int& n = fired_[r.id];
    if (r.times >= 0 && n >= r.times) continue;
    ++n;
    return r;
  }
  return std::nullopt;
}

}  // namespace c5c3::sim::monitoring
