#include "k8s/json.hpp"
#include "k8s/json_answer.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

namespace c5c3::k8s {

namespace {

// The deepest nesting of objects and arrays in `text` (strings skipped); stops
// counting once past `limit`.
std::size_t nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escape = false;
  for (char c : text) {
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) break;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

bool has_duplicate_names(const json_value& obj) {
  // A Kubernetes object's objects are small: comparing each pair costs less
  // than sorting a copy of the names.
  if (obj.MemberCount() <= 16) {
    for (auto a = obj.MemberBegin(); a != obj.MemberEnd(); ++a)
      for (auto b = a + 1; b != obj.MemberEnd(); ++b)
        if (as_string_view(a->name) == as_string_view(b->name)) return true;
    return false;
  }
  std::vector<std::string_view> names;
  names.reserve(obj.MemberCount());
  for (const auto& m : obj.GetObject()) names.push_back(as_string_view(m.name));
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

// What Go's encoding/json makes of a document: of duplicate object keys the
// last is kept (RapidJSON keeps them all and FindMember finds the first), and
// a number a double cannot hold is an error (RapidJSON reads it as infinity,
// which its writer then cannot write). False for such a number.
bool normalize(json_value& v, duplicate_keys duplicates) {
  if (v.IsDouble()) return std::isfinite(v.GetDouble());
  if (v.IsArray()) {
    for (auto& item : v.GetArray())
      if (!normalize(item, duplicates)) return false;
    return true;
  }
  if (!v.IsObject()) return true;
  if (duplicates == duplicate_keys::last_wins && v.MemberCount() > 1 && has_duplicate_names(v)) {
    std::map<std::string, rapidjson::SizeType> last;
    rapidjson::SizeType i = 0;
    for (const auto& m : v.GetObject()) last[std::string(as_string_view(m.name))] = i++;
    std::vector<bool> drop(v.MemberCount(), false);
    i = 0;
    for (const auto& m : v.GetObject()) {
      drop[i] = last[std::string(as_string_view(m.name))] != i;
      ++i;
    }
    for (auto j = static_cast<rapidjson::SizeType>(drop.size()); j-- > 0;)
      if (drop[j]) v.EraseMember(v.MemberBegin() + j);
  }
  for (auto& m : v.GetObject())
    if (!normalize(m.value, duplicates)) return false;
  return true;
}

}  // namespace

namespace {

template <unsigned Flags>
std::optional<json_document> parse_with(std::string_view text, std::string* error, duplicate_keys duplicates,
                                        bool depth_checked = false) {
  if (!depth_checked && nesting_depth(text, max_json_depth) > max_json_depth) {
    if (error) *error = fmt::format("invalid JSON: nested deeper than {} levels", max_json_depth);
    return std::nullopt;
  }
  json_document doc;
  // Not kParseFullPrecisionFlag: RapidJSON 1.1's full-precision path calls
  // __builtin_clzll(0) on some inputs (UB, found by fuzzing). The default may
  // read a double 1 ULP off where Go's parser is exact.
  doc.Parse<Flags>(text.data(), text.size());
  if (doc.HasParseError()) {
    if (error)
      *error = fmt::format("invalid JSON at offset {}: {}", doc.GetErrorOffset(),
                           rapidjson::GetParseError_En(doc.GetParseError()));
    return std::nullopt;
  }
  if (!normalize(doc, duplicates)) {
    if (error) *error = "invalid JSON: a number is out of the range of a double";
    return std::nullopt;
  }
  return doc;
}

// No byte above 0x7f: valid UTF-8 as it stands, with nothing to validate.
// Eight bytes a turn; nearly every answer of a Kubernetes API server is ASCII.
bool ascii_only(std::string_view text) {
  std::uint64_t high = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    high |= word;
  }
  for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
  return (high & 0x8080808080808080ull) == 0;
}

std::optional<json_document> parse_answer(std::string_view text, std::string* error, bool depth_checked) {
  if (ascii_only(text))
    return parse_with<rapidjson::kParseDefaultFlags>(text, error, duplicate_keys::last_wins, depth_checked);
  return parse_with<rapidjson::kParseValidateEncodingFlag>(text, error, duplicate_keys::last_wins, depth_checked);
}

}  // namespace

std::optional<json_document> parse_json(std::string_view text, std::string* error, duplicate_keys duplicates) {
  return parse_with<rapidjson::kParseDefaultFlags>(text, error, duplicates);
}

std::optional<json_document> parse_answer_json(std::string_view text, std::string* error) {
  return parse_answer(text, error, false);
}

std::optional<json_document> parse_answer_json_within_depth(std::string_view text, std::string* error) {
  return parse_answer(text, error, true);
}

std::string to_json(const json_value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  v.Accept(w);
  return {buf.GetString(), buf.GetSize()};
}

std::string to_pretty_json(const json_value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
  w.SetIndent(' ', 2);
  v.Accept(w);
  return {buf.GetString(), buf.GetSize()};
}

json_value copy_json(const json_value& v, json_allocator& alloc) {
  // RapidJSON 1.1 copies every non-literal string; literal names stay shared,
  // which is safe because they are static.
  return json_value(v, alloc);
}

json_document copy_document(const json_value& v) {
  json_document d;
  d.CopyFrom(v, d.GetAllocator());
  return d;
}

json_value make_string(std::string_view s, json_allocator& alloc) {
  json_value out;
  out.SetString(s.data(), static_cast<rapidjson::SizeType>(s.size()), alloc);
  return out;
}

const json_value* member(const json_value& v, std::string_view name) {
  if (!v.IsObject()) return nullptr;
  auto it = v.FindMember(json_value(rapidjson::StringRef(name.data(), name.size())));
  return it == v.MemberEnd() ? nullptr : &it->value;
}

json_value* member(json_value& v, std::string_view name) {
  if (!v.IsObject()) return nullptr;
  auto it = v.FindMember(json_value(rapidjson::StringRef(name.data(), name.size())));
  return it == v.MemberEnd() ? nullptr : &it->value;
}

const json_value* find(const json_value& v, std::initializer_list<std::string_view> path) {
  const json_value* cur = &v;
  for (auto name : path) {
    cur = member(*cur, name);
    if (!cur) return nullptr;
  }
  return cur;
}

std::string_view get_string(const json_value& v, std::initializer_list<std::string_view> path,
                            std::string_view fallback) {
  const json_value* p = find(v, path);
  return p && p->IsString() ? as_string_view(*p) : fallback;
}

std::optional<std::int64_t> get_int(const json_value& v,
                                    std::initializer_list<std::string_view> path) {
  const json_value* p = find(v, path);
  if (!p) return std::nullopt;
  if (p->IsInt64()) return p->GetInt64();
  if (p->IsDouble()) {
    // Only a whole number inside int64's range converts (a cast outside it is
    // undefined behaviour; found by fuzzing: "generation": 4e31).
    double d = p->GetDouble();
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return std::nullopt;
    auto i = static_cast<std::int64_t>(d);
    if (static_cast<double>(i) == d) return i;
  }
  return std::nullopt;
}

std::optional<bool> get_bool(const json_value& v, std::initializer_list<std::string_view> path) {
  const json_value* p = find(v, path);
  if (!p || !p->IsBool()) return std::nullopt;
  return p->GetBool();
}

json_value& ensure_object(json_value& v, std::initializer_list<std::string_view> path,
                          json_allocator& alloc) {
  if (!v.IsObject()) v.SetObject();
  json_value* cur = &v;
  for (auto name : path) {
    json_value* next = member(*cur, name);
    if (!next) {
      cur->AddMember(make_string(name, alloc), json_value(rapidjson::kObjectType), alloc);
      next = member(*cur, name);
    } else if (!next->IsObject()) {
      next->SetObject();
    }
    cur = next;
  }
  return *cur;
}

void set_member(json_value& obj, std::string_view name, json_value&& value,
                json_allocator& alloc) {
  if (!obj.IsObject()) obj.SetObject();
  if (json_value* existing = member(obj, name)) {
    *existing = std::move(value);
    return;
  }
  obj.AddMember(make_string(name, alloc), value, alloc);
}

bool remove_member(json_value& obj, std::string_view name) {
  if (!obj.IsObject()) return false;
  return obj.RemoveMember(json_value(rapidjson::StringRef(name.data(), name.size())));
}

bool json_equal(const json_value& a, const json_value& b) {
  if (a.IsNumber() && b.IsNumber()) {
    if (a.IsInt64() && b.IsInt64()) return a.GetInt64() == b.GetInt64();
    if (a.IsUint64() && b.IsUint64()) return a.GetUint64() == b.GetUint64();
    return a.GetDouble() == b.GetDouble();
  }
  if (a.GetType() != b.GetType()) return false;
  switch (a.GetType()) {
    case rapidjson::kObjectType: {
      if (a.MemberCount() != b.MemberCount()) return false;
      for (auto& m : a.GetObject()) {
        const json_value* other = member(b, as_string_view(m.name));
        if (!other || !json_equal(m.value, *other)) return false;
      }
      return true;
    }
    case rapidjson::kArrayType: {
      if (a.Size() != b.Size()) return false;
      for (rapidjson::SizeType i = 0; i < a.Size(); ++i)
        if (!json_equal(a[i], b[i])) return false;
      return true;
    }
    case rapidjson::kStringType:
      return as_string_view(a) == as_string_view(b);
    default:
      return a == b;
  }
}

}  // namespace c5c3::k8s
