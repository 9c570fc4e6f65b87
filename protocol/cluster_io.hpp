// Conversation: reads and writes through a cluster actor (one per API server
// connection). Every request is one struct; the answer is the object on
// success and a caf::error of protocol::api_error_category on failure (see
// api_error.hpp), i.e. an expected<k8s::object>:
//
//   self->request(cluster, timeout, get_request{ref}).then(
//       [](const k8s::object& o) {...}, [](const caf::error& e) { is_not_found(e) ... });
//
//   get_request     -> k8s::object        (cache by default: no API read)
//   list_request    -> object_list        (cache by default)
//   create_request  -> k8s::object        (POST)
//   update_request  -> k8s::object        (PUT, or PUT .../status)
//   patch_request   -> k8s::object        (PATCH merge/strategic/json, or of status)
//   apply_request   -> k8s::object        (server-side apply, PATCH application/apply-patch+yaml)
//   delete_request  -> k8s::object        (the object as the server answered; empty for a Status)
//   read_batch      -> read_batch_answer  (cache reads only, several in one message)
//
// A kind the cluster does not serve answers api_errc::no_match.
#pragma once

#include "protocol/payloads.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/meta/type_name.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::k8s {

// gvk is plain data: inspectable here, where CAF is known, so the requests
// holding it can be rendered and serialized.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, gvk& x) {
  return f(caf::meta::type_name("c5c3::k8s::gvk"), x.group, x.version, x.kind);
}

}  // namespace c5c3::k8s

namespace c5c3::protocol {

// Where a read is answered from: the informer cache of the kind (the default,
// as controller-runtime's client does) or the API server itself.
enum class read_from : std::uint8_t { cache, server };
std::string to_string(read_from x);

// One object of a kind. `namespace_` is empty for cluster-scoped kinds.
struct resource_ref {
  k8s::gvk gvk;
  std::string namespace_;
  std::string name;
  friend bool operator==(const resource_ref&, const resource_ref&) = default;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, resource_ref& x) {
  return f(caf::meta::type_name("c5c3::protocol::resource_ref"), x.gvk, x.namespace_, x.name);
}

// A write's deadline: the steady clock's time since its epoch in nanoseconds
// (0: none), plain data so requests stay inspectable. The cluster actor hands
// it to the client (k8s/client write_options::deadline): no attempt of the
// write starts once it has passed, and the answer is then an error of
// api_errc::transport whose k8s::api_error is a Timeout
// (k8s::is_deadline_exceeded). A caller that gives up on a write at its own
// request timeout sets it shorter, so the write cannot reach the API server
// after the caller stopped waiting (the order runner: runner/README.md).
using write_deadline = std::int64_t;
inline write_deadline deadline_at(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
inline std::optional<std::chrono::steady_clock::time_point> deadline_of(write_deadline d) {
  if (d == 0) return std::nullopt;
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(d)));
}

struct write_options {
  std::string field_manager;
  bool dry_run = false;
  write_deadline deadline = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, write_options& x) {
  return f(caf::meta::type_name("c5c3::protocol::write_options"), x.field_manager, x.dry_run, x.deadline);
}

// `drop` (both requests): the fields the reader does without (canonical
// field paths, k8s/projection.hpp); a projected informer's cache answers the
// read only when it drops no other field.
struct get_request {
  resource_ref ref;
  read_from source = read_from::cache;
  std::vector<std::string> drop = {};
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, get_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::get_request"), x.ref, x.source, x.drop);
}

// Selectors in their string forms ("a=b,c in (x)"; "metadata.name=x"), so the
// request stays plain data; empty selects everything. An empty namespace lists
// across all namespaces.
struct list_request {
  k8s::gvk gvk;
  std::string namespace_;
  std::string label_selector;
  std::string field_selector;
  read_from source = read_from::cache;
  std::vector<std::string> drop = {};
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, list_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::list_request"), x.gvk, x.namespace_,
           x.label_selector, x.field_selector, x.source, x.drop);
}

// Several reads from the caches in one message: the order runner sends the
// reads of a pass that do not depend on one another together, one message per
// cluster rather than one per read slot. An item is a list_request, or a get
// by name when `name` is set (its `list` then names the kind and namespace).
// The answer holds one read_result per item, in order; an item the caches
// cannot answer (no synced informer covers it) is `uncached`, and the caller
// sends it alone as a get_request or list_request, which the API server
// answers.
struct read_item {
  list_request list;
  std::string name;
};

enum class read_outcome : std::uint8_t { items, not_found, uncached };

struct read_result {
  read_outcome outcome = read_outcome::uncached;
  object_list list;
};

struct read_batch {
  std::vector<read_item> items;
};

struct read_batch_answer {
  std::vector<read_result> results;
};

struct create_request {
  k8s::object obj;
  write_options options;
};

// PUT of the whole object; `subresource` "status" writes the status only.
// The object's resourceVersion is the optimistic-concurrency precondition.
struct update_request {
  k8s::object obj;
  std::string subresource;
  write_options options;
};

enum class patch_type : std::uint8_t { merge, strategic_merge, json };
std::string to_string(patch_type x);
// The Content-Type of a patch of that type.
const char* content_type(patch_type x);

struct patch_request {
  resource_ref ref;
  patch_type type = patch_type::merge;
  std::string body;  // the patch document (JSON)
  std::string subresource;
  write_options options;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, patch_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::patch_request"), x.ref, x.type, x.body,
           x.subresource, x.options);
}

// Server-side apply of `obj` (the fields this manager owns) with
// `options.field_manager`; `force` takes over conflicting fields.
struct apply_request {
  k8s::object obj;
  std::string subresource;
  bool force = true;
  write_options options;
};

enum class propagation : std::uint8_t { background, foreground, orphan };
std::string to_string(propagation x);

// DELETE with optional preconditions (empty: none).
struct delete_request {
  resource_ref ref;
  std::string precondition_uid;
  std::string precondition_resource_version;
  propagation policy = propagation::background;
  write_deadline deadline = 0;  // as write_options::deadline
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, delete_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::delete_request"), x.ref, x.precondition_uid,
           x.precondition_resource_version, x.policy, x.deadline);
}

// Convenience: status writes are updates and patches of the status subresource.
inline update_request update_status(k8s::object obj, write_options o = {}) {
  return update_request{std::move(obj), "status", std::move(o)};
}
inline patch_request patch_status(resource_ref ref, patch_type t, std::string body,
                                  write_options o = {}) {
  return patch_request{std::move(ref), t, std::move(body), "status", std::move(o)};
}
inline resource_ref ref_of(const k8s::object& o) {
  return resource_ref{o.gvk(), std::string(o.namespace_()), std::string(o.name())};
}

}  // namespace c5c3::protocol

// Local only: they carry objects (a read batch travels as its answer does).
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::read_batch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::read_batch_answer)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::create_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::update_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::apply_request)
