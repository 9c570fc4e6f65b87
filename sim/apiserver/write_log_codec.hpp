// The write log as JSON (GET /sim/writelog): one object per write_record,
// with the request (method, target, contentType, body) when it was kept
// (apiserver_options::record_write_bodies).
#pragma once

#include "k8s/json.hpp"
#include "sim/apiserver/apiserver.hpp"

namespace c5c3::sim {

k8s::json_value write_record_to_json(const write_record& w, k8s::json_allocator& alloc);

}  // namespace c5c3::sim
