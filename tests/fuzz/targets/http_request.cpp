// The emulator's HTTP request parsing (k8s/server/request_parser: Beast's
// parser, the path and query handling of http_request) and what the emulator
// reads from a request before any handler: kube's request attributes (the
// RBAC view of the path) and the query parameters it looks at.
#include "k8s/server/request_parser.hpp"
#include "sim/apiserver/rbac.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace c5c3::fuzz {

int http_request(const std::uint8_t* data, std::size_t size) {
  auto parsed = k8s::parse_http_requests(as_text(data, size));
  check(parsed.requests.size() == parsed.keep_alive.size(), "one keep-alive flag per request");
  for (const auto& req : parsed.requests) {
    check(!req.method.empty(), "a parsed request has a method");
    check(req.target.find(req.query) != std::string::npos, "the query is part of the target");
    (void)req.header("Content-Type");
    (void)req.header("Authorization");
    for (const char* p : {"watch", "fieldSelector", "labelSelector", "resourceVersion", "limit", "continue"})
      (void)req.param(p);
    auto a = sim::rbac::request_attributes(req.method, req.path, req.param("watch"), req.param("fieldSelector"));
    check(a.path == req.path, "attributes keep the path");
    check(a.resource_request || (a.group.empty() && a.resource.empty() && a.name.empty()),
          "a non-resource request names no resource");
  }
  return 0;
}

}  // namespace c5c3::fuzz
