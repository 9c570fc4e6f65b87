#include "k8s/patch.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstddef>

namespace c5c3::k8s {

// ---- JSON merge patch ----

void apply_merge_patch(json_value& target, const json_value& patch, json_allocator& alloc) {
  if (!patch.IsObject()) {
    target.CopyFrom(patch, alloc);
    return;
  }
  if (!target.IsObject()) target.SetObject();
  for (auto& m : patch.GetObject()) {
    std::string_view name = as_string_view(m.name);
    if (m.value.IsNull()) {
      remove_member(target, name);
      continue;
    }
    json_value* existing = member(target, name);
    if (!existing) {
      json_value fresh(rapidjson::kNullType);
      apply_merge_patch(fresh, m.value, alloc);
      target.AddMember(make_string(name, alloc), fresh, alloc);
    } else {
      apply_merge_patch(*existing, m.value, alloc);
    }
  }
}

json_document merge_patched(const json_value& target, const json_value& patch) {
  json_document out = copy_document(target);
  apply_merge_patch(out, patch, out.GetAllocator());
  return out;
}

namespace {

// Fills `out` (an object) with the members turning `from` into `to`.
void diff_objects(const json_value& from, const json_value& to, json_value& out,
                  json_allocator& alloc) {
  for (auto& m : from.GetObject()) {
    if (!member(to, as_string_view(m.name)))
      out.AddMember(json_value(m.name, alloc), json_value(rapidjson::kNullType), alloc);
  }
  for (auto& m : to.GetObject()) {
    const json_value* old = member(from, as_string_view(m.name));
    if (old && old->IsObject() && m.value.IsObject()) {
      json_value sub(rapidjson::kObjectType);
      diff_objects(*old, m.value, sub, alloc);
      if (sub.MemberCount() > 0) out.AddMember(json_value(m.name, alloc), sub, alloc);
    } else if (!old || !json_equal(*old, m.value)) {
      out.AddMember(json_value(m.name, alloc), json_value(m.value, alloc), alloc);
    }
  }
}

}  // namespace

json_document create_merge_patch(const json_value& from, const json_value& to) {
  json_document out;
  if (!from.IsObject() || !to.IsObject()) {
    out.CopyFrom(to, out.GetAllocator());
    return out;
  }
  out.SetObject();
  diff_objects(from, to, out, out.GetAllocator());
  return out;
}

// ---- JSON pointer ----

std::optional<std::vector<std::string>> parse_json_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  std::string cur;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    char c = pointer[i];
    if (c == '~') {
      if (i + 1 >= pointer.size()) return std::nullopt;
      char e = pointer[++i];
      if (e == '0')
        cur += '~';
      else if (e == '1')
        cur += '/';
      else
        return std::nullopt;
    } else {
      cur += c;
    }
  }
  return tokens;
}

namespace {

// An array index token: digits without a leading zero (except "0" itself).
std::optional<std::size_t> parse_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  std::size_t n = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
  if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
  return n;
}

json_value* step(json_value& v, const std::string& token) {
  if (v.IsObject()) return member(v, token);
  if (v.IsArray()) {
    auto i = parse_index(token);
    if (!i || *i >= v.Size()) return nullptr;
    return &v[static_cast<rapidjson::SizeType>(*i)];
  }
  return nullptr;
}

json_value* resolve(json_value& doc, const std::vector<std::string>& tokens, std::size_t count) {
  json_value* cur = &doc;
  for (std::size_t i = 0; i < count && cur; ++i) cur = step(*cur, tokens[i]);
  return cur;
}

// Adds `value` at `tokens` (RFC 6902 4.1). Returns an error text or empty.
std::string add_at(json_document& doc, const std::vector<std::string>& tokens, json_value&& value,
                   std::string_view path) {
  if (tokens.empty()) {
    static_cast<json_value&>(doc) = std::move(value);
    return {};
  }
  json_value* parent = resolve(doc, tokens, tokens.size() - 1);
  if (!parent)
    return fmt::format("add operation does not apply: doc is missing path: \"{}\": missing value",
                       path);
  const std::string& last = tokens.back();
  auto& alloc = doc.GetAllocator();
  if (parent->IsObject()) {
    set_member(*parent, last, std::move(value), alloc);
    return {};
  }
  if (parent->IsArray()) {
    std::size_t index = parent->Size();
    if (last != "-") {
      auto i = parse_index(last);
      if (!i || *i > parent->Size())
        return fmt::format(
            "error in add for path: '{}': Unable to access invalid index: {}: invalid index "
            "referenced",
            path, last);
      index = *i;
    }
    parent->PushBack(json_value(rapidjson::kNullType), alloc);
    for (std::size_t k = parent->Size() - 1; k > index; --k)
      (*parent)[static_cast<rapidjson::SizeType>(k)] =
          std::move((*parent)[static_cast<rapidjson::SizeType>(k - 1)]);
    (*parent)[static_cast<rapidjson::SizeType>(index)] = std::move(value);
    return {};
  }
  return fmt::format("add operation does not apply: doc is missing path: \"{}\": missing value",
                     path);
}

// Removes and returns the value at `tokens`; nullopt when there is none.
std::optional<json_value> remove_at(json_document& doc, const std::vector<std::string>& tokens) {
  if (tokens.empty()) {
    json_value out(std::move(static_cast<json_value&>(doc)));
    doc.SetNull();
    return out;
  }
  json_value* parent = resolve(doc, tokens, tokens.size() - 1);
  if (!parent) return std::nullopt;
  const std::string& last = tokens.back();
  if (parent->IsObject()) {
    auto it = parent->FindMember(json_value(rapidjson::StringRef(last.data(), last.size())));
    if (it == parent->MemberEnd()) return std::nullopt;
    json_value out(std::move(it->value));
    parent->RemoveMember(it);
    return out;
  }
  if (parent->IsArray()) {
    auto i = parse_index(last);
    if (!i || *i >= parent->Size()) return std::nullopt;
    auto it = parent->Begin() + *i;
    json_value out(std::move(*it));
    parent->Erase(it);
    return out;
  }
  return std::nullopt;
}

std::string string_member(const json_value& op, const char* name, bool* present) {
  const json_value* v = member(op, name);
  *present = v && v->IsString();
  return *present ? std::string(as_string_view(*v)) : std::string();
}

// Applies one operation to `doc`; returns an error text or empty.
std::string apply_one(json_document& doc, const json_value& op, std::size_t n) {
  if (!op.IsObject()) return fmt::format("operation {} is not a JSON object", n);
  bool has_op = false, has_path = false, has_from = false;
  std::string kind = string_member(op, "op", &has_op);
  std::string path = string_member(op, "path", &has_path);
  std::string from = string_member(op, "from", &has_from);
  if (!has_op) return std::string("Unexpected kind: unknown");
  if (!has_path) return fmt::format("{} operation {} has no \"path\"", kind, n);
  auto tokens = parse_json_pointer(path);
  if (!tokens) return fmt::format("{} operation has an invalid path \"{}\"", kind, path);
  const json_value* value = member(op, "value");
  auto& alloc = doc.GetAllocator();

  if (kind == "add" || kind == "replace" || kind == "test") {
    if (!value) return fmt::format("{} operation at \"{}\" has no \"value\"", kind, path);
  }
  if (kind == "add") return add_at(doc, *tokens, json_value(*value, alloc), path);
  if (kind == "remove") {
    if (tokens->empty() || !remove_at(doc, *tokens))
      return fmt::format(
          "remove operation does not apply: doc is missing path: \"{}\": missing value", path);
    return {};
  }
  if (kind == "replace") {
    json_value* target = resolve(doc, *tokens, tokens->size());
    // kube-apiserver applies JSON patches with evanphx/json-patch v4, whose replace of a
    // missing key in an existing object sets it (only a missing parent is an error).
    json_value* parent = tokens->empty() ? nullptr : resolve(doc, *tokens, tokens->size() - 1);
    if (!target && parent && parent->IsObject())
      return add_at(doc, *tokens, json_value(*value, alloc), path);
    if (!target)
      return fmt::format("replace operation does not apply: doc is missing key: {}: missing value",
                         path);
    target->CopyFrom(*value, alloc);
    return {};
  }
  if (kind == "test") {
    json_value* target = resolve(doc, *tokens, tokens->size());
    if (!target || !json_equal(*target, *value))
      return fmt::format("testing value {} failed: test failed", path);
    return {};
  }
  if (kind == "move" || kind == "copy") {
    if (!has_from) return fmt::format("{} operation at \"{}\" has no \"from\"", kind, path);
    auto from_tokens = parse_json_pointer(from);
    if (!from_tokens) return fmt::format("{} operation has an invalid from \"{}\"", kind, from);
    if (kind == "move") {
      if (path.size() > from.size() && path.compare(0, from.size(), from) == 0 &&
          path[from.size()] == '/')
        return fmt::format("move operation cannot move \"{}\" into its own child \"{}\"", from,
                           path);
      if (path == from) {
        if (!resolve(doc, *from_tokens, from_tokens->size()))
          return fmt::format(
              "move operation does not apply: doc is missing from path: {}: missing value", from);
        return {};
      }
      auto moved = remove_at(doc, *from_tokens);
      if (!moved)
        return fmt::format(
            "move operation does not apply: doc is missing from path: {}: missing value", from);
      return add_at(doc, *tokens, std::move(*moved), path);
    }
    json_value* source = resolve(doc, *from_tokens, from_tokens->size());
    if (!source)
      return fmt::format(
          "copy operation does not apply: doc is missing from path: {}: missing value", from);
    json_value copy(*source, alloc);
    return add_at(doc, *tokens, std::move(copy), path);
  }
  return fmt::format("Unexpected kind: {}", kind);
}

}  // namespace

const json_value* resolve_json_pointer(const json_value& doc, std::string_view pointer) {
  auto tokens = parse_json_pointer(pointer);
  if (!tokens) return nullptr;
  return resolve(const_cast<json_value&>(doc), *tokens, tokens->size());
}

std::optional<std::string> apply_json_patch(json_document& target, const json_value& patch) {
  if (!patch.IsArray())
    return std::string("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  json_document work = copy_document(target);
  std::size_t n = 0;
  for (auto& op : patch.GetArray()) {
    std::string err = apply_one(work, op, n++);
    if (!err.empty()) return err;
  }
  target.Swap(work);
  return std::nullopt;
}

}  // namespace c5c3::k8s
