#include "sim/ssa/server_side_apply.hpp"

#include "k8s/status.hpp"

#include "sim/ssa/typed_value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace c5c3::sim::ssa {

using k8s::json_allocator;
using k8s::json_document;
using k8s::json_value;

namespace {

constexpr const char* kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

const char* const kStrippedMeta[] = {"name",       "namespace",  "creationTimestamp",
                                     "selfLink",   "uid",        "clusterName",
                                     "generation", "managedFields", "resourceVersion"};

bool is_stripped_meta(std::string_view name) {
  for (const char* n : kStrippedMeta)
    if (name == n) return true;
  return false;
}

// Paths pruning must never remove: the top-level identity fields and the
// stripped metadata members (nobody owns them, yet they stay).
bool protected_path(const path& p) {
  if (p.empty() || p[0].kind != path_element::kind_t::field) return false;
  const std::string& top = p[0].name;
  if (p.size() == 1) return top == "apiVersion" || top == "kind" || top == "metadata";
  return top == "metadata" && p.size() == 2 && p[1].kind == path_element::kind_t::field &&
         is_stripped_meta(p[1].name);
}

field_set filter(const field_set& s, const std::vector<std::string>& ignored) {
  field_set out = strip_unowned_fields(s);
  for (const auto& f : ignored) out = out.without_prefix({path_element::field(f)});
  return out;
}

schema_ptr root_of(const type_schema& ts) {
  if (ts.root) return ts.root;
  static const schema_ptr deduced = object_schema_from_openapi(nullptr).root;
  return deduced;
}

// `v` without metadata.managedFields and the ignored top-level fields.
json_document cleaned(const json_value& v, const std::vector<std::string>& ignored) {
  json_document d = k8s::copy_document(v);
  if (!d.IsObject()) d.SetObject();
  if (json_value* meta = k8s::member(d, "metadata")) k8s::remove_member(*meta, "managedFields");
  for (const auto& f : ignored) k8s::remove_member(d, f);
  return d;
}

void prune(json_value& obj, const field_set& last, const field_set& owned, const schema_ptr& root,
           path& prefix) {
  for (const auto& m : last.members()) {
    prefix.push_back(m);
    if (!protected_path(prefix) && !owned.has_prefix(prefix)) remove_path(obj, prefix, root);
    prefix.pop_back();
  }
  for (const auto& [pe, sub] : last.children()) {
    prefix.push_back(pe);
    if (!protected_path(prefix) && !owned.has_prefix(prefix))
      remove_path(obj, prefix, root);
    else
      prune(obj, sub, owned, root, prefix);
    prefix.pop_back();
  }
}

// Compact JSON with object keys sorted, strings escaped as Go's encoding/json
// does (how kubectl and the apiserver write last-applied-configuration).
void sorted_json(const json_value& v, std::string& out) {
  if (v.IsObject()) {
    std::vector<const json_value::Member*> members;
    for (auto& m : v.GetObject()) members.push_back(&m);
    std::sort(members.begin(), members.end(), [](auto* a, auto* b) {
      return k8s::as_string_view(a->name) < k8s::as_string_view(b->name);
    });
    out += '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      sorted_json(members[i]->name, out);
      out += ':';
      sorted_json(members[i]->value, out);
    }
    out += '}';
  } else if (v.IsArray()) {
    out += '[';
    bool first = true;
    for (auto& item : v.GetArray()) {
      if (!first) out += ',';
      first = false;
      sorted_json(item, out);
    }
    out += ']';
  } else if (v.IsString()) {
    out += '"';
    for (unsigned char c : k8s::as_string_view(v)) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
        out += fmt::format("\\u00{:02x}", c);
      } else {
        out += static_cast<char>(c);
      }
    }
    out += '"';
  } else {
    out += k8s::to_json(v);
  }
}

std::string last_applied_value(const json_value& config) {
  json_document copy = k8s::copy_document(config);
  json_value* meta = k8s::member(copy, "metadata");
  if (json_value* ann = meta ? k8s::member(*meta, "annotations") : nullptr) {
    k8s::remove_member(*ann, kLastApplied);  // an emptied map stays, as {}
  }
  std::string out;
  sorted_json(copy, out);
  return out + "\n";  // json.Encoder ends what it writes with a newline
}

}  // namespace

field_set strip_unowned_fields(const field_set& s) {
  field_set strip;
  strip.insert({path_element::field("apiVersion")});
  strip.insert({path_element::field("kind")});
  strip.insert({path_element::field("metadata")});
  for (const char* n : kStrippedMeta)
    strip.insert({path_element::field("metadata"), path_element::field(n)});
  return s.difference(strip);
}

std::string conflict_message(const std::vector<apply_conflict>& conflicts) {
  if (conflicts.size() == 1)
    return fmt::format("Apply failed with 1 conflict: conflict with {}: {}", conflicts[0].manager,
                       path_to_string(conflicts[0].field));
  std::string body;
  std::string current;
  bool first = true;
  for (const auto& c : conflicts) {
    if (first || c.manager != current) {
      if (!first) body += '\n';
      body += fmt::format("conflicts with {}:", c.manager);
      current = c.manager;
      first = false;
    }
    body += "\n- " + path_to_string(c.field);
  }
  return fmt::format("Apply failed with {} conflicts: {}", conflicts.size(), body);
}

json_document apply_result::status() const {
  k8s::api_error e;
  e.code = code;
  e.message = message;
  e.reason = code == 409   ? "Conflict"
             : code == 422 ? "Invalid"
             : code == 400 ? "BadRequest"
                           : "";  // a plain error: no reason
  for (const auto& c : conflicts)
    e.causes.push_back({"FieldManagerConflict", "conflict with " + c.manager, path_to_string(c.field)});
  return k8s::make_status_body(e);
}

namespace {

apply_result failure(int code, std::string message) {
  apply_result r;
  r.code = code;
  r.message = std::move(message);
  return r;
}

managed_fields_entry* find_entry(std::vector<managed_fields_entry>& entries,
                                 const managed_fields_entry& id) {
  std::string key = id.identifier();
  for (auto& e : entries)
    if (e.identifier() == key) return &e;
  return nullptr;
}

// Field set of the last-applied annotation of `live` (the conflicts a
// "kubectl" server-side apply may take over from client-side apply).
field_set last_applied_fields(const json_value& live, const schema_ptr& root,
                              const std::vector<std::string>& ignored) {
  const json_value* ann = k8s::find(live, {"metadata", "annotations", kLastApplied});
  if (!ann || !ann->IsString()) return {};
  auto doc = k8s::parse_json(k8s::as_string_view(*ann));
  if (!doc || !doc->IsObject()) return {};
  std::string err;
  field_set fs = to_field_set(*doc, root, &err);
  // Only fields whose live value still is the last-applied one: those
  // different, added or missing in the live object are not taken over.
  comparison c = compare(&*doc, &live, root);
  return filter(fs.difference(c.modified).difference(c.added).difference(c.removed), ignored);
}

}  // namespace

apply_result apply(const json_value* live, const json_value& config, const apply_options& o) {
  if (!config.IsObject()) return failure(400, "the applied configuration must be a JSON object");
  if (o.manager.empty())
    return failure(400, "PATCH, application/apply-patch+yaml requests require a fieldManager");
  if (const json_value* mf = k8s::find(config, {"metadata", "managedFields"}); mf && !mf->IsNull())
    return failure(400, "metadata.managedFields must be nil");
  schema_ptr root = root_of(o.schema);

  std::vector<managed_fields_entry> managers;
  if (live) {
    auto decoded = read_managed_fields(*live);
    if (decoded) managers = std::move(*decoded);  // undecodable: start afresh
    if (managers.empty()) {
      // A live object nobody tracked: its fields go to "before-first-apply"
      // (an Update from the kind's empty object), so applying over them can
      // conflict (skipNonAppliedManager).
      json_document untracked = cleaned(*live, {});
      update_options u;
      u.manager = "before-first-apply";
      u.api_version = o.api_version;
      u.now = o.now;
      u.ignored_fields = o.ignored_fields;
      u.schema = o.schema;
      auto first = update_managed_fields(nullptr, untracked, u);
      if (first.ok) {
        auto decoded_first = read_managed_fields(first.object);
        if (decoded_first) managers = std::move(*decoded_first);
      }
    }
  }
  static const json_value empty_object(rapidjson::kObjectType);
  json_document live_clean = cleaned(live ? *live : empty_object, {});
  json_document config_clean = cleaned(config, o.ignored_fields);

  std::string err;
  field_set applied = filter(to_field_set(config_clean, root, &err), o.ignored_fields);
  if (!err.empty()) {
    // A plain error in kube-apiserver: 500 with the message as it is.
    std::string_view api_version = k8s::get_string(config, {"apiVersion"});
    std::string gv = api_version.find('/') == std::string_view::npos
                         ? "/" + std::string(api_version)
                         : std::string(api_version);
    return failure(500, fmt::format("failed to create typed patch object ({}/{}; {}, Kind={}): {}",
                                    k8s::get_string(config, {"metadata", "namespace"}),
                                    k8s::get_string(config, {"metadata", "name"}), gv,
                                    k8s::get_string(config, {"kind"}), err));
  }

  json_document merged;
  static_cast<json_value&>(merged) = merge(&live_clean, &config_clean, root, merged.GetAllocator());

  managed_fields_entry me;
  me.manager = o.manager;
  me.operation = "Apply";
  me.subresource = o.subresource;
  field_set last;
  if (auto* prev = find_entry(managers, me)) {
    last = prev->fields;
    me.time = prev->time;
    managers.erase(managers.begin() + (prev - managers.data()));
  }
  me.api_version = o.api_version;
  me.fields = applied;

  // Fields this manager applied before and no longer does go, unless someone
  // (this manager included) still owns them.
  field_set owned = applied;
  for (const auto& m : managers) owned = owned.union_with(m.fields);
  path prefix;
  prune(merged, last, owned, root, prefix);

  comparison cmp = compare(&live_clean, &merged, root);
  field_set changed = filter(cmp.modified.union_with(cmp.added), o.ignored_fields);
  field_set removed = filter(cmp.removed, o.ignored_fields);

  // Conflicts, by manager identifier (as kube-apiserver sorts them).
  std::vector<std::pair<std::string, apply_conflict>> found;
  std::map<std::string, field_set> conflict_sets;
  for (const auto& m : managers) {
    field_set c = m.fields.intersection(changed);
    if (c.empty()) continue;
    conflict_sets[m.identifier()] = c;
    c.for_each([&](const path& p) { found.push_back({m.identifier(), {m.printed(), p}}); });
  }
  if (!found.empty() && !o.force) {
    if (o.manager == "kubectl" && live) {
      // Upgrading from client-side apply: conflicts on fields of the
      // last-applied configuration are taken over.
      field_set allowed = last_applied_fields(live_clean, root, o.ignored_fields);
      std::erase_if(found, [&](const auto& f) { return allowed.has(f.second.field); });
    }
    if (!found.empty()) {
      std::stable_sort(found.begin(), found.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      apply_result r;
      r.code = 409;
      for (auto& f : found) r.conflicts.push_back(std::move(f.second));
      r.message = conflict_message(r.conflicts);
      return r;
    }
  }
  for (auto& m : managers) {
    auto it = conflict_sets.find(m.identifier());
    if (it != conflict_sets.end()) m.fields = m.fields.difference(it->second);
    m.fields = m.fields.difference(removed);
  }

  apply_result r;
  r.changed = !k8s::json_equal(live_clean, merged);
  if (r.changed) me.time = o.now;
  managers.push_back(std::move(me));

  if (o.manager == "kubectl" && live &&
      k8s::find(*live, {"metadata", "annotations", kLastApplied})) {
    json_value& ann = k8s::ensure_object(merged, {"metadata", "annotations"}, merged.GetAllocator());
    k8s::set_member(ann, kLastApplied,
                    k8s::make_string(last_applied_value(config), merged.GetAllocator()),
                    merged.GetAllocator());
  }
  set_managed_fields(merged, std::move(managers), merged.GetAllocator());
  r.object = std::move(merged);
  r.ok = true;
  return r;
}

apply_result update_managed_fields(const json_value* old, const json_value& updated,
                                   const update_options& o) {
  schema_ptr root = root_of(o.schema);
  std::vector<managed_fields_entry> managers;
  const json_value* requested = k8s::find(updated, {"metadata", "managedFields"});
  std::string err;
  bool reset = false;
  if (requested && requested->IsArray()) {
    // [] and [{}] reset managedFields (isResetManagedFields).
    reset = requested->Size() == 0 ||
            (requested->Size() == 1 && (*requested)[0].IsObject() && (*requested)[0].MemberCount() == 0);
  }
  if (!reset && requested && requested->IsArray()) {
    auto decoded = read_managed_fields(updated, &err);
    if (!decoded) return failure(400, err);
    managers = std::move(*decoded);
  } else if (!reset && old) {
    auto decoded = read_managed_fields(*old);
    if (decoded) managers = std::move(*decoded);
  }
  if (old && managers.empty()) {
    // An existing object without managedFields stays untracked
    // (skipNonAppliedManager): only a create starts tracking.
    apply_result r;
    r.object = k8s::copy_document(updated);
    if (json_value* meta = k8s::member(r.object, "metadata"))
      k8s::remove_member(*meta, "managedFields");
    json_document before = cleaned(*old, {});
    json_document after = cleaned(updated, {});
    r.changed = !k8s::json_equal(before, after);
    r.ok = true;
    return r;
  }

  json_document before;
  if (old) {
    before = cleaned(*old, {});
  } else {
    auto empty = k8s::parse_json(o.schema.empty_object);
    before = empty ? std::move(*empty) : json_document();
    if (!before.IsObject()) before.SetObject();
  }
  json_document after = cleaned(updated, {});

  comparison cmp = compare(&before, &after, root);
  field_set changed = filter(cmp.modified.union_with(cmp.added), o.ignored_fields);
  field_set removed = filter(cmp.removed, o.ignored_fields);

  managed_fields_entry me;
  me.manager = o.manager;
  me.operation = "Update";
  me.api_version = o.api_version;
  me.subresource = o.subresource;
  for (auto& m : managers) m.fields = m.fields.difference(removed).difference(changed);
  if (!changed.empty()) {
    if (auto* prev = find_entry(managers, me)) {
      prev->fields = prev->fields.union_with(changed);
      prev->time = o.now;
    } else {
      me.fields = changed;
      me.time = o.now;
      managers.push_back(std::move(me));
    }
  }

  cap_update_managers(managers);

  apply_result r;
  r.changed = !k8s::json_equal(before, after);
  json_document out = k8s::copy_document(updated);
  set_managed_fields(out, std::move(managers), out.GetAllocator());
  r.object = std::move(out);
  r.ok = true;
  return r;
}

}  // namespace c5c3::sim::ssa
