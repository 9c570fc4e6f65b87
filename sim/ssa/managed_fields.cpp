#include "sim/ssa/managed_fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace c5c3::sim::ssa {

using k8s::json_allocator;
using k8s::json_value;

namespace {

// A JSON string as Go's encoding/json writes it (<, > and & escaped too).
std::string go_json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '<':
      case '>':
      case '&':
        out += fmt::format("\\u00{:02x}", c);
        break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u00{:02x}", c);
        else
          out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Go's %q for ordinary strings.
std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string str_member(const json_value& v, const char* name) {
  const json_value* m = k8s::member(v, name);
  return m && m->IsString() ? std::string(k8s::as_string_view(*m)) : std::string();
}

}  // namespace

std::string managed_fields_entry::identifier() const {
  // metav1.ManagedFieldsEntry field order, omitempty.
  std::string out = "{";
  auto add = [&](const char* name, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ',';
    out += fmt::format("\"{}\":{}", name, go_json_string(value));
  };
  add("manager", manager);
  add("operation", operation);
  if (operation != "Apply") add("apiVersion", api_version);
  add("subresource", subresource);
  return out + "}";
}

std::string managed_fields_entry::printed() const {
  std::string out = go_quote(manager);
  if (!subresource.empty()) out += " with subresource " + go_quote(subresource);
  if (operation == "Update") out += " using " + api_version;
  return out;
}

std::optional<std::vector<managed_fields_entry>> read_managed_fields(const json_value& object,
                                                                     std::string* error) {
  std::vector<managed_fields_entry> out;
  const json_value* list = k8s::find(object, {"metadata", "managedFields"});
  if (!list || list->IsNull()) return out;
  auto fail = [&](std::string msg) -> std::optional<std::vector<managed_fields_entry>> {
    if (error) *error = std::move(msg);
    return std::nullopt;
  };
  if (!list->IsArray()) return fail("metadata.managedFields must be a list");
  for (auto& e : list->GetArray()) {
    if (!e.IsObject()) return fail("metadata.managedFields entries must be objects");
    managed_fields_entry entry;
    entry.manager = str_member(e, "manager");
    entry.operation = str_member(e, "operation");
    entry.api_version = str_member(e, "apiVersion");
    entry.time = str_member(e, "time");
    entry.subresource = str_member(e, "subresource");
    std::string type = str_member(e, "fieldsType");
    if (type != "FieldsV1")
      return fail(fmt::format("invalid fieldsType {}: only FieldsV1 is supported",
                              go_quote(type)));
    if (const json_value* f = k8s::member(e, "fieldsV1")) {
      auto fs = field_set::from_fields_v1(*f);
      if (!fs) return fail("metadata.managedFields: invalid fieldsV1 of manager " +
                           go_quote(entry.manager));
      entry.fields = std::move(*fs);
    }
    auto same = std::find_if(out.begin(), out.end(), [&](const managed_fields_entry& x) {
      return x.identifier() == entry.identifier();
    });
    if (same != out.end()) {
      same->fields = same->fields.union_with(entry.fields);
      if (entry.time > same->time) same->time = entry.time;
    } else {
      out.push_back(std::move(entry));
    }
  }
  return out;
}

json_value write_managed_fields(std::vector<managed_fields_entry> entries, json_allocator& alloc) {
  std::erase_if(entries, [](const managed_fields_entry& e) { return e.fields.empty(); });
  std::stable_sort(entries.begin(), entries.end(),
                   [](const managed_fields_entry& a, const managed_fields_entry& b) {
                     return std::tie(a.operation, a.time, a.manager, a.api_version,
                                     a.subresource) < std::tie(b.operation, b.time, b.manager,
                                                               b.api_version, b.subresource);
                   });
  json_value out(rapidjson::kArrayType);
  for (const auto& e : entries) {
    json_value o(rapidjson::kObjectType);
    o.AddMember("manager", k8s::make_string(e.manager, alloc), alloc);
    o.AddMember("operation", k8s::make_string(e.operation, alloc), alloc);
    if (!e.api_version.empty())
      o.AddMember("apiVersion", k8s::make_string(e.api_version, alloc), alloc);
    if (!e.time.empty()) o.AddMember("time", k8s::make_string(e.time, alloc), alloc);
    o.AddMember("fieldsType", "FieldsV1", alloc);
    o.AddMember("fieldsV1", e.fields.to_fields_v1(alloc), alloc);
    if (!e.subresource.empty())
      o.AddMember("subresource", k8s::make_string(e.subresource, alloc), alloc);
    out.PushBack(o, alloc);
  }
  return out;
}

void cap_update_managers(std::vector<managed_fields_entry>& entries, std::size_t max) {
  std::vector<std::string> updaters;
  for (const auto& e : entries)
    if (e.operation != "Apply") updaters.push_back(e.identifier());
  if (updaters.size() <= max) return;
  auto find = [&](const std::string& id) {
    return std::find_if(entries.begin(), entries.end(),
                        [&](const managed_fields_entry& e) { return e.identifier() == id; });
  };
  auto time_of = [&](const std::string& id) { return find(id)->time; };
  std::stable_sort(updaters.begin(), updaters.end(), [&](const std::string& a, const std::string& b) {
    auto ta = time_of(a), tb = time_of(b);
    return ta != tb ? ta < tb : a < b;
  });
  std::map<std::string, std::string> first_of_version;
  std::size_t length = updaters.size();
  for (std::size_t i = 0; i < updaters.size() && length > max; ++i) {
    auto it = find(updaters[i]);
    if (it == entries.end()) continue;
    managed_fields_entry merged_in = *it;
    managed_fields_entry bucket_id;
    bucket_id.manager = "ancient-changes";
    bucket_id.operation = "Update";
    bucket_id.api_version = merged_in.api_version;
    auto first = first_of_version.find(merged_in.api_version);
    if (first == first_of_version.end()) {
      first_of_version.emplace(merged_in.api_version, updaters[i]);
      continue;
    }
    auto bucket = find(bucket_id.identifier());
    if (bucket == entries.end()) {
      // The first entry of this version becomes the bucket.
      auto f = find(first->second);
      f->manager = bucket_id.manager;
      f->subresource.clear();
      bucket = f;
    }
    bucket->fields = merged_in.fields.union_with(bucket->fields);
    bucket->time = merged_in.time;
    entries.erase(find(updaters[i]));
    --length;
  }
}

void set_managed_fields(json_value& object, std::vector<managed_fields_entry> entries,
                        json_allocator& alloc) {
  json_value list = write_managed_fields(std::move(entries), alloc);
  if (list.Empty()) {
    if (json_value* meta = k8s::member(object, "metadata")) k8s::remove_member(*meta, "managedFields");
    return;
  }
  json_value& meta = k8s::ensure_object(object, {"metadata"}, alloc);
  k8s::set_member(meta, "managedFields", std::move(list), alloc);
}

}  // namespace c5c3::sim::ssa
