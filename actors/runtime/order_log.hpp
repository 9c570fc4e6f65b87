// Logging once per change, with klog-style keys (README.md "Logging").
//
// Errors that repeat every pass (a refused write, an unreachable cluster, an
// informer that cannot list) are logged when they change, not at every
// retry: the first occurrence of a text under a topic at its level, a repeat
// at V(2) (so -v 2 shows every one), and the recovery once at info.
//
//   runtime::order_log log(ctx.log, key);          // one per order actor
//   log.begin();                                   // a pass starts: new reconcileID
//   log.write_refused("apply", k8s::log::ref(secret), err.describe());
//   log.pass_error(result.error);                  // or log.pass_ok();
//
// Keys of every line: controller (from the logger), namespace, name,
// cluster ("" = the management cluster), reconcileID (once begin() ran).
// Texts are logged as given: callers pass error descriptions, never object
// contents (k8s::api_error::describe() carries no secret values).
#pragma once

#include "k8s/log.hpp"
#include "protocol/order.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace c5c3::runtime {

// What was last logged under each topic.
class change_memory {
 public:
  // True when `text` differs from what `topic` last held (or it held
  // nothing); remembers it either way.
  bool changed(const std::string& topic, std::string_view text);
  // Forgets `topic`; true when it held something (a recovery to report).
  bool forget(const std::string& topic);
  bool holds(const std::string& topic) const { return last_.count(topic) != 0; }
  std::size_t size() const { return last_.size(); }

 private:
  std::map<std::string, std::string> last_;
};

// Logs `msg` with `text` as its error at `lvl` when `text` changed under
// `topic`, else at V(2) (debug). Returns whether it was a change.
bool log_once(change_memory& memory, const k8s::log::logger& log, k8s::log::level lvl, const std::string& topic,
              std::string_view msg, std::string_view text, const k8s::log::fields& f = {});
// `topic` recovered: logs `msg` at info once (when it held an error) and forgets it.
bool log_recovered(change_memory& memory, const k8s::log::logger& log, const std::string& topic,
                   std::string_view msg, const k8s::log::fields& f = {});

// A fresh reconcileID: a random UUID (version 4), as controller-runtime
// gives each reconcile one.
std::string new_reconcile_id();

class order_log {
 public:
  // `controller_log` carries the "controller" key (kind_context::log).
  order_log(const k8s::log::logger& controller_log, const protocol::order_key& key);

  // A pass starts: a new reconcileID on every line until the next begin();
  // "Reconciling" at V(4).
  void begin(std::string reconcile_id = new_reconcile_id());
  const std::string& reconcile_id() const { return reconcile_id_; }

  // The pass failed: "Reconciler error" at error level once per change of
  // the text, at V(2) when it repeats.
  void pass_error(std::string_view text);
  // The pass succeeded: "Reconciled" at V(4); after a failure
  // "Reconciler recovered" at info, once.
  void pass_ok();

  // A write the server refused (403 Forbidden, 422 Invalid, ...): "Write
  // refused" at warn with verb and object, once per change per (verb,
  // object). write_accepted() forgets it (the next refusal logs again).
  void write_refused(std::string_view verb, const k8s::log::object_ref& object, std::string_view error_text);
  void write_accepted(std::string_view verb, const k8s::log::object_ref& object);

  // The order's cluster cannot be reached: "Cluster unreachable" at warn,
  // once per change; cluster_reachable() logs the recovery at info, once.
  void cluster_unreachable(std::string_view error_text);
  void cluster_reachable();

  // Any other topic, once per change at `lvl`; forget(topic) re-arms it.
  bool once(const std::string& topic, k8s::log::level lvl, std::string_view msg, std::string_view text,
            const k8s::log::fields& f = {});
  bool forget(const std::string& topic) { return memory_.forget(topic); }

  // Detail lines with every key: log().v(3).info("...").
  const k8s::log::logger& log() const { return pass_; }
  const change_memory& memory() const { return memory_; }

 private:
  k8s::log::logger base_;  // controller, namespace, name, cluster
  k8s::log::logger pass_;  // and reconcileID
  std::string reconcile_id_;
  change_memory memory_;
};

}  // namespace c5c3::runtime
