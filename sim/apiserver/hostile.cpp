// Hostile answers: see hostile.hpp.
#include "sim/apiserver/hostile.hpp"

#include "k8s/json.hpp"

namespace c5c3::sim {

namespace {

using k8s::json_value;

constexpr std::string_view garbage_page =
    "<html><head><title>502 Bad Gateway</title></head><body>\xff\xfe bad gateway</body></html>\n";

void remove_path(json_value& v, std::string_view path) {
  json_value* cur = &v;
  while (cur && cur->IsObject()) {
    auto dot = path.find('.');
    if (dot == std::string_view::npos) {
      k8s::remove_member(*cur, path);
      return;
    }
    cur = k8s::member(*cur, path.substr(0, dot));
    path.remove_prefix(dot + 1);
  }
}

// Invalid UTF-8 in every string but the identity (apiVersion, kind, and
// metadata other than labels and annotations).
void spoil_utf8(json_value& v, k8s::json_allocator& a, bool top = true) {
  if (top && v.IsObject()) {
    for (auto& m : v.GetObject()) {
      auto k = k8s::as_string_view(m.name);
      if (k == "apiVersion" || k == "kind") continue;
      if (k == "metadata" && m.value.IsObject()) {
        for (auto* sub : {"labels", "annotations"})
          if (auto* x = k8s::member(m.value, sub)) spoil_utf8(*x, a, false);
        continue;
      }
      if (k == "items" && m.value.IsArray()) {
        for (auto& i : m.value.GetArray()) spoil_utf8(i, a, true);
        continue;
      }
      spoil_utf8(m.value, a, false);
    }
    return;
  }
  if (v.IsString()) {
    std::string s(k8s::as_string_view(v));
    s += "\xc3\x28\xff";
    v = k8s::make_string(s, a);
  } else if (v.IsArray()) {
    for (auto& x : v.GetArray()) spoil_utf8(x, a, false);
  } else if (v.IsObject()) {
    for (auto& m : v.GetObject()) spoil_utf8(m.value, a, false);
  }
}

void set_kind(json_value& v, k8s::json_allocator& a) {
  if (!v.IsObject()) return;
  bool list = k8s::get_string(v, {"kind"}).ends_with("List");
  k8s::set_member(v, "kind", k8s::make_string(list ? "ConfigMapList" : "ConfigMap", a), a);
  k8s::set_member(v, "apiVersion", k8s::make_string("v1", a), a);
  if (auto* items = k8s::member(v, "items"); items && items->IsArray())
    for (auto& i : items->GetArray()) set_kind(i, a);
}

// One JSON document spoiled; `event`: a watch event (its object is the target).
std::string spoil_json(const fault_rule& f, std::string_view text, bool event) {
  auto d = k8s::parse_json(text);
  if (!d || !d->IsObject()) return std::string(text);
  auto& a = d->GetAllocator();
  json_value* target = &*d;
  if (event)
    if (auto* o = k8s::member(*d, "object"); o && o->IsObject()) target = o;
  if (f.body == "wrongKind") {
    set_kind(*target, a);
  } else if (f.body == "missingField") {
    remove_path(*target, f.body_field.empty() ? "metadata" : f.body_field);
  } else if (f.body == "nonUtf8") {
    spoil_utf8(*target, a);
  } else if (f.body == "huge") {
    std::size_t n = f.body_bytes ? f.body_bytes : (16u << 20);
    k8s::set_member(*d, "c5c3SimPadding", k8s::make_string(std::string(n, 'x'), a), a);
  }
  return k8s::to_json(*d);
}

std::string cut(const fault_rule& f, const std::string& s) {
  std::size_t n = f.body_bytes ? f.body_bytes : s.size() / 2;
  return s.substr(0, std::min(n, s.size()));
}

}  // namespace

bool known_hostile_body(std::string_view name) {
  for (auto k : {"truncated", "huge", "wrongKind", "missingField", "nonUtf8", "garbage"})
    if (name == k) return true;
  return false;
}

std::string spoil_body(const fault_rule& f, std::string body) {
  if (f.body == "garbage") return std::string(garbage_page);
  if (f.body == "truncated") return cut(f, body);
  return spoil_json(f, body, false);
}

std::string spoil_stream_chunk(const fault_rule& f, std::string chunk) {
  if (f.body == "garbage") return std::string(garbage_page);
  if (f.body == "truncated") return cut(f, chunk);
  std::string out;
  std::size_t at = 0;
  while (at < chunk.size()) {
    auto nl = chunk.find('\n', at);
    auto line = std::string_view(chunk).substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? chunk.size() : nl + 1;
    if (line.empty()) continue;
    out += spoil_json(f, line, true);
    out += '\n';
  }
  return out;
}

void hostile_responder::send(k8s::http_response res) {
  res.body = spoil_body(f_, std::move(res.body));
  inner_.send(std::move(res));
}

bool hostile_responder::start_stream(int status, const k8s::http_headers& headers) {
  return inner_.start_stream(status, headers);
}

bool hostile_responder::write(std::string_view chunk) {
  bool ok = inner_.write(spoil_stream_chunk(f_, std::string(chunk)));
  // A cut event cannot be followed by a whole one: the stream ends there.
  return ok && f_.body != "truncated";
}

}  // namespace c5c3::sim
