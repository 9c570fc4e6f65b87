// Small helpers to build RapidJSON documents member by member (internal to
// sim/openapi). Members are appended in call order, so documents keep the
// field order kube-apiserver writes.
#pragma once

#include "k8s/json.hpp"

#include <cstdint>
#include <string_view>
#include <vector>
#include <string>

namespace c5c3::sim::openapi::detail {

class json_builder {
 public:
  explicit json_builder(k8s::json_allocator& alloc) : alloc_(alloc) {}

  k8s::json_allocator& alloc() { return alloc_; }

  k8s::json_value str(std::string_view s) { return k8s::make_string(s, alloc_); }
  static k8s::json_value obj() { return k8s::json_value(rapidjson::kObjectType); }
  static k8s::json_value arr() { return k8s::json_value(rapidjson::kArrayType); }
  k8s::json_value str_array(const std::vector<std::string>& items) {
    k8s::json_value a = arr();
    for (const auto& s : items) a.PushBack(str(s), alloc_);
    return a;
  }

  // Appends member `key` (no duplicate check: callers add each key once).
  void add(k8s::json_value& o, std::string_view key, k8s::json_value&& v) {
    o.AddMember(str(key), v, alloc_);
  }
  void add(k8s::json_value& o, std::string_view key, std::string_view v) { add(o, key, str(v)); }
  void add(k8s::json_value& o, std::string_view key, const char* v) {
    add(o, key, str(std::string_view(v)));
  }
  void add(k8s::json_value& o, std::string_view key, bool v) { add(o, key, k8s::json_value(v)); }
  void add_int(k8s::json_value& o, std::string_view key, std::int64_t v) {
    add(o, key, k8s::json_value(static_cast<int64_t>(v)));
  }
  void push(k8s::json_value& a, k8s::json_value&& v) { a.PushBack(v, alloc_); }
  k8s::json_value copy(const k8s::json_value& v) { return k8s::copy_json(v, alloc_); }

 private:
  k8s::json_allocator& alloc_;
};

}  // namespace c5c3::sim::openapi::detail
