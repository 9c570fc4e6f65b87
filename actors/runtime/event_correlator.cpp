#include "actors/runtime/event_correlator.hpp"

#include "k8s/json.hpp"

#include <fmt/format.h>

namespace c5c3::runtime {

namespace {

std::string truncated(std::string_view message) {
  if (message.size() <= event_message_limit) return std::string(message);
  auto cut = event_message_limit - 3;
  while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return std::string(message.substr(0, cut)) + "...";
}

}  // namespace

involved_object involved_of(const k8s::object& o) {
  return {std::string(o.api_version()), std::string(o.kind()),     std::string(o.namespace_()),
          std::string(o.name()),        std::string(o.uid()),      std::string(o.resource_version())};
}

event_correlator::event_correlator(std::string component, std::size_t capacity)
    : component_(std::move(component)), capacity_(capacity == 0 ? 1 : capacity) {}

event_correlator::key event_correlator::key_of(const involved_object& who, const event_record& what) const {
  return {component_, who.kind + "/" + who.api_version, who.namespace_, who.name + "/" + who.uid,
          what.type, what.reason, truncated(what.message)};
}

event_write event_correlator::create(const key& k, const involved_object& who, const event_record& what,
                                     k8s::time_point now, std::int64_t count, std::string first) {
  const auto stamp = k8s::format_rfc3339(now);
  if (first.empty()) first = stamp;
  event_write w;
  w.create = true;
  w.namespace_ = who.namespace_.empty() ? "default" : who.namespace_;
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  w.name = fmt::format("{}.{:x}", who.name, static_cast<std::uint64_t>(nanos));
  w.count = count;
  k8s::object_builder b("v1", "Event", w.namespace_, w.name);
  b.set_string({"involvedObject", "kind"}, who.kind);
  if (!who.namespace_.empty()) b.set_string({"involvedObject", "namespace"}, who.namespace_);
  b.set_string({"involvedObject", "name"}, who.name);
  if (!who.uid.empty()) b.set_string({"involvedObject", "uid"}, who.uid);
  b.set_string({"involvedObject", "apiVersion"}, who.api_version);
  if (!who.resource_version.empty()) b.set_string({"involvedObject", "resourceVersion"}, who.resource_version);
  b.set_string({"reason"}, what.reason);
  b.set_string({"message"}, truncated(what.message));
  b.set_string({"source", "component"}, component_);
  b.set_string({"firstTimestamp"}, first);
  b.set_string({"lastTimestamp"}, stamp);
  b.set_int({"count"}, count);
  b.set_string({"type"}, what.type);
  b.set_string({"reportingComponent"}, component_);
  b.set_string({"reportingInstance"}, "");
  w.event = std::move(b).freeze();

  ages_.push_back(k);
  auto& e = entries_[k];
  if (e.count) ages_.erase(e.age);
  e = entry{w.namespace_, w.name, count, first, std::prev(ages_.end())};
  while (entries_.size() > capacity_) {
    entries_.erase(ages_.front());
    ages_.pop_front();
  }
  return w;
}

event_write event_correlator::observe(const involved_object& who, const event_record& what, k8s::time_point now) {
  auto k = key_of(who, what);
  auto it = entries_.find(k);
  if (it == entries_.end()) return create(k, who, what, now, 1, {});
  auto& e = it->second;
  ++e.count;
  ages_.splice(ages_.end(), ages_, e.age);  // the newest now
  event_write w;
  w.create = false;
  w.namespace_ = e.namespace_;
  w.name = e.name;
  w.count = e.count;
  k8s::object_builder b;
  b.set_int({"count"}, e.count);
  b.set_string({"lastTimestamp"}, k8s::format_rfc3339(now));
  b.set_string({"message"}, truncated(what.message));
  w.patch = std::move(b).freeze().to_json();
  return w;
}

event_write event_correlator::recreate(const involved_object& who, const event_record& what, k8s::time_point now) {
  auto k = key_of(who, what);
  auto it = entries_.find(k);
  std::int64_t count = it == entries_.end() ? 1 : it->second.count;
  std::string first = it == entries_.end() ? std::string() : it->second.first;
  return create(k, who, what, now, count, first);
}

}  // namespace c5c3::runtime
