// Object semantics: create, update, delete, finalizers, garbage collection
// and namespace deletion, all under impl::mu_.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/apiserver/events.hpp"
#include "sim/apiserver/kind_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;
using k8s::object;

namespace {

std::string random_suffix(std::size_t n) {
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  auto hex = random_hex(n);
  std::string out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(alphabet[static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16)) %
                           (sizeof alphabet - 1)]);
  return out;
}

std::string new_uid() {
  auto h = random_hex(16);
  h[12] = '4';
  h[16] = "89ab"[std::stoi(h.substr(16, 1), nullptr, 16) % 4];
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20);
}

std::string now() { return k8s::format_rfc3339(k8s::clock::now()); }

// Everything outside metadata (and status when `skip_status`) is equal.
bool same_spec(const json_value& a, const json_value& b, bool skip_status) {
  auto strip = [&](const json_value& v) {
    json_document d;
    d.SetObject();
    if (v.IsObject())
      for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
        std::string_view n(it->name.GetString(), it->name.GetStringLength());
        if (n == "metadata" || (skip_status && n == "status")) continue;
        d.AddMember(k8s::make_string(n, d.GetAllocator()), k8s::copy_json(it->value, d.GetAllocator()),
                    d.GetAllocator());
      }
    return d;
  };
  return k8s::json_equal(strip(a), strip(b));
}

// Equal apart from resourceVersion and managedFields.
bool same_object(const json_value& a, const json_value& b) {
  auto strip = [](const json_value& v) {
    auto d = k8s::copy_document(v);
    if (auto* m = k8s::member(d, "metadata")) {
      k8s::remove_member(*m, "resourceVersion");
      k8s::remove_member(*m, "managedFields");
    }
    return d;
  };
  return k8s::json_equal(strip(a), strip(b));
}

void copy_member(json_document& to, const json_value& from, std::initializer_list<std::string_view> path,
                 std::string_view field) {
  auto& dst = k8s::ensure_object(to, path, to.GetAllocator());
  const json_value* src = k8s::find(from, path);
  const json_value* v = src ? k8s::member(*src, field) : nullptr;
  if (v)
    k8s::set_member(dst, field, k8s::copy_json(*v, to.GetAllocator()), to.GetAllocator());
  else
    k8s::remove_member(dst, field);
}

void check_body_identity(const request_info& ri, json_document& body) {
  if (!body.IsObject()) fail(k8s::make_bad_request("the body of the request was not a JSON object"));
  const auto& r = *ri.kind;
  auto av = k8s::get_string(body, {"apiVersion"});
  if (!av.empty() && av != r.api_version())
    fail(k8s::make_bad_request(fmt::format(
        "the API version in the data ({}) does not match the expected API version ({})", av,
        r.api_version())));
  auto kind = k8s::get_string(body, {"kind"});
  if (!kind.empty() && kind != r.kind)
    fail(k8s::make_bad_request(
        fmt::format("the kind in the data ({}) does not match the expected kind ({})", kind, r.kind)));
  auto& a = body.GetAllocator();
  k8s::set_member(body, "apiVersion", k8s::make_string(r.api_version(), a), a);
  k8s::set_member(body, "kind", k8s::make_string(r.kind, a), a);
  auto& md = k8s::ensure_object(body, {"metadata"}, a);
  auto ns = k8s::get_string(md, {"namespace"});
  if (r.namespaced) {
    if (!ns.empty() && ns != ri.namespace_)
      fail(k8s::make_bad_request(
          "the namespace of the provided object does not match the namespace sent on the request"));
    k8s::set_member(md, "namespace", k8s::make_string(ri.namespace_, a), a);
  } else {
    k8s::remove_member(md, "namespace");
  }
}

}  // namespace

stored_resource& apiserver::impl::resource_locked(const k8s::api_resource& r) {
  auto& sr = resources_[storage_resource(r)];
  if (sr.storage.plural.empty()) sr.storage = r;
  return sr;
}

void apiserver::impl::record_event_locked(std::string type, const std::string& qualified,
                                          const object& o, const object* prev) {
  history_.push_back({std::move(type), qualified, o, prev ? *prev : object(), rv_});
  while (history_.size() > opts_.watch_history) {
    evicted_rv_ = history_.front().rv;
    history_.pop_front();
  }
  if (auto w = watch_wakes_.find(qualified); w != watch_wakes_.end()) w->second.notify_all();
}

std::shared_ptr<const std::map<k8s::object_key, object>> apiserver::impl::snapshot_at_locked(
    const stored_resource& sr, std::int64_t rv) {
  constexpr std::size_t kept = 4;
  const auto q = sr.storage.qualified();
  for (const auto& s : list_snapshots_)
    if (s.rv == rv && s.qualified == q) return rv < evicted_rv_ ? nullptr : s.objects;
  auto at = objects_at_locked(sr, rv);
  if (!at) return nullptr;
  auto shared = std::make_shared<const std::map<k8s::object_key, object>>(std::move(*at));
  list_snapshots_.push_back({q, rv, shared});
  if (list_snapshots_.size() > kept) list_snapshots_.pop_front();
  return shared;
}

std::optional<std::map<k8s::object_key, object>> apiserver::impl::objects_at_locked(
    const stored_resource& sr, std::int64_t rv) const {
  if (rv < evicted_rv_ || rv > rv_) return std::nullopt;
  auto out = sr.objects;
  const auto q = sr.storage.qualified();
  // Undo, newest first, every event after `rv`.
  for (auto it = history_.rbegin(); it != history_.rend() && it->rv > rv; ++it) {
    if (it->qualified != q) continue;
    if (it->type == "ADDED")
      out.erase(it->obj.key());
    else if (it->prev)
      out[it->prev.key()] = it->prev;
  }
  return out;
}

object apiserver::impl::convert_for(const object& o, const k8s::api_resource& r) const {
  if (!o || o.api_version() == r.api_version()) return o;
  if (is_events_group_event(r)) return object(event_from_core(o.json()));
  auto b = o.edit();
  b.set_api_version_kind(r.api_version(), r.kind);
  return std::move(b).freeze();
}

object apiserver::impl::create_locked(const request_info& ri, json_document body, bool dry_run,
                                      const write_context* mf) {
  const auto& r = *ri.kind;
  check_body_identity(ri, body);
  if (is_events_group_event(r)) body = event_to_core(body);  // one store for both views
  auto& a = body.GetAllocator();
  auto& md = k8s::ensure_object(body, {"metadata"}, a);
  std::string name(k8s::get_string(md, {"name"}));
  std::string generate(k8s::get_string(md, {"generateName"}));
  if (name.empty() && !generate.empty()) name = generate + random_suffix(5);
  if (name.empty())
    fail(k8s::make_invalid(r.group, r.kind, "",
                           {{"FieldValueRequired", "Required value: name or generateName is required",
                             "metadata.name"}}));
  if (auto errs = validate_object_name(r, name); !errs.empty()) {
    std::vector<k8s::status_cause> causes;
    for (auto& e : errs)
      causes.push_back({"FieldValueInvalid", fmt::format("Invalid value: \"{}\": {}", name, e),
                        "metadata.name"});
    fail(k8s::make_invalid(r.group, r.kind, name, std::move(causes)));
  }
  k8s::set_member(md, "name", k8s::make_string(name, a), a);
  if (r.namespaced) {
    auto nsit = resources_.find("namespaces");
    const object* nso = nullptr;
    if (nsit != resources_.end()) {
      auto f = nsit->second.objects.find({"", ri.namespace_});
      if (f != nsit->second.objects.end()) nso = &f->second;
    }
    if (!nso) fail(k8s::make_not_found("", "namespaces", ri.namespace_));
    if (nso->terminating())
      fail(k8s::make_forbidden(fmt::format(
          "{} \"{}\" is forbidden: unable to create new content in namespace {} because it is being "
          "terminated",
          k8s::qualified_resource(r.group, r.plural), name, ri.namespace_)));
  }
  auto& sr = resource_locked(r);
  k8s::object_key key{r.namespaced ? ri.namespace_ : "", name};
  if (sr.objects.count(key)) fail(k8s::make_already_exists(r.group, r.plural, name));

  for (const char* f : {"uid", "resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds",
                        "selfLink"})
    k8s::remove_member(md, f);
  prepare_for_create(r, body, !is_builtin(r));
  validate_kind(r, body, nullptr);
  admit_locked(ri, nullptr, body);
  auto& md2 = k8s::ensure_object(body, {"metadata"}, a);
  k8s::set_member(md2, "uid", k8s::make_string(new_uid(), a), a);
  k8s::set_member(md2, "creationTimestamp", k8s::make_string(now(), a), a);
  if (tracks_generation(r)) k8s::set_member(md2, "generation", json_value(std::int64_t{1}), a);
  if (dry_run) {
    if (mf) body = with_managed_fields(nullptr, body, *mf);
    return object(std::move(body));
  }
  auto rv = next_rv_locked();
  k8s::set_member(md2, "resourceVersion", k8s::make_string(std::to_string(rv), a), a);
  if (mf) body = with_managed_fields(nullptr, body, *mf);
  object stored(std::move(body));
  sr.objects[key] = stored;
  record_event_locked("ADDED", sr.storage.qualified(), stored);
  after_write_locked(r, nullptr, stored);
  return stored;
}

object apiserver::impl::update_locked(const request_info& ri, json_document body, bool dry_run,
                                      const write_context* mf, bool from_patch, object* before) {
  const auto& r = *ri.kind;
  auto& sr = resource_locked(r);
  k8s::object_key key{r.namespaced ? ri.namespace_ : "", ri.name};
  auto it = sr.objects.find(key);
  if (it == sr.objects.end()) fail(k8s::make_not_found(r.group, r.plural, ri.name));
  object old = it->second;
  if (before) *before = old;
  check_body_identity(ri, body);
  if (is_events_group_event(r)) body = event_to_core(body);
  auto& a = body.GetAllocator();
  auto body_name = k8s::get_string(body, {"metadata", "name"});
  if (!body_name.empty() && body_name != ri.name)
    fail(k8s::make_bad_request(fmt::format(
        "the name of the object ({}) does not match the name on the URL ({})", body_name, ri.name)));
  std::string rv(k8s::get_string(body, {"metadata", "resourceVersion"}));
  if (!rv.empty() && rv != old.resource_version())
    fail(k8s::make_conflict(r.group, r.plural, ri.name,
                            "the object has been modified; please apply your changes to the latest "
                            "version and try again"));
  if (rv.empty() && !from_patch && !allows_unconditional_update(r))
    fail(k8s::make_invalid(r.group, r.kind, ri.name,
                           {{"FieldValueInvalid",
                             "Invalid value: 0x0: must be specified for an update",
                             "metadata.resourceVersion"}}));

  json_document next;
  if (ri.subresource == "status") {
    next = k8s::copy_document(old.json());
    const json_value* st = k8s::member(body, "status");
    if (st)
      k8s::set_member(next, "status", k8s::copy_json(*st, next.GetAllocator()), next.GetAllocator());
    else
      k8s::remove_member(next, "status");
  } else {
    next = std::move(body);
    for (auto f : {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
                   "generation", "namespace"})
      copy_member(next, old.json(), {"metadata"}, f);
    k8s::set_member(k8s::ensure_object(next, {"metadata"}, next.GetAllocator()), "name",
                    k8s::make_string(ri.name, next.GetAllocator()), next.GetAllocator());
    if (r.status_subresource) {
      const json_value* st = k8s::member(old.json(), "status");
      if (st)
        k8s::set_member(next, "status", k8s::copy_json(*st, next.GetAllocator()),
                        next.GetAllocator());
      else
        k8s::remove_member(next, "status");
    }
    if (!k8s::member(k8s::ensure_object(next, {"metadata"}, next.GetAllocator()), "managedFields"))
      copy_member(next, old.json(), {"metadata"}, "managedFields");
  }
  (void)a;
  prepare_for_update(r, next, old);
  validate_kind(r, next, &old);
  admit_locked(ri, &old.json(), next);
  if (old.terminating()) {
    auto oldf = old.finalizers();
    std::vector<std::string> added;
    if (auto* fs = k8s::find(next, {"metadata", "finalizers"}); fs && fs->IsArray())
      for (auto& f : fs->GetArray())
        if (f.IsString() && std::find(oldf.begin(), oldf.end(), k8s::as_string_view(f)) == oldf.end())
          added.emplace_back(k8s::as_string_view(f));
    if (!added.empty()) {
      std::string list;
      for (auto& f : added) list += (list.empty() ? "\"" : ", \"") + f + "\"";
      fail(k8s::make_invalid(
          r.group, r.kind, ri.name,
          {{"FieldValueForbidden",
            fmt::format("Forbidden: no new finalizers can be added if the object is being deleted, "
                        "found new finalizers []string{{{}}}",
                        list),
            "metadata.finalizers"}}));
    }
  }
  if (mf) next = with_managed_fields(&old.json(), next, *mf);
  if (same_object(next, old.json())) return old;
  auto& nmd = k8s::ensure_object(next, {"metadata"}, next.GetAllocator());
  if (tracks_generation(r)) {
    std::int64_t gen = old.generation();
    if (gen == 0) gen = 1;
    if (!same_spec(next, old.json(), r.status_subresource)) ++gen;
    k8s::set_member(nmd, "generation", json_value(gen), next.GetAllocator());
  }
  if (dry_run) {
    k8s::set_member(nmd, "resourceVersion", k8s::make_string(old.resource_version(), next.GetAllocator()),
                    next.GetAllocator());
    return object(std::move(next));
  }
  if (k8s::find(next, {"metadata", "deletionTimestamp"}) && !k8s::find(next, {"metadata", "finalizers"}) &&
      !old.finalizers().empty()) {
    // As kube-apiserver 1.34: an update that releases the last finalizer of an object being
    // deleted is not stored; the object is deleted (one DELETED event, of the last stored
    // state) and the answer is the update's object at the resourceVersion it was sent on.
    k8s::set_member(nmd, "resourceVersion", k8s::make_string(old.resource_version(), next.GetAllocator()),
                    next.GetAllocator());
    remove_object_locked(sr, key);
    collect_garbage_locked();
    return object(std::move(next));
  }
  auto nrv = next_rv_locked();
  k8s::set_member(nmd, "resourceVersion", k8s::make_string(std::to_string(nrv), next.GetAllocator()),
                  next.GetAllocator());
  object stored(std::move(next));
  sr.objects[key] = stored;
  record_event_locked("MODIFIED", sr.storage.qualified(), stored, &old);
  after_write_locked(r, &old, stored);
  if (stored.terminating() && stored.finalizers().empty()) {
    remove_object_locked(sr, key);
    collect_garbage_locked();
  } else if (old.terminating() || stored.terminating()) {
    collect_garbage_locked();
  }
  return stored;
}

void apiserver::impl::remove_object_locked(stored_resource& sr, const k8s::object_key& key) {
  auto it = sr.objects.find(key);
  if (it == sr.objects.end()) return;
  object old = it->second;
  sr.objects.erase(it);
  auto b = old.edit();
  b.set_resource_version(std::to_string(next_rv_locked()));
  object gone = std::move(b).freeze();
  record_event_locked("DELETED", sr.storage.qualified(), gone, &old);
  after_delete_locked(sr.storage, gone);
}

bool apiserver::impl::mark_deleted_locked(stored_resource& sr, const object& o) {
  if (o.terminating()) return false;
  if (o.finalizers().empty() && !(sr.storage.group.empty() && sr.storage.plural == "namespaces")) {
    remove_object_locked(sr, o.key());
    return true;
  }
  auto b = o.edit();
  b.set_string({"metadata", "deletionTimestamp"}, now());
  b.set_int({"metadata", "deletionGracePeriodSeconds"}, 0);
  // As kube-apiserver 1.34: setting deletionTimestamp is a change of the object that
  // bumps metadata.generation where the kind tracks it (custom resources).
  if (tracks_generation(sr.storage) && o.generation() > 0)
    b.set_int({"metadata", "generation"}, o.generation() + 1);
  if (sr.storage.group.empty() && sr.storage.plural == "namespaces")
    b.set_string({"status", "phase"}, "Terminating");
  b.set_resource_version(std::to_string(next_rv_locked()));
  object stored = std::move(b).freeze();
  sr.objects[o.key()] = stored;
  record_event_locked("MODIFIED", sr.storage.qualified(), stored, &o);
  return true;
}

std::pair<object, bool> apiserver::impl::delete_locked(const request_info& ri,
                                                       const json_value* options, bool dry_run,
                                                       const std::string& propagation) {
  const auto& r = *ri.kind;
  auto& sr = resource_locked(r);
  k8s::object_key key{r.namespaced ? ri.namespace_ : "", ri.name};
  auto it = sr.objects.find(key);
  if (it == sr.objects.end()) fail(k8s::make_not_found(r.group, r.plural, ri.name));
  object old = it->second;
  if (options) {
    auto uid = k8s::get_string(*options, {"preconditions", "uid"});
    if (!uid.empty() && uid != old.uid())
      fail(k8s::make_conflict(r.group, r.plural, ri.name,
                              fmt::format("Precondition failed: UID in precondition: {}, UID in "
                                          "object meta: {}",
                                          uid, old.uid())));
    auto prv = k8s::get_string(*options, {"preconditions", "resourceVersion"});
    if (!prv.empty() && prv != old.resource_version())
      fail(k8s::make_conflict(r.group, r.plural, ri.name,
                              fmt::format("Precondition failed: ResourceVersion in precondition: {}, "
                                          "ResourceVersion in object meta: {}",
                                          prv, old.resource_version())));
  }
  if (!propagation.empty() && propagation != "Orphan" && propagation != "Background" &&
      propagation != "Foreground")
    fail(k8s::make_invalid(
        r.group, r.kind, ri.name,
        {{"FieldValueNotSupported",
          fmt::format("Unsupported value: \"{}\": supported values: \"Foreground\", \"Background\", "
                      "\"Orphan\"",
                      propagation),
          "propagationPolicy"}}));
  if (dry_run) return {old, old.finalizers().empty()};
  if (old.terminating()) return {old, false};
  if (propagation == "Orphan") {
    std::string uid(old.uid());
    for (auto& [q, other] : resources_) {
      std::vector<object> changed;
      for (auto& [k, o] : other.objects) {
        auto refs = o.owner_references();
        if (std::none_of(refs.begin(), refs.end(), [&](auto& rf) { return rf.uid == uid; })) continue;
        auto b = o.edit();
        auto& arr = *k8s::member(k8s::ensure_object(b.doc(), {"metadata"}, b.alloc()), "ownerReferences");
        for (auto ai = arr.Begin(); ai != arr.End();) {
          if (k8s::get_string(*ai, {"uid"}) == uid)
            ai = arr.Erase(ai);
          else
            ++ai;
        }
        if (arr.Empty()) b.remove({"metadata", "ownerReferences"});
        b.set_resource_version(std::to_string(next_rv_locked()));
        changed.push_back(std::move(b).freeze());
      }
      for (auto& o : changed) {
        object prev = other.objects[o.key()];
        other.objects[o.key()] = o;
        record_event_locked("MODIFIED", q, o, &prev);
      }
    }
  }
  object current = old;
  if (propagation == "Foreground") {
    auto b = old.edit();
    b.add_finalizer("foregroundDeletion");
    current = std::move(b).freeze();
    sr.objects[key] = current;
  }
  mark_deleted_locked(sr, current);
  collect_garbage_locked();
  auto after = sr.objects.find(key);
  if (after == sr.objects.end()) return {old, true};
  return {after->second, false};
}

void apiserver::impl::collect_garbage_locked() {
  for (int round = 0; round < 1000; ++round) {
    bool changed = false;
    std::set<std::string> live, foreground;
    for (auto& [q, sr] : resources_)
      for (auto& [k, o] : sr.objects) {
        live.emplace(o.uid());
        if (o.terminating() && o.has_finalizer("foregroundDeletion")) foreground.emplace(o.uid());
      }
    std::set<std::string> referenced;
    for (auto& [q, sr] : resources_) {
      std::vector<object> doomed;
      for (auto& [k, o] : sr.objects) {
        auto refs = o.owner_references();
        if (refs.empty()) continue;
        bool all_gone = true, fg = false;
        for (auto& rf : refs) {
          referenced.insert(rf.uid);
          if (live.count(rf.uid)) all_gone = false;
          if (foreground.count(rf.uid)) fg = true;
        }
        if ((all_gone || fg) && !o.terminating()) doomed.push_back(o);
      }
      for (auto& o : doomed) changed |= mark_deleted_locked(sr, o);
    }
    // Foreground owners whose dependents are gone lose their finalizer.
    for (auto& [q, sr] : resources_) {
      std::vector<object> done;
      for (auto& [k, o] : sr.objects)
        if (o.terminating() && o.has_finalizer("foregroundDeletion") && !referenced.count(std::string(o.uid())))
          done.push_back(o);
      for (auto& o : done) {
        auto b = o.edit();
        b.remove_finalizer("foregroundDeletion");
        b.set_resource_version(std::to_string(next_rv_locked()));
        object s = std::move(b).freeze();
        sr.objects[s.key()] = s;
        record_event_locked("MODIFIED", q, s, &o);
        if (s.finalizers().empty()) remove_object_locked(sr, s.key());
        changed = true;
      }
    }
    // Terminating namespaces: delete their contents, then themselves.
    auto nsit = resources_.find("namespaces");
    if (nsit != resources_.end()) {
      std::vector<object> terminating;
      for (auto& [k, o] : nsit->second.objects)
        if (o.terminating()) terminating.push_back(o);
      for (auto& ns : terminating) {
        std::string name(ns.name());
        bool empty = true;
        for (auto& [q, sr] : resources_) {
          if (!sr.storage.namespaced) continue;
          std::vector<object> inside;
          for (auto& [k, o] : sr.objects)
            if (k.namespace_ == name) {
              empty = false;
              if (!o.terminating()) inside.push_back(o);
            }
          for (auto& o : inside) changed |= mark_deleted_locked(sr, o);
        }
        if (empty && ns.finalizers().empty()) {
          remove_object_locked(nsit->second, ns.key());
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}

}  // namespace c5c3::sim
