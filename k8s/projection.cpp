#include "k8s/projection.hpp"

#include <algorithm>
#include <iterator>

namespace c5c3::k8s {
namespace {

std::nullopt_t fail(std::string* error, std::string_view text, std::string_view why) {
  if (error) *error = "field path \"" + std::string(text) + "\": " + std::string(why);
  return std::nullopt;
}

// Walks the path from segment `i` on: `drop` removes the last member where
// found; without it, answers whether one would be removed.
bool walk(json_value& v, const field_path& p, std::size_t i, bool drop) {
  if (!v.IsObject()) return false;
  const auto& seg = p[i];
  if (i + 1 == p.size()) {
    if (!drop) return member(v, seg.name) != nullptr;
    return remove_member(v, seg.name);
  }
  json_value* next = member(v, seg.name);
  if (!next) return false;
  if (!seg.each) return walk(*next, p, i + 1, drop);
  if (!next->IsArray()) return false;
  bool any = false;
  for (auto& e : next->GetArray()) {
    if (walk(e, p, i + 1, drop)) {
      any = true;
      if (!drop) return true;
    }
  }
  return any;
}

}  // namespace

std::optional<field_path> parse_field_path(std::string_view text, std::string* error) {
  field_path out;
  std::size_t i = 0;
  if (text.empty()) return fail(error, text, "empty");
  while (true) {
    path_segment seg;
    if (i < text.size() && text[i] == '"') {
      auto end = text.find('"', i + 1);
      if (end == std::string_view::npos) return fail(error, text, "unterminated quote");
      seg.name = std::string(text.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      auto end = text.find_first_of(".[\"", i);
      if (end == std::string_view::npos) end = text.size();
      if (end < text.size() && text[end] == '"') return fail(error, text, "a quote inside a name");
      seg.name = std::string(text.substr(i, end - i));
      i = end;
    }
    if (seg.name.empty()) return fail(error, text, "an empty member name");
    if (i < text.size() && text[i] == '[') {
      if (text.substr(i, 2) != "[]") return fail(error, text, "'[' without ']' right after it");
      seg.each = true;
      i += 2;
    }
    out.push_back(std::move(seg));
    if (i == text.size()) break;
    if (text[i] != '.') return fail(error, text, "'[]' not at the end of a segment");
    ++i;
    if (i == text.size()) return fail(error, text, "an empty member name");
  }
  if (out.back().each) return fail(error, text, "'[]' on the last segment");
  return out;
}

std::optional<std::vector<field_path>> parse_field_paths(const std::vector<std::string>& paths, std::string* error) {
  std::vector<field_path> out;
  out.reserve(paths.size());
  for (const auto& p : paths) {
    auto parsed = parse_field_path(p, error);
    if (!parsed) return std::nullopt;
    out.push_back(std::move(*parsed));
  }
  return out;
}

std::vector<std::string> canonical_paths(std::vector<std::string> paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

bool drops_within(const std::vector<std::string>& dropped, const std::vector<std::string>& accepted) {
  return std::includes(accepted.begin(), accepted.end(), dropped.begin(), dropped.end());
}

std::vector<std::string> common_paths(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool holds_any(const json_value& v, const std::vector<field_path>& paths) {
  // walk() without `drop` does not modify; the cast spares a const twin of it.
  auto& m = const_cast<json_value&>(v);
  return std::any_of(paths.begin(), paths.end(), [&](const field_path& p) { return walk(m, p, 0, false); });
}

object project(const object& o, const std::vector<field_path>& paths) {
  if (!o || paths.empty() || !holds_any(o.json(), paths)) return o;
  auto b = o.edit();
  for (const auto& p : paths) walk(b.doc(), p, 0, true);
  return std::move(b).freeze();  // a document sized to what is left
}

}  // namespace c5c3::k8s
