#include "sim/ssa/field_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace c5c3::sim::ssa {

using k8s::json_allocator;
using k8s::json_value;

path_element path_element::field(std::string name) {
  path_element pe;
  pe.kind = kind_t::field;
  pe.name = std::move(name);
  return pe;
}

path_element path_element::make_key(std::vector<std::pair<std::string, std::string>> fields) {
  path_element pe;
  pe.kind = kind_t::key;
  std::sort(fields.begin(), fields.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  pe.key = std::move(fields);
  return pe;
}

path_element path_element::make_value(std::string json) {
  path_element pe;
  pe.kind = kind_t::value;
  pe.value = std::move(json);
  return pe;
}

path_element path_element::make_index(int i) {
  path_element pe;
  pe.kind = kind_t::index;
  pe.index = i;
  return pe;
}

std::string path_element::to_string() const {
  switch (kind) {
    case kind_t::field:
      return "." + name;
    case kind_t::key: {
      std::string out = "[";
      for (std::size_t i = 0; i < key.size(); ++i) {
        if (i) out += ',';
        out += key[i].first + "=" + key[i].second;
      }
      return out + "]";
    }
    case kind_t::value:
      return "[=" + value + "]";
    case kind_t::index:
      return fmt::format("[{}]", index);
  }
  return "{{invalid path element}}";
}

namespace {

std::string quote(std::string_view s) {
  k8s::json_document d;
  d.SetString(s.data(), static_cast<rapidjson::SizeType>(s.size()), d.GetAllocator());
  return k8s::to_json(d);
}

int type_rank(const std::string& j) {
  if (j.empty()) return 6;
  char c = j[0];
  if (c == '-' || (c >= '0' && c <= '9')) return 0;
  if (c == '"') return 2;
  if (c == 't' || c == 'f') return 3;
  if (c == '[') return 4;
  if (c == '{') return 5;
  return 6;  // null
}

}  // namespace

int compare_json_text(const std::string& a, const std::string& b) {
  int ra = type_rank(a), rb = type_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra == 0) {
    double x = std::strtod(a.c_str(), nullptr), y = std::strtod(b.c_str(), nullptr);
    if (x != y) return x < y ? -1 : 1;
    return 0;
  }
  if (ra == 3) {  // false < true
    bool x = a[0] == 't', y = b[0] == 't';
    return x == y ? 0 : (x ? 1 : -1);
  }
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string path_element::to_fields_v1() const {
  switch (kind) {
    case kind_t::field:
      return "f:" + name;
    case kind_t::key: {
      std::string out = "k:{";
      for (std::size_t i = 0; i < key.size(); ++i) {
        if (i) out += ',';
        out += quote(key[i].first) + ":" + key[i].second;
      }
      return out + "}";
    }
    case kind_t::value:
      return "v:" + value;
    case kind_t::index:
      return fmt::format("i:{}", index);
  }
  return {};
}

std::optional<path_element> path_element::from_fields_v1(std::string_view text) {
  if (text.size() < 2 || text[1] != ':') return std::nullopt;
  std::string_view rest = text.substr(2);
  switch (text[0]) {
    case 'f':
      return field(std::string(rest));
    case 'k': {
      auto d = k8s::parse_json(rest);
      if (!d || !d->IsObject()) return std::nullopt;
      std::vector<std::pair<std::string, std::string>> fields;
      for (auto& m : d->GetObject())
        fields.emplace_back(std::string(k8s::as_string_view(m.name)), k8s::to_json(m.value));
      return make_key(std::move(fields));
    }
    case 'v': {
      auto d = k8s::parse_json(rest);
      if (!d) return std::nullopt;
      return make_value(k8s::to_json(*d));
    }
    case 'i': {
      int i = 0;
      auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), i);
      if (ec != std::errc() || p != rest.data() + rest.size()) return std::nullopt;
      return make_index(i);
    }
    default:
      return std::nullopt;
  }
}

int compare(const path_element& a, const path_element& b) {
  if (a.kind != b.kind) return static_cast<int>(a.kind) < static_cast<int>(b.kind) ? -1 : 1;
  switch (a.kind) {
    case path_element::kind_t::field: {
      int c = a.name.compare(b.name);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case path_element::kind_t::key: {
      std::size_t n = std::min(a.key.size(), b.key.size());
      for (std::size_t i = 0; i < n; ++i) {
        int c = a.key[i].first.compare(b.key[i].first);
        if (c) return c < 0 ? -1 : 1;
        c = compare_json_text(a.key[i].second, b.key[i].second);
        if (c) return c;
      }
      if (a.key.size() != b.key.size()) return a.key.size() < b.key.size() ? -1 : 1;
      return 0;
    }
    case path_element::kind_t::value:
      return compare_json_text(a.value, b.value);
    case path_element::kind_t::index:
      return a.index == b.index ? 0 : (a.index < b.index ? -1 : 1);
  }
  return 0;
}

std::string path_to_string(const path& p) {
  std::string out;
  for (const auto& pe : p) out += pe.to_string();
  return out;
}

// ---- field_set ----

void field_set::insert(const path& p) {
  if (p.empty()) return;
  field_set* cur = this;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) cur = &cur->children_[p[i]];
  cur->members_.insert(p.back());
}

bool field_set::has(const path& p) const {
  if (p.empty()) return false;
  const field_set* cur = this;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    auto it = cur->children_.find(p[i]);
    if (it == cur->children_.end()) return false;
    cur = &it->second;
  }
  return cur->members_.count(p.back()) > 0;
}

bool field_set::has_prefix(const path& p) const {
  if (p.empty()) return !empty();
  const field_set* cur = this;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    auto it = cur->children_.find(p[i]);
    if (it == cur->children_.end()) return false;
    cur = &it->second;
  }
  if (cur->members_.count(p.back())) return true;
  auto it = cur->children_.find(p.back());
  return it != cur->children_.end() && !it->second.empty();
}

const field_set* field_set::child(const path_element& pe) const {
  auto it = children_.find(pe);
  return it == children_.end() ? nullptr : &it->second;
}

field_set field_set::union_with(const field_set& o) const {
  field_set out = *this;
  out.members_.insert(o.members_.begin(), o.members_.end());
  for (const auto& [pe, sub] : o.children_) {
    auto it = out.children_.find(pe);
    if (it == out.children_.end())
      out.children_.emplace(pe, sub);
    else
      it->second = it->second.union_with(sub);
  }
  return out;
}

field_set field_set::difference(const field_set& o) const {
  field_set out;
  for (const auto& m : members_)
    if (!o.members_.count(m)) out.members_.insert(m);
  for (const auto& [pe, sub] : children_) {
    auto it = o.children_.find(pe);
    field_set d = it == o.children_.end() ? sub : sub.difference(it->second);
    if (!d.empty()) out.children_.emplace(pe, std::move(d));
  }
  return out;
}

field_set field_set::intersection(const field_set& o) const {
  field_set out;
  for (const auto& m : members_)
    if (o.members_.count(m)) out.members_.insert(m);
  for (const auto& [pe, sub] : children_) {
    auto it = o.children_.find(pe);
    if (it == o.children_.end()) continue;
    field_set d = sub.intersection(it->second);
    if (!d.empty()) out.children_.emplace(pe, std::move(d));
  }
  return out;
}

void field_set::erase_prefix(field_set& node, const path& prefix, std::size_t i) {
  const path_element& pe = prefix[i];
  if (i + 1 == prefix.size()) {
    node.members_.erase(pe);
    node.children_.erase(pe);
    return;
  }
  auto it = node.children_.find(pe);
  if (it == node.children_.end()) return;
  erase_prefix(it->second, prefix, i + 1);
  if (it->second.empty()) node.children_.erase(it);
}

field_set field_set::without_prefix(const path& prefix) const {
  if (prefix.empty()) return {};
  field_set out = *this;
  erase_prefix(out, prefix, 0);
  return out;
}

void field_set::for_each_prefixed(path& prefix, const std::function<void(const path&)>& f) const {
  for (const auto& m : members_) {
    prefix.push_back(m);
    f(prefix);
    prefix.pop_back();
  }
  for (const auto& [pe, sub] : children_) {
    prefix.push_back(pe);
    sub.for_each_prefixed(prefix, f);
    prefix.pop_back();
  }
}

void field_set::for_each(const std::function<void(const path&)>& f) const {
  path prefix;
  for_each_prefixed(prefix, f);
}

std::vector<path> field_set::paths() const {
  std::vector<path> out;
  for_each([&](const path& p) { out.push_back(p); });
  return out;
}

json_value field_set::to_fields_v1(json_allocator& alloc) const {
  // Members and children merged in element order, as serialize.go writes them.
  std::set<path_element> all(members_.begin(), members_.end());
  for (const auto& [pe, sub] : children_) all.insert(pe);
  json_value out(rapidjson::kObjectType);
  for (const auto& pe : all) {
    json_value node(rapidjson::kObjectType);
    auto it = children_.find(pe);
    if (it != children_.end()) {
      node = it->second.to_fields_v1(alloc);
      if (members_.count(pe)) {
        // "." first.
        json_value with_dot(rapidjson::kObjectType);
        with_dot.AddMember(".", json_value(rapidjson::kObjectType), alloc);
        for (auto& m : node.GetObject()) with_dot.AddMember(m.name, m.value, alloc);
        node = std::move(with_dot);
      }
    }
    out.AddMember(k8s::make_string(pe.to_fields_v1(), alloc), node, alloc);
  }
  return out;
}

std::string field_set::to_fields_v1_string() const {
  k8s::json_document d;
  static_cast<json_value&>(d) = to_fields_v1(d.GetAllocator());
  return k8s::to_json(d);
}

std::optional<field_set> field_set::from_fields_v1(const json_value& v) {
  if (!v.IsObject()) return std::nullopt;
  field_set out;
  for (auto& m : v.GetObject()) {
    std::string_view name = k8s::as_string_view(m.name);
    if (name == ".") continue;  // handled by the parent
    auto pe = path_element::from_fields_v1(name);
    if (!pe) return std::nullopt;
    if (!m.value.IsObject()) return std::nullopt;
    if (m.value.MemberCount() == 0) {
      out.members_.insert(*pe);
      continue;
    }
    if (k8s::member(m.value, ".")) out.members_.insert(*pe);
    auto sub = from_fields_v1(m.value);
    if (!sub) return std::nullopt;
    if (!sub->empty()) out.children_.emplace(*pe, std::move(*sub));
  }
  return out;
}

}  // namespace c5c3::sim::ssa
