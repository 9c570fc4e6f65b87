// A fake management cluster for the order actor under CAF's test
// coordinator: one actor answering the cluster_io requests from an in-memory
// store (resourceVersions, generations, Conflict on a stale status write,
// AlreadyExists on create, JSON patch with its test op), with the topology
// operator and External Secrets reporting at once (every Vhost, User and
// Permission Ready at its generation; every PushSecret write pushed). A write
// of the order is handed to the order actor as the host would
// (order_update, not waking it). Plus the two directories the pass asks.
#pragma once

#include "k8s/patch.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/order.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <map>
#include <set>
#include <memory>
#include <string>
#include <tuple>

namespace c5c3::testing {

using watch_order_atom = caf::atom_constant<caf::atom("watch_ord")>;

// What the test reads back (the actors run on the test coordinator's thread).
struct fake_store {
  using key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  std::map<key, k8s::object> objects;
  std::int64_t rv = 100;
  std::size_t writes = 0;
  std::vector<std::string> created;  // "Kind/name" of every create and first apply
  caf::actor order_actor;
  std::string order_kind = "RabbitMQVhost";  // whose writes order_actor hears
  std::set<std::string> unserved;  // kinds answering no_match
  int status_conflicts = 0;        // the next N status writes answer Conflict
  std::vector<std::string> patches;  // "Kind/name[/subresource]" of every patch, in order
  std::vector<caf::actor_addr> admission_hosts;  // the host each admission request named

  const k8s::object* get(const std::string& kind, const std::string& ns, const std::string& name) const {
    auto it = objects.find({kind, ns, name});
    return it == objects.end() ? nullptr : &it->second;
  }
};

inline k8s::api_error fake_error(int code, std::string reason, std::string message) {
  k8s::api_error e;
  e.code = code;
  e.reason = std::move(reason);
  e.message = std::move(message);
  return e;
}

inline caf::error not_found_error(const std::string& what) {
  return protocol::make_error(fake_error(404, "NotFound", what + " not found"));
}

// Stores `o` (a new resourceVersion, the generation bumped on a spec change,
// the simulated controllers' status) and answers it.
inline k8s::object fake_store_put(fake_store& s, k8s::object o, bool keep_status) {
  fake_store::key k{std::string(o.kind()), std::string(o.namespace_()), std::string(o.name())};
  auto it = s.objects.find(k);
  auto b = o.edit();
  std::int64_t gen = 1;
  if (it != s.objects.end()) {
    gen = it->second.generation();
    const auto* a = it->second.get({"spec"});
    const auto* z = o.get({"spec"});
    if (!(a && z && k8s::json_equal(*a, *z)) && (a || z)) ++gen;
    if (keep_status) {
      if (const auto* st = it->second.get({"status"})) b.set({"status"}, k8s::copy_json(*st, b.alloc()));
    }
    b.set_string({"metadata", "uid"}, it->second.uid());
  } else {
    b.set_string({"metadata", "uid"}, "uid-" + std::get<2>(k));
    s.created.push_back(std::get<0>(k) + "/" + std::get<2>(k));
  }
  b.set_int({"metadata", "generation"}, gen);
  b.set_resource_version(std::to_string(++s.rv));
  k8s::object stored = std::move(b).freeze();
  const auto kind = std::get<0>(k);
  if (kind == "Vhost" || kind == "User" || kind == "Permission") {
    stored = test::topology_ready(stored, stored.generation());
  } else if (kind == "PushSecret") {
    auto pb = test::with_condition(stored, "Ready", true).edit();
    pb.set_string({"status", "syncedResourceVersion"}, "synced-" + std::to_string(s.rv));
    stored = std::move(pb).freeze();
  }
  s.objects[k] = stored;
  ++s.writes;
  if (kind == s.order_kind && s.order_actor) caf::anon_send(s.order_actor, protocol::order_update{stored, false});
  return stored;
}

inline caf::error no_match_error(const std::string& kind) {
  return protocol::make_error(protocol::api_errc::no_match, "no matches for kind " + kind);
}

// What a list of `r` finds: every object of the kind in the namespace.
inline std::vector<k8s::object> fake_list(const fake_store& s, const protocol::list_request& r) {
  std::vector<k8s::object> out;
  for (const auto& [k, o] : s.objects)
    if (std::get<0>(k) == r.gvk.kind && (r.namespace_.empty() || std::get<1>(k) == r.namespace_)) out.push_back(o);
  return out;
}

// A batch of reads as a cluster actor's caches answer it: an unserved kind or
// a read from the server is `uncached` (the runner asks for it alone).
inline protocol::read_batch_answer fake_batch(const fake_store& s, const protocol::read_batch& b) {
  protocol::read_batch_answer a;
  for (const auto& item : b.items) {
    const auto& l = item.list;
    protocol::read_result res;
    if (!s.unserved.contains(l.gvk.kind) && l.source == protocol::read_from::cache) {
      if (item.name.empty()) {
        res.outcome = protocol::read_outcome::items;
        res.list.items = fake_list(s, l);
      } else if (const auto* o = s.get(l.gvk.kind, l.namespace_, item.name)) {
        res.outcome = protocol::read_outcome::items;
        res.list.items.push_back(*o);
      } else {
        res.outcome = protocol::read_outcome::not_found;
      }
    }
    a.results.push_back(std::move(res));
  }
  return a;
}

// A batch every item of which the caller must send alone (a spy in front of
// a cluster that sees each read as its own request).
inline protocol::read_batch_answer all_uncached(const protocol::read_batch& b) {
  protocol::read_batch_answer a;
  a.results.resize(b.items.size());
  return a;
}

inline caf::behavior fake_cluster(caf::event_based_actor*, std::shared_ptr<fake_store> s) {
  using result = caf::result<k8s::object>;
  return {
      [s](const protocol::read_batch& b) { return fake_batch(*s, b); },
      [s](const protocol::get_request& r) -> result {
        if (s->unserved.contains(r.ref.gvk.kind)) return no_match_error(r.ref.gvk.kind);
        if (auto* o = s->get(r.ref.gvk.kind, r.ref.namespace_, r.ref.name)) return *o;
        return not_found_error(r.ref.gvk.kind + " " + r.ref.name);
      },
      [s](const protocol::list_request& r) -> caf::result<protocol::object_list> {
        if (s->unserved.contains(r.gvk.kind)) return no_match_error(r.gvk.kind);
        return protocol::object_list{fake_list(*s, r), {}};
      },
      [s](const protocol::create_request& r) -> result {
        if (s->unserved.contains(std::string(r.obj.kind()))) return no_match_error(std::string(r.obj.kind()));
        if (s->get(std::string(r.obj.kind()), std::string(r.obj.namespace_()), std::string(r.obj.name())))
          return protocol::make_error(fake_error(409, "AlreadyExists", "exists"));
        return fake_store_put(*s, r.obj, false);
      },
      [s](const protocol::apply_request& r) -> result { return fake_store_put(*s, r.obj, true); },
      [s](const protocol::update_request& r) -> result {
        auto* live = s->get(std::string(r.obj.kind()), std::string(r.obj.namespace_()), std::string(r.obj.name()));
        if (!live) return not_found_error(std::string(r.obj.name()));
        if (live->resource_version() != r.obj.resource_version())
          return protocol::make_error(fake_error(409, "Conflict", "stale resourceVersion"));
        if (r.subresource != "status") return fake_store_put(*s, r.obj, true);
        if (s->status_conflicts > 0) {
          --s->status_conflicts;
          return protocol::make_error(fake_error(409, "Conflict", "the object has been modified"));
        }
        auto b = live->edit();
        if (const auto* st = r.obj.get({"status"})) b.set({"status"}, k8s::copy_json(*st, b.alloc()));
        return fake_store_put(*s, std::move(b).freeze(), false);
      },
      [s](const protocol::patch_request& r) -> result {
        s->patches.push_back(r.ref.gvk.kind + "/" + r.ref.name + (r.subresource.empty() ? "" : "/" + r.subresource));
        auto* live = s->get(r.ref.gvk.kind, r.ref.namespace_, r.ref.name);
        if (!live) return not_found_error(r.ref.name);
        auto patch = k8s::parse_json(r.body);
        if (!patch) return protocol::make_error(fake_error(400, "BadRequest", "patch"));
        k8s::json_document doc;
        if (r.type == protocol::patch_type::json) {
          doc = k8s::copy_document(live->json());
          if (auto err = k8s::apply_json_patch(doc, *patch))
            return protocol::make_error(fake_error(422, "Invalid", *err));
        } else {
          doc = k8s::merge_patched(live->json(), *patch);
        }
        return fake_store_put(*s, k8s::object(std::move(doc)), true);
      },
      [s](const protocol::delete_request& r) -> result {
        auto it = s->objects.find({r.ref.gvk.kind, r.ref.namespace_, r.ref.name});
        if (it == s->objects.end()) return not_found_error(r.ref.name);
        auto last = it->second;
        s->objects.erase(it);
        ++s->writes;
        return last;
      },
  };
}

// The cluster directory: every name is the one fake cluster.
inline caf::behavior fake_directory(caf::event_based_actor*, caf::actor cluster) {
  return {[cluster](protocol::lookup_cluster_atom, const std::string&) { return cluster; }};
}

// The ControlPlane directory: admits every order with the ControlPlane it
// reads from the store.
inline caf::behavior fake_control_planes(caf::event_based_actor*, std::shared_ptr<fake_store> s) {
  return {[s](const protocol::admission_request& r) {
    s->admission_hosts.push_back(r.host);
    protocol::admission_answer a;
    if (auto* cp = s->get("ControlPlane", r.control_plane.namespace_, r.control_plane.name)) {
      a.verdict = protocol::admission_verdict::admitted;
      a.assignment.namespace_ = r.order.namespace_;
      a.control_plane = *cp;
    }
    return a;
  }};
}

}  // namespace c5c3::testing
