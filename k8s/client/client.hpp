// The asynchronous Kubernetes client: discovery with a cached REST mapping,
// get/list/create/update/patch/apply/delete and the status subresource, raw
// watches. Every operation returns at once; its callback runs later on one of
// the io_context's threads with the object or an api_error naming the object
// and the request. Requests are retried with backoff where safe (retry.hpp),
// optionally rate limited, authenticated through a credential_provider, and
// observed through a client_observer. A write may carry its caller's deadline
// (write_options::deadline, patch_options, delete_options): no attempt starts
// after it and the callback gets a Timeout (retry.hpp deadline_exceeded).
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/client/credentials.hpp"
#include "k8s/client/http.hpp"
#include "k8s/client/observer.hpp"
#include "k8s/client/result.hpp"
#include "k8s/client/retry.hpp"
#include "k8s/object.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::k8s {

struct client_config {
  std::string server;  // https://host:port[/prefix] or http://...
  tls_options tls;
  std::shared_ptr<credential_provider> credentials;  // null: anonymous
  std::chrono::milliseconds request_timeout{30'000};
  retry_policy retry;
  double qps = 0;  // client-side limiter, off when <= 0
  int burst = 0;
  std::shared_ptr<client_observer> observer;  // null: none
  int list_page_size = 500;
  // Requests on connections at once (watches aside); more wait their turn
  // (http.hpp). A burst (a replica's claims of a dead member's orders) so
  // reuses these connections instead of opening one per request, each with
  // its TLS handshake on both sides. 0: no bound.
  std::size_t max_connections = 32;
  std::size_t max_idle_connections = 32;
  std::string user_agent;  // "" : "c5c3-operator" (a sharded replica: "c5c3-operator/<shard name>")
  // Objects decoded from answers, lists and watch events lose
  // metadata.managedFields before they are stored (strip_managed_fields at
  // the source: no copy of them is made). For callers that never read them.
  bool drop_managed_fields = false;
};

struct list_options {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;  // "" most recent; "0" any
  int page_size = -1;            // -1: client_config::list_page_size; 0: no paging
};

struct object_list {
  std::vector<object> items;
  std::string resource_version;  // of the list (where a watch starts)
};

// The caller's deadline of a write: no attempt (the first, after the rate
// limiter's wait, after a backoff or a Retry-After) starts once it has passed,
// an attempt in flight is cut at it, and the callback gets the error of
// retry.hpp's deadline_exceeded (reason Timeout) naming the request and the
// object. Unset: the retry policy alone bounds the attempts.
using request_deadline = std::optional<std::chrono::steady_clock::time_point>;

struct write_options {
  std::string field_manager;
  bool dry_run = false;
  request_deadline deadline{};
};

enum class patch_type { merge, json, strategic_merge, apply };

struct patch_options {
  std::string field_manager;  // required for apply
  bool force = false;         // apply: take ownership of conflicting fields
  bool status = false;        // patch the status subresource
  bool dry_run = false;
  request_deadline deadline{};
};

struct delete_options {
  std::string precondition_uid;
  std::string precondition_resource_version;
  std::string propagation_policy;  // Foreground, Background, Orphan, or "" (the server's default)
  std::optional<std::int64_t> grace_period_seconds;
  bool dry_run = false;
  request_deadline deadline{};
};

struct watch_options {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;  // start after this version ("" : from now, with initial ADDED events)
  bool allow_bookmarks = true;
  std::optional<int> timeout_seconds;  // asks the server to end the watch after it
};

enum class watch_event_type { added, modified, deleted, bookmark, error };

struct watch_event {
  watch_event_type type = watch_event_type::added;
  object obj;       // the object (for bookmarks: only metadata.resourceVersion)
  api_error error;  // for error events: the Status (410 Expired when too old)
};

// An open watch; cancel() ends it (the end callback follows once).
class watch_handle {
 public:
  virtual ~watch_handle() = default;
  virtual void cancel() = 0;
};

// The "no matches for kind" error of an unserved kind (meta.NoKindMatchError).
api_error make_no_kind_match(const gvk& k);
bool is_no_kind_match(const api_error& e);

class client : public std::enable_shared_from_this<client> {
 public:
  // Fails with a message on a bad server URL or unloadable TLS material.
  static result<std::shared_ptr<client>, std::string> create(boost::asio::io_context& io,
                                                             client_config cfg);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  // host:port of the API server, as metrics label it.
  std::string host() const;

  // ---- discovery ----
  // The resource serving `k` from the cached REST mapping; on a miss the
  // group/version is discovered again (a CRD may have appeared). An unserved
  // kind answers make_no_kind_match.
  void resource_for(const gvk& k, callback<api_resource> done);
  // Every group/version the server serves (/api, /apis), mapped; refreshes the cache.
  void discover(callback<std::vector<api_resource>> done);
  // What the cache holds for `k` without asking the server.
  std::optional<api_resource> cached_resource(const gvk& k) const;

  // ---- operations ----
  void get(const gvk& k, std::string ns, std::string name, callback<object> done);
  // All pages (continue tokens followed), items carrying apiVersion and kind.
  void list(const gvk& k, std::string ns, list_options opts, callback<object_list> done);
  void create(object obj, write_options opts, callback<object> done);
  // PUT; the object's resourceVersion is the precondition (409 Conflict when stale).
  void update(object obj, write_options opts, callback<object> done);
  void update_status(object obj, write_options opts, callback<object> done);
  // PATCH with a body of `type` (merge: application/merge-patch+json, json:
  // application/json-patch+json, apply: application/apply-patch+yaml).
  void patch(const gvk& k, std::string ns, std::string name, patch_type type, std::string body,
             patch_options opts, callback<object> done);
  // Server-side apply of `obj` (its apiVersion, kind and the fields this manager owns).
  void apply(object obj, patch_options opts, callback<object> done);
  // DELETE; answers the object as the server returned it (terminating with
  // finalizers, or its last state), or an empty object when the server answered a Status.
  void remove(const gvk& k, std::string ns, std::string name, delete_options opts, callback<object> done);

  // ---- watch ----
  // One watch stream (no resume: the informer resumes). on_event runs for
  // each event in order; on_end once when the stream ends: ok (value true)
  // for a clean end, or the error (HTTP or transport) that ended it.
  std::shared_ptr<watch_handle> watch(const gvk& k, std::string ns, watch_options opts,
                                      std::function<void(watch_event)> on_event,
                                      std::function<void(result<bool>)> on_end);

  // ---- raw ----
  // One request through the full pipeline (limiter, credentials, retries,
  // metrics); an HTTP status >= 400 comes back as the api_error.
  void send(rest_request req, callback<rest_response> done);
  // Requests waiting for a connection (client_config::max_connections).
  std::size_t requests_waiting() const;

  boost::asio::io_context& io() const;

  struct impl;

 private:
  explicit client(std::shared_ptr<impl> p);
  std::shared_ptr<impl> impl_;
};

}  // namespace c5c3::k8s
