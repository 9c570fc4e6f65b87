#include "actors/runtime/order_log.hpp"

#include <fmt/format.h>

#include <random>

namespace c5c3::runtime {

bool change_memory::changed(const std::string& topic, std::string_view text) {
  auto [it, inserted] = last_.try_emplace(topic, text);
  if (inserted) return true;
  if (it->second == text) return false;
  it->second.assign(text);
  return true;
}

bool change_memory::forget(const std::string& topic) { return last_.erase(topic) != 0; }

bool log_once(change_memory& memory, const k8s::log::logger& log, k8s::log::level lvl, const std::string& topic,
              std::string_view msg, std::string_view text, const k8s::log::fields& f) {
  bool changed = memory.changed(topic, text);
  if (!changed && !log.v_enabled(2)) return false;
  auto with_error = f;
  with_error.push_back({"error", std::string(text)});
  if (!changed) {
    log.v(2).info(msg, with_error);
    return false;
  }
  switch (lvl) {
    case k8s::log::level::error: log.error(msg, text, f); break;
    case k8s::log::level::warn: log.warn(msg, with_error); break;
    case k8s::log::level::info: log.info(msg, with_error); break;
    case k8s::log::level::debug: log.v(1).info(msg, with_error); break;
  }
  return true;
}

bool log_recovered(change_memory& memory, const k8s::log::logger& log, const std::string& topic,
                   std::string_view msg, const k8s::log::fields& f) {
  if (!memory.forget(topic)) return false;
  log.info(msg, f);
  return true;
}

std::string new_reconcile_id() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uint64_t hi = rng(), lo = rng();
  hi = (hi & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000004000ull;  // version 4
  lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48,
                     lo & 0xFFFFFFFFFFFFull);
}

namespace {
const std::string pass_topic = "pass";
const std::string cluster_topic = "cluster";

std::string write_topic(std::string_view verb, const k8s::log::object_ref& o) {
  return fmt::format("write {} {} {}/{}", verb, o.kind, o.namespace_, o.name);
}
}  // namespace

order_log::order_log(const k8s::log::logger& controller_log, const protocol::order_key& key)
    : base_(controller_log.with({{"namespace", key.namespace_}, {"name", key.name}, {"cluster", key.cluster}})),
      pass_(base_) {}

void order_log::begin(std::string reconcile_id) {
  reconcile_id_ = std::move(reconcile_id);
  pass_ = base_.with({{"reconcileID", reconcile_id_}});
  pass_.v(4).info("Reconciling");
}

void order_log::pass_error(std::string_view text) {
  log_once(memory_, pass_, k8s::log::level::error, pass_topic, "Reconciler error", text);
}

void order_log::pass_ok() {
  if (!log_recovered(memory_, pass_, pass_topic, "Reconciler recovered")) pass_.v(4).info("Reconciled");
}

void order_log::write_refused(std::string_view verb, const k8s::log::object_ref& object,
                              std::string_view error_text) {
  log_once(memory_, pass_, k8s::log::level::warn, write_topic(verb, object), "Write refused", error_text,
           {{"verb", std::string(verb)}, {"object", object}});
}

void order_log::write_accepted(std::string_view verb, const k8s::log::object_ref& object) {
  memory_.forget(write_topic(verb, object));
}

void order_log::cluster_unreachable(std::string_view error_text) {
  log_once(memory_, pass_, k8s::log::level::warn, cluster_topic, "Cluster unreachable", error_text);
}

void order_log::cluster_reachable() { log_recovered(memory_, pass_, cluster_topic, "Cluster reachable again"); }

bool order_log::once(const std::string& topic, k8s::log::level lvl, std::string_view msg, std::string_view text,
                     const k8s::log::fields& f) {
  return log_once(memory_, pass_, lvl, topic, msg, text, f);
}

}  // namespace c5c3::runtime
