// An informer: list then watch one kind (optionally in one namespace, with
// selectors), a local store keyed by namespace/name, add/update/delete
// callbacks, periodic resync, has_synced. The watch resumes from the last
// resourceVersion seen (bookmarks included) after a clean end or a cut
// stream; on 410 Gone it lists again and turns the difference into events,
// so no event is lost or delivered twice. A watch that ends cleanly without
// a single event within min_watch_duration counts as a failure (client-go's
// "very short watch"): on_error hears it and the next watch waits for the
// backoff, so a server that ends every watch at once is not asked in a
// tight loop. Callbacks run one at a time, in
// order, on an io_context thread; the store may be read from any thread.
// Without a store (keep_store false) the informer passes lists and watch
// events on as they come and keeps only the resourceVersion to resume from.
#pragma once

#include "k8s/client/client.hpp"
#include "k8s/object_map.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace c5c3::k8s {

struct informer_handlers {
  std::function<void(const object&)> on_add;
  std::function<void(const object& old_obj, const object& new_obj)> on_update;
  // The last state known (after a relist: the state before it vanished).
  std::function<void(const object&)> on_delete;
  // Each list or relist finished (the store now matches the server).
  std::function<void()> on_synced;
  // A list or watch failed; the informer retries with backoff.
  std::function<void(const api_error&)> on_error;
  // Without a store (informer_options::keep_store false) the handlers' owner
  // keeps the objects: it hears each list or relist whole (then on_synced),
  // each watched ADDED or MODIFIED object as it comes (telling an addition
  // from an update, and a replay of a version it has from news, is its
  // part), and each DELETED one through on_delete.
  std::function<void(std::vector<object>)> on_list;
  std::function<void(const object&)> on_upsert;
};

// `o` without metadata.managedFields (the same object when it has none): the
// usual informer transform, as controller-runtime strips them from its caches.
// Server-side apply writes do not need them, and on SSA-written objects they
// are often the larger part of the document.
object strip_managed_fields(const object& o);

struct informer_options {
  std::string namespace_;  // "" : all namespaces (or a cluster-scoped kind)
  std::string label_selector;
  std::string field_selector;
  std::chrono::milliseconds resync{0};  // 0: no resync; else on_update(obj, obj) for every object
  std::chrono::milliseconds initial_backoff{200};
  std::chrono::milliseconds max_backoff{30'000};
  // Asked of the server per watch (it ends the watch then; the informer resumes).
  int watch_timeout_seconds = 300;
  // A clean end without any event sooner than this is a "very short watch".
  std::chrono::milliseconds min_watch_duration{1000};
  // Applied to every listed and watched object before it is stored or handed
  // to a handler (client-go's cache TransformFunc), e.g. strip_managed_fields.
  std::function<object(const object&)> transform;
  // false: no store here (get, list and size answer nothing; no resync),
  // the handlers' owner keeps one (on_list, on_upsert, on_delete), so an
  // object is held once, not twice.
  bool keep_store = true;
};

// What a list changed against what its reader knew (by key, resourceVersions
// compared for equality), each in key order: a watch would have told the
// deletions, then the additions, then the updates (old, new).
struct list_difference {
  std::vector<object> deleted;
  std::vector<object> added;
  std::vector<std::pair<object, object>> updated;
};
// `known` may hold objects in another form (packed: the cluster actor's
// caches); `unpack` gives the object of one of its values.
template <class Known, class Unpack>
list_difference diff_list(const basic_object_map<Known>& known, const object_map& listed, Unpack&& unpack) {
  list_difference d;
  walk_together(known, listed, [&](const Known* was, const object* now) {
    if (!now)
      d.deleted.push_back(unpack(*was));
    else if (!was)
      d.added.push_back(*now);
    else if (was->resource_version() != now->resource_version())
      d.updated.emplace_back(unpack(*was), *now);
  });
  return d;
}
inline list_difference diff_list(const object_map& known, const object_map& listed) {
  return diff_list(known, listed, [](const object& o) { return o; });
}

class informer : public std::enable_shared_from_this<informer> {
 public:
  static std::shared_ptr<informer> create(std::shared_ptr<client> c, gvk kind, informer_options opts,
                                          informer_handlers handlers);
  ~informer();

  void start();
  // Ends the watch and timers; no callback runs after the stop completes on
  // the io threads (callbacks already running finish).
  void stop();

  bool has_synced() const { return synced_.load(); }
  std::optional<object> get(std::string_view ns, std::string_view name) const;
  std::vector<object> list() const;
  std::size_t size() const;
  std::string last_resource_version() const;
  const gvk& kind() const { return kind_; }

  // Counters (tests, metrics): lists done, watches opened.
  std::uint64_t lists() const { return lists_.load(); }
  std::uint64_t watches() const { return watches_.load(); }
  // Watches that ended at once without an event (each waited for the backoff).
  std::uint64_t short_watches() const { return short_watches_.load(); }

  struct impl;

 private:
  informer(std::shared_ptr<client> c, gvk kind, informer_options opts, informer_handlers handlers);
  void run_list();
  void run_watch();
  void on_list(result<object_list> r);
  void store_list(object_list l);
  void on_event(const watch_event& ev);
  void on_watch_end(result<bool> r);
  void retry_later(const api_error& e, bool relist);
  void resync();

  std::shared_ptr<client> client_;
  gvk kind_;
  informer_options opts_;
  informer_handlers handlers_;
  std::shared_ptr<impl> impl_;  // strand and timers
  mutable std::shared_mutex store_mu_;
  object_map store_;
  std::string rv_;  // guarded by store_mu_
  std::shared_ptr<watch_handle> watch_;
  std::atomic<bool> synced_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<std::uint64_t> lists_{0};
  std::atomic<std::uint64_t> watches_{0};
  std::atomic<std::uint64_t> short_watches_{0};
  // Of the current watch (on the strand): when it opened, events it delivered.
  std::chrono::steady_clock::time_point watch_opened_;
  std::uint64_t watch_events_ = 0;
  std::uint64_t generation_ = 0;  // of the current watch; stale callbacks are dropped
  int failures_ = 0;
};

}  // namespace c5c3::k8s
