// The Kubernetes API server emulator, in process: tests start it on port 0,
// point a client (or kubectl, through the kubeconfig it writes) at it, inject
// faults and read the write log. The `c5c3-sim apiserver` binary wraps it.
//
// Everything here is thread-safe: the server runs its own I/O threads, and
// tests call these functions from theirs.
#pragma once

#include "k8s/object.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim {

struct apiserver_options {
  // host:port; port 0 picks a free one. Only this address is listened on.
  std::string listen = "127.0.0.1:0";
  bool plain_http = false;  // http:// instead of https:// (no client certificates then)
  // Folders whose *.yaml / *.json CRDs (and other manifests) are created at start.
  std::vector<std::string> crd_dirs;
  // When set, the whole state (objects, resourceVersion counter, CA, serving
  // certificate and token) is kept there and survives a restart: a snapshot
  // (state.json) and an append-only log of the changes since (state.log).
  std::string data_dir;
  std::string faults_file;  // YAML fault rules loaded at start (see fault_rule)
  // Extra accepted bearer tokens, one a line: `token[,user[,uid[,"group1,group2"]]]`
  // (kube's static token file format; a bare token means user "token-user").
  std::string token_file;
  // How many watch events are kept to resume watches from; older
  // resourceVersions answer 410 Expired. Lists at an older resourceVersion
  // (continue tokens, resourceVersionMatch=Exact) are rebuilt from this
  // history and expire with it too. kube-apiserver's watch cache grows to
  // 100 * 1024 events per resource; with 1,000 here, a 100,000-order run
  // (2,000 writes a second) expired every watch that was renewed and every
  // paged relist of a large collection, which then began again.
  std::size_t watch_history = 100 * 1024;
  // kube-apiserver's --authorization-mode: "AlwaysAllow" (every authenticated
  // request; the default) or "RBAC" (Roles, ClusterRoles and their bindings
  // decide; system:masters, which the admin token is in, may do anything).
  std::string authorization_mode = "AlwaysAllow";
  // kube-apiserver's --enable-admission-plugins beyond the emulator's built-in
  // behaviour; known: "OwnerReferencesPermissionEnforcement" (setting
  // blockOwnerDeletion needs `update` on the owner's `finalizers`).
  std::vector<std::string> admission_plugins;
  // Seeds the draws of fault rules with a `probability` or a latency range.
  std::uint64_t fault_seed = 1;
  // Keep a log of the events every watch stream delivered (watch_log()):
  // tests that replay what a client saw turn it on.
  bool watch_log = false;
  // Keep each logged write's request (method, target, Content-Type, body) in
  // the write log too: bench/rabbitmqvhost/absorb.py replays an operator's
  // writes from it. Off by default (the bodies cost memory).
  bool record_write_bodies = false;
};

// One fault rule. Empty match fields match anything. `verb` is kube's verb
// (get, list, watch, create, update, patch, delete, deletecollection);
// `resource` the plural ("secrets") or "plural/subresource" ("pods/status");
// `client` matches a substring of the User-Agent or the authenticated user
// name, or equals the bearer token.
//
// Stream rules (`hold_watch_events`, `coalesce_modified`, `expire_watches`)
// act on open watch streams instead of answering a request: every stream
// looks at them before it sends, so a rule added (or armed) while a watch is
// open reaches it. They match the stream by verb, resource and client;
// `namespace_` and `name` then pick the events a coalescing rule withholds.
struct fault_rule {
  std::string id;  // unique; generated when empty
  // match
  std::string verb;
  std::string resource;
  std::string namespace_;
  std::string name;
  std::string client;
  // effect (several may be combined; latency applies first)
  int status_code = 0;  // 500, 503, 429, 409, ...: answered with a Status body
  int retry_after_seconds = 1;  // sent as Retry-After with 429 (and 503)
  std::string message;          // Status message; a default per code when empty
  std::chrono::milliseconds latency{0};
  // > latency: the latency is drawn uniformly from [latency, latency_max].
  std::chrono::milliseconds latency_max{0};
  int cut_watch_after_events = -1;  // >= 0: a matched watch stream ends after N events
  bool expire_resume = false;       // a watch/list with a resourceVersion gets 410 Expired
  bool reset_connection = false;    // the TCP connection is reset instead of answered
  // A hostile answer: the request is served, its answer spoiled (see
  // hostile.hpp): "truncated", "huge", "wrongKind", "missingField",
  // "nonUtf8" or "garbage"; `body_bytes` and `body_field` tune them.
  std::string body;
  std::size_t body_bytes = 0;
  std::string body_field;
  // ---- stream rules ----
  // >= 0: a matched watch stream sends an event only once N later events are
  // waiting behind it (a stale view, N events behind); the held events go
  // out when the rule is removed (`times` does not end a hold). Counted once
  // per stream it holds.
  int hold_watch_events = -1;
  // A matched stream withholds a MODIFIED event (of `namespace_`/`name` when
  // set) until the same object's next event, which replaces it: the
  // intermediate version is never seen, as the watch contract allows. The
  // stream keeps its order (later events wait behind the withheld one); with
  // no successor after `latency` (default 1 s) the event goes out after all.
  // Fires once per event coalesced away.
  bool coalesce_modified = false;
  // When the rule arms, every matched watch stream open at that moment ends
  // with an ERROR event 410 Expired (the client relists); streams opened
  // later are left alone. Fires once per stream ended.
  bool expire_watches = false;

  // ---- when the rule fires ----
  // > 0: the rule is dormant until the clients it names (`client`; every
  // client when empty) have made this many successful writes since it was
  // added; armed, it matches as usual. With `client` and `reset_connection`:
  // "after the Nth successful write of client X, reset every later request
  // of X", a crash right after that write.
  int after_writes = 0;
  // With after_writes: only the client's writes of this object count (empty
  // fields match any): "after the 2nd patch of rabbitmqvhosts/status
  // openstack/o0", an anchor that does not move when other objects' writes
  // interleave differently from one run to the next (the fault plans' seeds).
  struct write_match {
    std::string verb;      // as the write log says it (create, update, patch, delete)
    std::string group;     // "" for the core group
    std::string resource;  // "plural" or "plural/subresource"
    std::string namespace_;
    std::string name;
  };
  write_match after_writes_of;
  // < 1: a matching rule fires with this probability (a seeded draw,
  // apiserver_options::fault_seed); otherwise the next rule is tried.
  double probability = 1.0;
  // How many times the rule fires; -1 forever. A rule that has fired `times`
  // times stays listed but no longer matches.
  int times = -1;
};

struct fault_counters {
  std::map<std::string, std::uint64_t> by_rule;  // rule id -> times fired
  std::uint64_t total = 0;
};

// One mutating request, in the order the server completed them.
struct write_record {
  std::uint64_t seq = 0;
  std::string client;      // authenticated user name
  std::string user_agent;  // the User-Agent header
  std::string verb;        // create, update, patch, delete, deletecollection, apply
  std::string group;
  std::string resource;     // plural; "secrets/status" for subresources
  std::string namespace_;
  std::string name;
  int code = 0;  // the HTTP status answered
  std::chrono::steady_clock::time_point at{};  // when the server answered it
  std::string resource_version;  // of the written object, when one was written
  bool dry_run = false;
  // The request as sent, only with apiserver_options::record_write_bodies.
  std::string method;  // POST, PUT, PATCH, DELETE
  std::string target;  // path and query
  std::string content_type;
  std::string body;
};

// A sharded replica's write for an order's status or children while another
// (or no) replica held the order (sim/apiserver/double_writers.cpp), or for a
// monitoring controller's order itself (held_object_writes.hpp).
struct double_write {
  std::string replica;  // from the User-Agent "c5c3-operator/<replica>"
  std::string holder;   // the order's c5c3.io/shard label then ("" unclaimed)
  std::string verb;
  std::string resource;  // plural, "/status" for a status write
  std::string namespace_;
  std::string name;
  std::string order;  // "<plural.group> <namespace>/<name>" ("<plural> <name>" of a core cluster-scoped kind)
};

// One event a watch stream delivered (apiserver_options::watch_log).
struct watch_record {
  std::string client;  // authenticated user name
  std::string group;
  std::string resource;  // plural
  std::string type;      // ADDED, MODIFIED, DELETED
  std::string namespace_;
  std::string name;
  std::string resource_version;
  // The seq of the last write_record when the event went out (0: none yet):
  // places the event between two writes.
  std::uint64_t after_write = 0;
};

// A client certificate signed by the emulator's CA.
struct client_certificate {
  std::string cert_pem;
  std::string key_pem;
};

class apiserver {
 public:
  explicit apiserver(apiserver_options opts = {});
  ~apiserver();  // stops
  apiserver(const apiserver&) = delete;
  apiserver& operator=(const apiserver&) = delete;

  // Binds, loads state, CRDs and faults, and starts serving. Throws
  // std::runtime_error with the reason when it cannot.
  void start();
  // Ends watches, closes connections, saves state (with data_dir). Idempotent.
  void stop();

  std::string url() const;  // https://127.0.0.1:PORT (http:// with plain_http)
  std::uint16_t port() const;
  std::string ca_pem() const;  // the CA that signs the serving and client certificates
  std::string token() const;   // the admin bearer token (user "admin", group system:masters)

  // A kubeconfig (context "c5c3-sim", user with the admin token) for url().
  std::string kubeconfig_yaml() const;
  void write_kubeconfig(const std::string& path) const;

  // A bearer token of ServiceAccount `namespace_/name` (which must exist), as
  // a TokenRequest gives it: user system:serviceaccount:NS:NAME in groups
  // system:serviceaccounts and system:serviceaccounts:NS.
  std::string service_account_token(const std::string& namespace_, const std::string& name,
                                    std::chrono::seconds ttl = std::chrono::hours(1)) const;

  // A client certificate for user `cn` in `groups`, signed by the CA.
  client_certificate issue_client_certificate(const std::string& cn,
                                              const std::vector<std::string>& groups = {}) const;

  // ---- fault injection ----
  std::string add_fault(fault_rule rule);  // returns the rule's id
  bool remove_fault(const std::string& id);
  void clear_faults();
  std::vector<fault_rule> faults() const;
  fault_counters fault_counts() const;
  // TCP connections accepted since start (a client's pool as the server sees it).
  std::uint64_t connections_accepted() const;

  // ---- write log ----
  std::vector<write_record> write_log() const;
  void clear_write_log();
  // Double writers seen since the start or the last clear (also GET/DELETE /sim/doublewriters).
  std::vector<double_write> double_writes() const;
  void clear_double_writes();
  // The events watch streams delivered, in order (empty unless
  // apiserver_options::watch_log).
  std::vector<watch_record> watch_log() const;

  // ---- direct state access for tests (no HTTP, no faults, no write log) ----
  // The stored object, or an empty object. `resource` is plural (core) or
  // plural.group ("rabbitmqvhosts.c5c3.io").
  k8s::object get_object(const std::string& resource, const std::string& namespace_,
                         const std::string& name) const;
  std::vector<k8s::object> list_objects(const std::string& resource,
                                        const std::string& namespace_ = {}) const;
  std::int64_t current_resource_version() const;

  class impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace c5c3::sim
