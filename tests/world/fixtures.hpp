// Objects and helpers the world tests share.
#pragma once

#include "sim/world/base64.hpp"
#include "sim/world/world_object.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <ostream>
#include <stdexcept>
#include <string>

namespace c5c3::sim::world {
inline std::ostream& operator<<(std::ostream& os, write_verb v) {
  switch (v) {
    case write_verb::update: return os << "update";
    case write_verb::update_status: return os << "update_status";
    case write_verb::upsert: return os << "upsert";
    case write_verb::create: return os << "create";
  }
  return os;
}
}  // namespace c5c3::sim::world

namespace c5c3::sim::world::test {

inline k8s::object obj(std::string_view json) {
  std::string err;
  auto o = k8s::object::parse(json, &err);
  if (!o) throw std::runtime_error("bad fixture: " + err);
  return *o;
}

inline k8s::time_point t0() { return *k8s::parse_rfc3339("2026-12-01T00:00:00Z"); }

// "aaaa", "bbbb", ... on each call: deterministic generated names.
inline random_source counting_random() {
  auto n = std::make_shared<int>(0);
  return [n](std::size_t len) { return std::string(len, static_cast<char>('a' + (*n)++ % 26)); };
}

inline k8s::object secret(std::string_view ns, std::string_view name,
                          const std::map<std::string, std::string>& data,
                          const std::map<std::string, std::string>& labels = {}) {
  k8s::object_builder b("v1", "Secret", ns, name);
  for (const auto& [k, v] : labels) b.set_label(k, v);
  for (const auto& [k, v] : data) b.set_string({"data", k}, base64_encode(v));
  b.set_string({"type"}, "Opaque");
  return std::move(b).freeze();
}

inline std::string data_value(const k8s::object& s, std::string_view key) {
  auto v = base64_decode(s.get_string({"data", key}));
  return v ? *v : "<missing>";
}

// The one write of `verb` in `ws`; fails the test when there is not exactly one.
inline k8s::object only(const std::vector<object_write>& ws, write_verb verb) {
  k8s::object found;
  int n = 0;
  for (const auto& w : ws) {
    if (w.verb == verb) {
      found = w.obj;
      ++n;
    }
  }
  BOOST_TEST_REQUIRE(n == 1);
  return found;
}

inline int count(const std::vector<object_write>& ws, write_verb verb) {
  int n = 0;
  for (const auto& w : ws) n += w.verb == verb;
  return n;
}

}  // namespace c5c3::sim::world::test
