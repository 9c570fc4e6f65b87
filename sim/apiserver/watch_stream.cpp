// Watch streams: initial events or a resume from the history, bookmarks,
// cut and expired streams, and the stream rules (hold, coalesce, expire) of
// stream_faults.cpp.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/events.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <optional>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;

namespace {

bool contains(std::string_view h, std::string_view what) { return h.find(what) != std::string_view::npos; }

}  // namespace

void apiserver::impl::serve_watch(const k8s::http_request& req, k8s::http_responder& res,
                                  const request_info& ri, int cut_after, bool expire_resume) {
  const auto& r = *ri.kind;
  auto filter = parse_filter(req, ri);
  std::string rvp = req.param("resourceVersion").value_or("");
  auto is_true = [&](const char* name) {
    auto v = req.param(name).value_or("");
    return v == "1" || v == "t" || v == "T" || v == "true" || v == "TRUE" || v == "True";
  };
  bool bookmarks = is_true("allowWatchBookmarks");
  bool initial_events = is_true("sendInitialEvents");
  std::string include = req.param("includeObject").value_or("");
  bool table = contains(req.header("Accept"), "as=Table");
  if (!table) check_acceptable(req.header("Accept"));
  if (initial_events && (req.param("resourceVersionMatch").value_or("") != "NotOlderThan"))
    fail(k8s::make_invalid("meta.k8s.io", "ListOptions", "",
                           {{"FieldValueForbidden",
                             "Forbidden: sendInitialEvents is forbidden for watch unless the "
                             "WatchList feature gate is enabled",
                             "sendInitialEvents"}}));
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (auto ts = req.param("timeoutSeconds"); ts && !ts->empty()) {
    auto v = parse_rv(*ts);
    if (!v) fail(k8s::make_bad_request(fmt::format("invalid timeoutSeconds: {}", *ts)));
    deadline = std::chrono::steady_clock::now() + std::chrono::seconds(*v);
  }
  auto render = [&](const k8s::object& o) -> json_document {
    auto c = convert_for(o, r);
    if (table) return table_of(r, c, include);
    return k8s::copy_document(c.json());
  };
  auto bookmark = [&](std::int64_t rv, bool initial_end) {
    json_document d;
    d.SetObject();
    auto& a = d.GetAllocator();
    d.AddMember("kind", k8s::make_string(r.kind, a), a);
    d.AddMember("apiVersion", k8s::make_string(r.api_version(), a), a);
    json_value md(rapidjson::kObjectType);
    md.AddMember("resourceVersion", k8s::make_string(std::to_string(rv), a), a);
    if (initial_end) {
      json_value ann(rapidjson::kObjectType);
      ann.AddMember("k8s.io/initial-events-end", "true", a);
      md.AddMember("annotations", std::move(ann), a);
    }
    d.AddMember("metadata", std::move(md), a);
    return event_line("BOOKMARK", d);
  };
  std::string first;  // initial events
  std::int64_t pos = 0;
  bool expired = false;
  std::string expired_msg;
  {
    std::lock_guard lock(mu_);
    auto& sr = resource_locked(r);
    if (rvp.empty() || rvp == "0" || initial_events) {
      if (!rvp.empty() && rvp != "0" && initial_events) {
        auto n = parse_rv(rvp);
        if (!n) fail(invalid_rv(rvp));
      }
      for (auto& [k, o] : sr.objects)
        if (filter.matches(o)) first += event_line("ADDED", render(o));
      pos = rv_;
      if (initial_events) first += bookmark(rv_, true);
    } else {
      auto n = parse_rv(rvp);
      if (!n) fail(invalid_rv(rvp));
      pos = *n;
      if (expire_resume || *n < evicted_rv_) {
        expired = true;
        expired_msg = fmt::format("too old resource version: {} ({})", *n, evicted_rv_ + 1);
      }
    }
  }
  if (!res.start_stream(200, {{"Content-Type", "application/json"},
                              {"Cache-Control", "no-cache, private"}}))
    return;
  if (expired) {
    res.write(event_line("ERROR", k8s::make_status_body(k8s::make_expired(expired_msg))));
    res.end_stream();
    return;
  }
  int sent = 0;
  if (!first.empty() && !res.write(first)) return;
  const auto stream = open_stream();
  // Events taken from the history and not sent yet: stream rules
  // (stream_faults.cpp) hold them back or coalesce them.
  struct pending_event {
    std::string type, namespace_, name, line;
    k8s::object obj;
    std::int64_t rv = 0;
    std::optional<std::chrono::steady_clock::time_point> withheld_since;
  };
  std::deque<pending_event> pending;
  std::int64_t passed_over = 0;  // a withheld event sent after all (no successor came)
  auto last_write = std::chrono::steady_clock::now();
  const auto qualified = storage_resource(r);
  std::condition_variable* wake = nullptr;
  {
    std::lock_guard lock(mu_);
    wake = &watch_wakes_[qualified];  // never erased: a node per resource ever watched
  }
  while (true) {
    bool too_slow = false;
    std::size_t rendered = pending.size();  // events from here on are rendered after the lock
    {
      std::unique_lock lock(mu_);
      wake->wait_for(lock, std::chrono::milliseconds(200),
                     [&] { return stopping_ || (!history_.empty() && history_.back().rv > pos); });
      if (stopping_) break;
      if (pos < evicted_rv_) too_slow = true;
      int taken = 0;
      // The history is in resourceVersion order: the first event after `pos`
      // is found, not scanned for (a scan per wake-up of every watch cost the
      // whole history each time once it held 100,000 events).
      auto first = std::upper_bound(history_.begin(), history_.end(), pos,
                                    [](std::int64_t p, const watch_event& ev) { return p < ev.rv; });
      for (auto it = first; it != history_.end(); ++it) {
        const auto& ev = *it;
        if (cut_after >= 0 && sent + static_cast<int>(pending.size()) >= cut_after) break;
        pos = ev.rv;
        if (ev.qualified != qualified) continue;
        auto seen = as_seen_through(ev, filter);
        if (!seen) continue;
        pending.push_back({seen->first, std::string(seen->second.namespace_()), std::string(seen->second.name()),
                           {}, seen->second, ev.rv, std::nullopt});
        ++taken;
      }
      if (!too_slow && taken == 0 && !history_.empty() && pos < history_.back().rv &&
          !(cut_after >= 0 && sent + static_cast<int>(pending.size()) >= cut_after))
        pos = history_.back().rv;
    }
    // Rendered outside the store's lock: the objects are frozen documents.
    for (auto i = rendered; i < pending.size(); ++i)
      pending[i].line = event_line(pending[i].type, render(pending[i].obj));
    if (too_slow) {
      res.write(event_line("ERROR", k8s::make_status_body(k8s::make_expired(
                                        fmt::format("too old resource version: {} ({})", pos,
                                                    evicted_rv_ + 1)))));
      break;
    }
    auto fx = stream_faults(ri, req, stream);
    if (fx.expire) {
      res.write(event_line("ERROR", k8s::make_status_body(k8s::make_expired(
                                        fmt::format("too old resource version: {} ({})", pos, pos + 1)))));
      break;
    }
    auto now = std::chrono::steady_clock::now();
    std::string out;
    int count = 0;
    while (pending.size() > static_cast<std::size_t>(fx.hold)) {
      auto& e = pending.front();
      if (!fx.coalesce_rule.empty() && e.type == "MODIFIED" && e.rv != passed_over &&
          (fx.coalesce_namespace.empty() || fx.coalesce_namespace == e.namespace_) &&
          (fx.coalesce_name.empty() || fx.coalesce_name == e.name)) {
        bool successor = std::any_of(pending.begin() + 1, pending.end(), [&](const pending_event& n) {
          return n.namespace_ == e.namespace_ && n.name == e.name;
        });
        if (successor) {
          if (!coalesced(fx.coalesce_rule)) fx.coalesce_rule.clear();
          pending.pop_front();
          continue;
        }
        if (!e.withheld_since) e.withheld_since = now;
        if (now - *e.withheld_since < fx.coalesce_wait) break;  // withheld, and the stream with it
        passed_over = e.rv;
      }
      out += e.line;
      log_event(ri, e.type, e.obj);
      ++count;
      pending.pop_front();
    }
    if (!out.empty()) {
      if (!res.write(out)) return;
      sent += count;
      last_write = now;
    } else if (bookmarks && pending.empty() && now - last_write > std::chrono::seconds(1)) {
      // Not past an event written since the history was read: the next
      // round sends it, and the bookmark waits.
      std::optional<std::int64_t> rv;
      {
        std::lock_guard lock(mu_);
        if (history_.empty() || history_.back().rv <= pos) rv = pos = std::max(pos, rv_);
      }
      if (rv) {
        if (!res.write(bookmark(*rv, false))) return;
        last_write = now;
      }
    }
    if (cut_after >= 0 && sent >= cut_after) break;
    if (deadline && now >= *deadline) break;
    if (!res.peer_alive()) return;
  }
  res.end_stream();
}

}  // namespace c5c3::sim
