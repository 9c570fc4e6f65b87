#include "k8s/object.hpp"

#include "k8s/compact_json.hpp"

#include <algorithm>
#include <stdexcept>

namespace c5c3::k8s {
namespace {

const json_value& null_value() {
  static const json_value v;
  return v;
}

condition condition_from_json(const json_value& v) {
  condition c;
  c.type = k8s::get_string(v, {"type"});
  c.status = k8s::get_string(v, {"status"});
  c.reason = k8s::get_string(v, {"reason"});
  c.message = k8s::get_string(v, {"message"});
  c.last_transition_time = k8s::get_string(v, {"lastTransitionTime"});
  c.observed_generation = get_int(v, {"observedGeneration"}).value_or(0);
  return c;
}

std::map<std::string, std::string> string_map(const json_value* v) {
  std::map<std::string, std::string> out;
  if (!v || !v->IsObject()) return out;
  for (auto& m : v->GetObject())
    if (m.value.IsString()) out.emplace(as_string_view(m.name), as_string_view(m.value));
  return out;
}

json_value* walk_create(json_value& root, std::initializer_list<std::string_view> path,
                        json_allocator& alloc) {
  // All but the last segment as objects; returns the parent.
  json_value* cur = &root;
  if (!cur->IsObject()) cur->SetObject();
  auto it = path.begin();
  for (std::size_t i = 0; i + 1 < path.size(); ++i, ++it) {
    json_value* next = member(*cur, *it);
    if (!next) {
      cur->AddMember(make_string(*it, alloc), json_value(rapidjson::kObjectType), alloc);
      next = member(*cur, *it);
    } else if (!next->IsObject()) {
      next->SetObject();
    }
    cur = next;
  }
  return cur;
}

}  // namespace

std::string gvk::api_version() const { return group.empty() ? version : group + "/" + version; }

gvk gvk::from_api_version(std::string_view api_version, std::string_view kind) {
  gvk out;
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    out.version = api_version;
  } else {
    out.group = api_version.substr(0, slash);
    out.version = api_version.substr(slash + 1);
  }
  out.kind = kind;
  return out;
}

object::object(json_document&& doc) {
  if (!doc.IsObject()) throw std::invalid_argument("a Kubernetes object must be a JSON object");
  doc_ = compact_copy(doc);
}

std::optional<object> object::parse(std::string_view text, std::string* error) {
  auto doc = parse_json(text, error);
  if (!doc) return std::nullopt;
  if (!doc->IsObject()) {
    if (error) *error = "expected a JSON object";
    return std::nullopt;
  }
  return object(std::move(*doc));
}

const json_value& object::json() const { return doc_ ? *doc_ : null_value(); }


std::string_view object::api_version() const { return k8s::get_string(json(), {"apiVersion"}); }
std::string_view object::kind() const { return k8s::get_string(json(), {"kind"}); }
gvk object::gvk() const { return gvk::from_api_version(api_version(), kind()); }

std::string_view object::name() const { return k8s::get_string(json(), {"metadata", "name"}); }
std::string_view object::namespace_() const {
  return k8s::get_string(json(), {"metadata", "namespace"});
}
std::string_view object::generate_name() const {
  return k8s::get_string(json(), {"metadata", "generateName"});
}
std::string_view object::uid() const { return k8s::get_string(json(), {"metadata", "uid"}); }
std::string_view object::resource_version() const {
  return k8s::get_string(json(), {"metadata", "resourceVersion"});
}
std::int64_t object::generation() const {
  return get_int(json(), {"metadata", "generation"}).value_or(0);
}
std::string_view object::creation_timestamp() const {
  return k8s::get_string(json(), {"metadata", "creationTimestamp"});
}
std::string_view object::deletion_timestamp() const {
  return k8s::get_string(json(), {"metadata", "deletionTimestamp"});
}

std::optional<std::string_view> object::label(std::string_view key) const {
  const json_value* labels = find(json(), {"metadata", "labels"});
  const json_value* v = labels ? member(*labels, key) : nullptr;
  if (!v || !v->IsString()) return std::nullopt;
  return as_string_view(*v);
}

std::optional<std::string_view> object::annotation(std::string_view key) const {
  const json_value* ann = find(json(), {"metadata", "annotations"});
  const json_value* v = ann ? member(*ann, key) : nullptr;
  if (!v || !v->IsString()) return std::nullopt;
  return as_string_view(*v);
}

std::map<std::string, std::string> object::labels() const {
  return string_map(find(json(), {"metadata", "labels"}));
}
std::map<std::string, std::string> object::annotations() const {
  return string_map(find(json(), {"metadata", "annotations"}));
}

std::vector<std::string> object::finalizers() const {
  std::vector<std::string> out;
  const json_value* f = find(json(), {"metadata", "finalizers"});
  if (f && f->IsArray())
    for (auto& v : f->GetArray())
      if (v.IsString()) out.emplace_back(as_string_view(v));
  return out;
}

bool object::has_finalizer(std::string_view name) const {
  const json_value* f = find(json(), {"metadata", "finalizers"});
  if (!f || !f->IsArray()) return false;
  for (auto& v : f->GetArray())
    if (v.IsString() && as_string_view(v) == name) return true;
  return false;
}

std::vector<owner_reference> object::owner_references() const {
  std::vector<owner_reference> out;
  const json_value* refs = find(json(), {"metadata", "ownerReferences"});
  if (!refs || !refs->IsArray()) return out;
  for (auto& r : refs->GetArray()) {
    owner_reference o;
    o.api_version = k8s::get_string(r, {"apiVersion"});
    o.kind = k8s::get_string(r, {"kind"});
    o.name = k8s::get_string(r, {"name"});
    o.uid = k8s::get_string(r, {"uid"});
    o.controller = get_bool(r, {"controller"}).value_or(false);
    o.block_owner_deletion = get_bool(r, {"blockOwnerDeletion"}).value_or(false);
    out.push_back(std::move(o));
  }
  return out;
}

std::optional<owner_reference> object::controller_reference() const {
  for (auto& r : owner_references())
    if (r.controller) return r;
  return std::nullopt;
}

std::vector<condition> object::conditions() const {
  std::vector<condition> out;
  const json_value* conds = find(json(), {"status", "conditions"});
  if (conds && conds->IsArray())
    for (auto& c : conds->GetArray())
      if (c.IsObject()) out.push_back(condition_from_json(c));
  return out;
}

std::optional<condition> object::find_condition(std::string_view type) const {
  const json_value* conds = find(json(), {"status", "conditions"});
  if (conds && conds->IsArray())
    for (auto& c : conds->GetArray())
      if (k8s::get_string(c, {"type"}) == type) return condition_from_json(c);
  return std::nullopt;
}

const json_value* object::get(std::initializer_list<std::string_view> path) const {
  return find(json(), path);
}

std::string_view object::get_string(std::initializer_list<std::string_view> path,
                                    std::string_view fallback) const {
  return k8s::get_string(json(), path, fallback);
}

object_builder object::edit() const {
  if (!json().IsObject()) return object_builder();
  return object_builder(copy_document(json()));
}

// ---- object_builder ---------------------------------------------------------

object_builder::object_builder() { doc_.SetObject(); }

object_builder::object_builder(json_document&& doc) : doc_(std::move(doc)) {
  if (!doc_.IsObject()) doc_.SetObject();
}

object_builder::object_builder(std::string_view api_version, std::string_view kind,
                               std::string_view namespace_, std::string_view name) {
  doc_.SetObject();
  set_api_version_kind(api_version, kind);
  set_name(name);
  if (!namespace_.empty()) set_namespace(namespace_);
}

object_builder& object_builder::set_api_version_kind(std::string_view api_version,
                                                     std::string_view kind) {
  set_member(doc_, "apiVersion", make_string(api_version, alloc()), alloc());
  set_member(doc_, "kind", make_string(kind, alloc()), alloc());
  return *this;
}

object_builder& object_builder::set_name(std::string_view name) {
  return set_string({"metadata", "name"}, name);
}
object_builder& object_builder::set_namespace(std::string_view ns) {
  return set_string({"metadata", "namespace"}, ns);
}
object_builder& object_builder::set_resource_version(std::string_view rv) {
  return set_string({"metadata", "resourceVersion"}, rv);
}

object_builder& object_builder::set_label(std::string_view key, std::string_view value) {
  auto& labels = ensure_object(doc_, {"metadata", "labels"}, alloc());
  set_member(labels, key, make_string(value, alloc()), alloc());
  return *this;
}

object_builder& object_builder::remove_label(std::string_view key) {
  if (json_value* labels = member(doc_, "metadata")) {
    if (json_value* l = member(*labels, "labels")) remove_member(*l, key);
  }
  return *this;
}

object_builder& object_builder::set_annotation(std::string_view key, std::string_view value) {
  auto& ann = ensure_object(doc_, {"metadata", "annotations"}, alloc());
  set_member(ann, key, make_string(value, alloc()), alloc());
  return *this;
}

object_builder& object_builder::remove_annotation(std::string_view key) {
  if (json_value* meta = member(doc_, "metadata")) {
    if (json_value* a = member(*meta, "annotations")) remove_member(*a, key);
  }
  return *this;
}

object_builder& object_builder::add_finalizer(std::string_view f, bool* changed) {
  auto& meta = ensure_object(doc_, {"metadata"}, alloc());
  json_value* list = member(meta, "finalizers");
  if (!list || !list->IsArray()) {
    set_member(meta, "finalizers", json_value(rapidjson::kArrayType), alloc());
    list = member(meta, "finalizers");
  }
  for (auto& v : list->GetArray())
    if (v.IsString() && as_string_view(v) == f) {
      if (changed) *changed = false;
      return *this;
    }
  list->PushBack(make_string(f, alloc()), alloc());
  if (changed) *changed = true;
  return *this;
}

object_builder& object_builder::remove_finalizer(std::string_view f, bool* changed) {
  bool did = false;
  if (json_value* meta = member(doc_, "metadata")) {
    json_value* list = member(*meta, "finalizers");
    if (list && list->IsArray()) {
      for (auto it = list->Begin(); it != list->End();) {
        if (it->IsString() && as_string_view(*it) == f) {
          it = list->Erase(it);
          did = true;
        } else {
          ++it;
        }
      }
    }
  }
  if (changed) *changed = did;
  return *this;
}

object_builder& object_builder::add_owner_reference(const owner_reference& ref) {
  auto& meta = ensure_object(doc_, {"metadata"}, alloc());
  json_value* list = member(meta, "ownerReferences");
  if (!list || !list->IsArray()) {
    set_member(meta, "ownerReferences", json_value(rapidjson::kArrayType), alloc());
    list = member(meta, "ownerReferences");
  }
  json_value r(rapidjson::kObjectType);
  r.AddMember("apiVersion", make_string(ref.api_version, alloc()), alloc());
  r.AddMember("kind", make_string(ref.kind, alloc()), alloc());
  r.AddMember("name", make_string(ref.name, alloc()), alloc());
  r.AddMember("uid", make_string(ref.uid, alloc()), alloc());
  if (ref.controller) r.AddMember("controller", true, alloc());
  if (ref.block_owner_deletion) r.AddMember("blockOwnerDeletion", true, alloc());
  list->PushBack(r, alloc());
  return *this;
}

object_builder& object_builder::set(std::initializer_list<std::string_view> path,
                                    json_value&& value) {
  if (path.size() == 0) return *this;
  json_value* parent = walk_create(doc_, path, alloc());
  set_member(*parent, *(path.end() - 1), std::move(value), alloc());
  return *this;
}

object_builder& object_builder::set_string(std::initializer_list<std::string_view> path,
                                           std::string_view v) {
  return set(path, make_string(v, alloc()));
}
object_builder& object_builder::set_int(std::initializer_list<std::string_view> path,
                                        std::int64_t v) {
  return set(path, json_value(static_cast<int64_t>(v)));
}
object_builder& object_builder::set_bool(std::initializer_list<std::string_view> path, bool v) {
  return set(path, json_value(v));
}

object_builder& object_builder::remove(std::initializer_list<std::string_view> path) {
  if (path.size() == 0) return *this;
  json_value* cur = &doc_;
  auto it = path.begin();
  for (std::size_t i = 0; i + 1 < path.size(); ++i, ++it) {
    cur = member(*cur, *it);
    if (!cur) return *this;
  }
  remove_member(*cur, *(path.end() - 1));
  return *this;
}

object object_builder::freeze() && { return object(std::move(doc_)); }

// ---- conditions -------------------------------------------------------------

json_value condition_to_json(const condition& c, json_allocator& alloc) {
  json_value v(rapidjson::kObjectType);
  v.AddMember("type", make_string(c.type, alloc), alloc);
  v.AddMember("status", make_string(c.status, alloc), alloc);
  if (c.observed_generation != 0)
    v.AddMember("observedGeneration", json_value(static_cast<int64_t>(c.observed_generation)), alloc);
  v.AddMember("lastTransitionTime", make_string(c.last_transition_time, alloc), alloc);
  v.AddMember("reason", make_string(c.reason, alloc), alloc);
  v.AddMember("message", make_string(c.message, alloc), alloc);
  return v;
}

bool set_condition(std::vector<condition>& conds, condition c, time_point now) {
  auto it = std::find_if(conds.begin(), conds.end(), [&](auto& x) { return x.type == c.type; });
  if (it == conds.end()) {
    if (c.last_transition_time.empty()) c.last_transition_time = format_rfc3339(now);
    conds.push_back(std::move(c));
    return true;
  }
  if (it->status != c.status) {
    c.last_transition_time =
        c.last_transition_time.empty() ? format_rfc3339(now) : c.last_transition_time;
  } else {
    c.last_transition_time = it->last_transition_time;
  }
  if (*it == c) return false;
  *it = std::move(c);
  return true;
}

void write_conditions(object_builder& b, const std::vector<condition>& conds) {
  json_value arr(rapidjson::kArrayType);
  for (auto& c : conds) arr.PushBack(condition_to_json(c, b.alloc()), b.alloc());
  b.set({"status", "conditions"}, std::move(arr));
}

bool set_condition(object_builder& b, condition c, time_point now) {
  std::vector<condition> conds;
  if (const json_value* arr = find(b.doc(), {"status", "conditions"}); arr && arr->IsArray())
    for (auto& v : arr->GetArray())
      if (v.IsObject()) conds.push_back(condition_from_json(v));
  if (!set_condition(conds, std::move(c), now)) return false;
  write_conditions(b, conds);
  return true;
}

}  // namespace c5c3::k8s
