// The state of fault rules (after_writes, arming), the stream rules open
// watch streams consult before they send (hold, coalesce, expire), and the
// log of the events watch streams delivered.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/faults_codec.hpp"

#include <algorithm>

namespace c5c3::sim {

namespace {

bool stream_rule(const fault_rule& f) { return f.hold_watch_events >= 0 || f.coalesce_modified || f.expire_watches; }

bool exhausted(const fault_rule& f, const std::map<std::string, int>& fired) {
  if (f.times < 0) return false;
  auto it = fired.find(f.id);
  return it != fired.end() && it->second >= f.times;
}

}  // namespace

bool apiserver::impl::armed_locked(const fault_rule& f) const {
  if (f.after_writes <= 0) return true;
  auto it = fault_state_.find(f.id);
  return it != fault_state_.end() && it->second.armed;
}

void apiserver::impl::arm_if_due_locked(const fault_rule& f) {
  auto& st = fault_state_[f.id];
  if (st.armed || st.writes < f.after_writes) return;
  st.armed = true;
  st.armed_at_stream = next_stream_;
}

double apiserver::impl::draw_locked() { return std::uniform_real_distribution<double>(0.0, 1.0)(fault_rng_); }

void apiserver::impl::count_write_for_faults(const request_info& ri, const std::string& verb,
                                             const k8s::http_request& req, const identity& who) {
  const auto resource = ri.resource();
  std::lock_guard lock(faults_mu_);
  for (const auto& f : faults_) {
    if (f.after_writes <= 0) continue;
    if (!f.client.empty() && !client_matches(f.client, req.header("User-Agent"), who.user, who.token)) continue;
    const auto& of = f.after_writes_of;
    auto is = [](const std::string& want, const std::string& got) { return want.empty() || want == got; };
    if (!is(of.verb, verb) || !is(of.group, ri.group) || !is(of.resource, resource) || !is(of.namespace_, ri.namespace_) ||
        !is(of.name, ri.name))
      continue;
    ++fault_state_[f.id].writes;
    arm_if_due_locked(f);
  }
}

bool apiserver::impl::remove_fault_rule(const std::string& id) {
  std::lock_guard lock(faults_mu_);
  auto n = faults_.size();
  faults_.erase(std::remove_if(faults_.begin(), faults_.end(), [&](const fault_rule& f) { return f.id == id; }),
                faults_.end());
  fault_state_.erase(id);
  return faults_.size() != n;
}

void apiserver::impl::clear_fault_rules() {
  std::lock_guard lock(faults_mu_);
  faults_.clear();
  fault_state_.clear();
}

std::uint64_t apiserver::impl::open_stream() {
  std::lock_guard lock(faults_mu_);
  return next_stream_++;
}

stream_effects apiserver::impl::stream_faults(const request_info& ri, const k8s::http_request& req,
                                              std::uint64_t stream) {
  stream_effects out;
  std::lock_guard lock(faults_mu_);
  for (const auto& f : faults_) {
    if (!stream_rule(f) || !armed_locked(f)) continue;
    // A hold lasts while the rule is listed; the others fire `times` times.
    if (f.hold_watch_events < 0 && exhausted(f, fired_)) continue;
    // The stream is matched by verb, resource and client; namespace and name
    // pick the events a coalescing rule withholds.
    fault_rule by_stream = f;
    by_stream.namespace_.clear();
    by_stream.name.clear();
    if (!fault_matches(by_stream, ri, req.header("User-Agent"), ri.who ? ri.who->user : "",
                       ri.who ? ri.who->token : ""))
      continue;
    auto& st = fault_state_[f.id];
    auto fire_once = [&] {
      if (!st.streams.insert(stream).second) return false;
      ++fired_[f.id];
      ++counters_.by_rule[f.id];
      ++counters_.total;
      return true;
    };
    if (f.expire_watches) {
      if (stream < st.armed_at_stream && fire_once()) out.expire = true;
      continue;
    }
    if (f.hold_watch_events >= 0) {
      // Counted once per stream it holds.
      fire_once();
      out.hold = std::max(out.hold, f.hold_watch_events);
      continue;
    }
    if (f.coalesce_modified && out.coalesce_rule.empty()) {
      out.coalesce_rule = f.id;
      out.coalesce_namespace = f.namespace_;
      out.coalesce_name = f.name;
      out.coalesce_wait = f.latency.count() > 0 ? f.latency : std::chrono::milliseconds(1000);
    }
  }
  return out;
}

bool apiserver::impl::coalesced(const std::string& rule_id) {
  std::lock_guard lock(faults_mu_);
  auto n = ++fired_[rule_id];
  ++counters_.by_rule[rule_id];
  ++counters_.total;
  auto it = std::find_if(faults_.begin(), faults_.end(), [&](const fault_rule& f) { return f.id == rule_id; });
  return it != faults_.end() && (it->times < 0 || n < it->times);
}

void apiserver::impl::log_event(const request_info& ri, const std::string& type, const k8s::object& o) {
  if (!opts_.watch_log) return;
  std::lock_guard lock(log_mu_);
  watch_record w;
  w.client = ri.who ? ri.who->user : "";
  w.group = ri.group;
  w.resource = ri.plural;
  w.type = type;
  w.namespace_ = o.namespace_();
  w.name = o.name();
  w.resource_version = o.resource_version();
  w.after_write = write_seq_;
  watch_log_.push_back(std::move(w));
}

std::vector<watch_record> apiserver::watch_log() const {
  std::lock_guard lock(impl_->log_mu_);
  return impl_->watch_log_;
}

}  // namespace c5c3::sim
