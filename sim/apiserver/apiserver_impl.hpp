// Internals of the API server emulator, shared by its translation units.
// One mutex guards the whole state; watch streams wait on one condition.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/object.hpp"
#include "k8s/selector.hpp"
#include "k8s/server/http_server.hpp"
#include "k8s/status.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "sim/apiserver/bridges.hpp"
#include "sim/apiserver/pki.hpp"

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace c5c3::sim {

// Whole-file reads and atomic (write, rename) writes; `secret`: mode 0600.
std::string read_file(const std::filesystem::path& p);
void write_file_atomic(const std::filesystem::path& p, const std::string& text, bool secret = false);

// The non-empty '/'-separated segments of a URL path.
std::vector<std::string> split_path(std::string_view path);

struct identity {
  std::string user;
  std::vector<std::string> groups;
  std::string token;  // bearer token when authenticated by one
};

// What a resource request names (kube's RequestInfo).
struct request_info {
  std::string verb;  // get, list, watch, create, update, patch, delete, deletecollection
  std::string group, version, plural, subresource, namespace_, name;
  const k8s::api_resource* kind = nullptr;  // served kind at that group/version
  const identity* who = nullptr;  // the requester; null for the emulator's own writes (no admission)
  // "plural" or "plural/subresource", as the write log and fault rules name it.
  std::string resource() const { return subresource.empty() ? plural : plural + "/" + subresource; }
};

// A create by the emulator itself (manifests at start, bootstrap objects) of
// kind `copy`, which must outlive the request.
inline request_info own_create(const k8s::api_resource& copy, std::string namespace_ = {}) {
  request_info ri;
  ri.verb = "create";
  ri.group = copy.group;
  ri.version = copy.version;
  ri.plural = copy.plural;
  ri.kind = &copy;
  ri.namespace_ = std::move(namespace_);
  return ri;
}

struct watch_event {
  std::string type;  // ADDED, MODIFIED, DELETED
  std::string qualified;
  k8s::object obj;
  k8s::object prev;  // MODIFIED, DELETED: the object before (selector transitions, snapshots)
  std::int64_t rv = 0;
};

// Objects of one resource, stored in their storage version.
struct stored_resource {
  k8s::api_resource storage;                 // storage version facts
  std::map<k8s::object_key, k8s::object> objects;
};

// What the stream rules (fault_rule::hold_watch_events, coalesce_modified,
// expire_watches) ask of one open watch stream right now.
struct stream_effects {
  int hold = 0;  // events kept back behind the ones sent
  // A coalescing rule: its id, the events it withholds, how long at most.
  std::string coalesce_rule;
  std::string coalesce_namespace, coalesce_name;
  std::chrono::milliseconds coalesce_wait{0};
  bool expire = false;  // end the stream with 410 Expired
};

// Thrown inside handlers to answer a Status error.
struct api_failure {
  k8s::api_error err;
};

class apiserver::impl {
 public:
  explicit impl(apiserver_options o);
  ~impl();

  // ---- lifecycle (apiserver.cpp) ----
  void start();
  void stop();
  void load_pki_and_token();
  void load_token_file();
  // ---- persistence under data_dir (persistence.cpp) ----
  // state.json: a snapshot (objects, resourceVersion, CA, serving
  // certificate, token); state.log: one JSON line per change since it.
  void load_state();
  // Appends the changes since the last call to state.log, or writes a new
  // snapshot (at start, when the log outgrew the state, or when changes have
  // left the watch history unsaved) and empties the log.
  void save_state_locked();
  void write_snapshot_locked();
  void load_manifests(const std::string& dir);

  // ---- HTTP entry (routes.cpp) ----
  void handle(const k8s::http_request& req, k8s::http_responder& res);
  std::optional<identity> authenticate(const k8s::http_request& req) const;
  // Discovery and OpenAPI documents (bridges.cpp's discovery), rendered once
  // per set of served kinds.
  std::optional<discovery_answer> cached_discovery(const k8s::http_request& req);
  void serve_resource(const k8s::http_request& req, k8s::http_responder& res, request_info& ri,
                      const identity& who);
  // The request once its fault rule (if any) is known; `res` spoils hostile answers.
  void serve_matched(const k8s::http_request& req, k8s::http_responder& res, request_info& ri,
                     const identity& who, const std::optional<fault_rule>& fault);
  void serve_admin(const k8s::http_request& req, k8s::http_responder& res);
  // `warnings`: Warning header values (field validation's Warn).
  void send_object(const k8s::http_request& req, k8s::http_responder& res,
                   const k8s::api_resource& r, const k8s::object& o, int code,
                   const std::vector<std::string>& warnings = {});
  // PATCH (merge, JSON, strategic, apply); `created` when apply created it; field
  // validation's Warning header values go to `warnings`.
  // `before`: set to the stored object the patch replaced (when one did).
  k8s::object patch(const k8s::http_request& req, request_info& ri, bool dry_run, int& created,
                    std::string& verb, std::vector<std::string>& warnings, k8s::object* before = nullptr);
  void delete_collection(const k8s::http_request& req, k8s::http_responder& res,
                         const request_info& ri, bool dry_run);
  void log_write(const request_info& ri, const k8s::http_request& req, const identity& who,
                 int code, const std::string& rv, bool dry_run, const std::string& verb = {},
                 const k8s::object* written = nullptr, const k8s::object* before = nullptr);
  // A sharded replica's write for an order it does not hold (double_writers.cpp);
  // `before` the stored object the write replaced (empty: none, or not known).
  void check_double_writer(const request_info& ri, const k8s::http_request& req, const std::string& verb,
                           const k8s::object& written, const k8s::object& before);
  std::int64_t current_rv() const;

  // ---- kinds (kinds.cpp) ----
  void register_kind_locked(const k8s::api_resource& r);
  void serve_crd_locked(const k8s::object& crd);
  void unserve_crd_locked(const k8s::object& crd);
  const k8s::api_resource* find_kind_locked(std::string_view group, std::string_view version,
                                            std::string_view plural) const;
  std::vector<k8s::api_resource> served_kinds_locked() const;

  // ---- storage and semantics (store.cpp) ----
  std::int64_t next_rv_locked() { return ++rv_; }
  // `prev`: the object a MODIFIED event replaced, so that a watch whose
  // selector it enters or leaves sees ADDED or DELETED (as the watch cache does).
  void record_event_locked(std::string type, const std::string& qualified, const k8s::object& o,
                           const k8s::object* prev = nullptr);
  stored_resource& resource_locked(const k8s::api_resource& r);
  // `mf`: managedFields to record (null: the body's are kept, as after apply).
  k8s::object create_locked(const request_info& ri, k8s::json_document body, bool dry_run,
                            const write_context* mf);
  // `before`: set to the stored object the update replaces.
  k8s::object update_locked(const request_info& ri, k8s::json_document body, bool dry_run,
                            const write_context* mf, bool from_patch, k8s::object* before = nullptr);
  // Deletes (or marks terminating); returns the object as the answer shows it
  // and whether it is gone.
  std::pair<k8s::object, bool> delete_locked(const request_info& ri, const k8s::json_value* options,
                                             bool dry_run, const std::string& propagation);
  void remove_object_locked(stored_resource& sr, const k8s::object_key& key);
  // Marks `o` terminating (when it has finalizers) or removes it; true when
  // that changed anything.
  bool mark_deleted_locked(stored_resource& sr, const k8s::object& o);
  // Kind hooks after a stored write or removal (CRDs start or stop serving).
  void after_write_locked(const k8s::api_resource& r, const k8s::object* old,
                          const k8s::object& stored);
  void after_delete_locked(const k8s::api_resource& r, const k8s::object& gone);
  void after_change_locked(const k8s::api_resource& r, const k8s::object& o);
  void after_stored_locked(const k8s::api_resource& r, const k8s::object& stored);
  // The tokens controller (token_controller.cpp): fills a service-account-token Secret.
  void populate_token_secret_locked(const k8s::object& secret);
  // ---- APIServices (apiservice_sync.cpp): the local ones of the served
  // group versions (kube's autoregister), and the Available condition of the
  // service-backed ones naming that Service (all of them when `name` is empty).
  void sync_local_apiservices_locked();
  void refresh_apiservices_locked(const std::string& service_namespace, const std::string& name);
  void collect_garbage_locked();
  // The objects of `sr` as they were at resourceVersion `rv`, rebuilt from
  // the watch history; nullopt once events after `rv` have left it.
  std::optional<std::map<k8s::object_key, k8s::object>> objects_at_locked(const stored_resource& sr,
                                                                          std::int64_t rv) const;
  // The same, kept for the next pages of the list that asked (kube reads
  // etcd at that revision): rebuilt once per list, not once per page.
  // nullptr once events after `rv` have left the history.
  std::shared_ptr<const std::map<k8s::object_key, k8s::object>> snapshot_at_locked(const stored_resource& sr,
                                                                                 std::int64_t rv);
  k8s::object convert_for(const k8s::object& o, const k8s::api_resource& r) const;

  // ---- list and watch (watch.cpp) ----
  void serve_list(const k8s::http_request& req, k8s::http_responder& res, const request_info& ri);
  void serve_watch(const k8s::http_request& req, k8s::http_responder& res, const request_info& ri,
                   int cut_after_events, bool expire_resume);

  // ---- authorization, ServiceAccount tokens, admission (authorization.cpp) ----
  bool rbac_enabled() const { return opts_.authorization_mode == "RBAC"; }
  // With RBAC: 403 (kube's Status) unless `who` may make this request.
  // `verb`: authorize as that verb instead of the request's (an apply that creates: "create").
  std::optional<k8s::api_error> check_access(const k8s::http_request& req, const identity& who,
                                             const std::string& verb = {}) const;
  // The identity of a ServiceAccount token this server issued, if its
  // ServiceAccount still exists with the uid the token names.
  std::optional<identity> authenticate_service_account(std::string_view token) const;
  std::string issue_token_locked(const std::string& ns, const std::string& name, std::int64_t seconds,
                                 std::vector<std::string> audiences) const;
  // POST .../serviceaccounts/NAME/token (TokenRequest).
  void serve_token_request(const k8s::http_request& req, k8s::http_responder& res, const request_info& ri);
  // POST /apis/authentication.k8s.io/v1/selfsubjectreviews: who the requester is.
  void serve_self_subject_review(k8s::http_responder& res, const request_info& ri, const identity& who);
  // The bootstrap ClusterRoles and bindings, created when missing (RBAC only).
  void ensure_bootstrap_policy_locked();
  // Validating admission of a write by ri.who (create: `old` null), after
  // validation: RBAC's guard on grants (rbac_escalation.hpp) and
  // OwnerReferencesPermissionEnforcement when enabled. Throws 403.
  void admit_locked(const request_info& ri, const k8s::json_value* old, const k8s::json_value& next) const;

  // ---- faults (faults.cpp) ----
  // The first matching rule (counted), if any.
  std::optional<fault_rule> match_fault(const request_info& ri, const k8s::http_request& req,
                                        const identity& who);
  void load_faults_file(const std::string& path);
  std::string add_fault_rule(fault_rule r);
  // ---- fault state, stream rules, the watch log (stream_faults.cpp) ----
  bool remove_fault_rule(const std::string& id);
  void clear_fault_rules();
  // A successful write by `who`: counts towards the rules' after_writes.
  void count_write_for_faults(const request_info& ri, const std::string& verb, const k8s::http_request& req,
                              const identity& who);
  // Whether `f` is armed (after_writes reached); faults_mu_ held.
  bool armed_locked(const fault_rule& f) const;
  // Arms `f` if it is due; faults_mu_ held.
  void arm_if_due_locked(const fault_rule& f);
  // A draw in [0, 1); faults_mu_ held.
  double draw_locked();
  // A new watch stream's id.
  std::uint64_t open_stream();
  stream_effects stream_faults(const request_info& ri, const k8s::http_request& req, std::uint64_t stream);
  // A coalescing rule withheld an event and dropped it for its successor;
  // whether it may coalesce more.
  bool coalesced(const std::string& rule_id);
  void log_event(const request_info& ri, const std::string& type, const k8s::object& o);

  apiserver_options opts_;
  std::unique_ptr<k8s::http_server> server_;
  key_pair_pem ca_;
  key_pair_pem serving_;
  std::string token_;
  std::string sa_key_;  // signs ServiceAccount tokens; derived from token_
  std::map<std::string, identity> tokens_;  // token -> identity

  mutable std::mutex mu_;
  // Per qualified resource, the watch streams waiting for its next event:
  // an event wakes the streams of its resource only (one for every stream
  // woke every stream of every kind at each write; kube-apiserver's watch
  // cache hands an event to its resource's watchers).
  std::map<std::string, std::condition_variable, std::less<>> watch_wakes_;
  bool stopping_ = false;
  std::int64_t rv_ = 0;
  std::int64_t evicted_rv_ = 0;  // highest resourceVersion no longer in history_
  std::int64_t persisted_rv_ = -1;   // changes up to here are on disk (-1: no snapshot yet)
  std::size_t log_records_ = 0;      // lines in state.log
  std::size_t snapshot_objects_ = 0; // objects in state.json
  std::deque<watch_event> history_;
  struct list_snapshot {
    std::string qualified;
    std::int64_t rv = 0;
    std::shared_ptr<const std::map<k8s::object_key, k8s::object>> objects;
  };
  std::deque<list_snapshot> list_snapshots_;  // the newest last; a few lists' worth
  std::map<std::string, stored_resource> resources_;  // by qualified resource
  std::map<std::string, k8s::api_resource> served_;   // "group/version/plural"
  std::uint64_t kinds_generation_ = 0;                 // bumped whenever served_ may change
  // Rendered discovery and OpenAPI answers by path, Accept and Host, valid
  // while kinds_generation_ is discovery_generation_.
  std::map<std::string, discovery_answer> discovery_cache_;
  std::uint64_t discovery_generation_ = 0;

  mutable std::mutex faults_mu_;
  std::vector<fault_rule> faults_;
  std::map<std::string, int> fired_;
  fault_counters counters_;
  std::uint64_t next_fault_id_ = 1;
  struct fault_state {
    int writes = 0;   // counted towards after_writes
    bool armed = false;
    std::uint64_t armed_at_stream = 0;  // streams with a smaller id were open when it armed
    std::set<std::uint64_t> streams;    // streams it has fired on (hold, expire)
  };
  std::map<std::string, fault_state> fault_state_;
  std::uint64_t next_stream_ = 1;
  std::mt19937_64 fault_rng_{opts_.fault_seed};

  mutable std::mutex log_mu_;
  std::vector<write_record> write_log_;
  std::uint64_t write_seq_ = 0;
  std::vector<watch_record> watch_log_;
  std::vector<double_write> double_writes_;
};

// 404 for a path that names nothing served.
k8s::api_error not_found_path();
// Throws 406 unless `accept` allows JSON (or something the server answers with JSON).
void check_acceptable(std::string_view accept);
// The selector parameters of a list/watch/deletecollection; throws 400.
struct list_filter {
  k8s::label_selector labels;
  k8s::field_selector fields;
  std::string namespace_;
  bool matches(const k8s::object& o) const;
};
list_filter parse_filter(const k8s::http_request& req, const request_info& ri);
// How a watch with `filter` sees `ev` (kube's cacheWatcher): nothing when
// neither the object nor, for MODIFIED, its previous state matches; ADDED when
// a modification brings it into the selector, DELETED (previous content, the
// event's resourceVersion) when it takes it out.
std::optional<std::pair<std::string, k8s::object>> as_seen_through(const watch_event& ev,
                                                                   const list_filter& filter);
// A resourceVersion parameter (digits only); nullopt otherwise.
std::optional<std::int64_t> parse_rv(const std::string& s);
// 400 "invalid resource version: ...".
k8s::api_error invalid_rv(const std::string& rv);
// One line of a watch stream: {"type":...,"object":...}.
std::string event_line(const std::string& type, const k8s::json_value& obj);
// The request body as JSON (YAML too when `yaml_ok` and the Content-Type says so).
k8s::json_document parse_body(const k8s::http_request& req, bool yaml_ok = true);
// fieldManager, else the User-Agent's program name.
std::string field_manager_of(const k8s::http_request& req);

// Throws api_failure.
[[noreturn]] inline void fail(k8s::api_error e) { throw api_failure{std::move(e)}; }

}  // namespace c5c3::sim
