// What the actor tests against the in-process emulator share: a scratch
// directory with CRD files, a client configuration for the emulator with
// quick retries, and a bounded wait on a condition (never on a duration).
#pragma once

#include "config/connection.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/fast_retries.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>

namespace c5c3::testing {

// A fresh directory under the system's temp dir holding `files` (name -> text).
inline std::string scratch_dir(const std::string& prefix, const std::map<std::string, std::string>& files = {}) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  std::string dir = mkdtemp(tmpl.data());
  for (const auto& [name, text] : files) std::ofstream(dir + "/" + name) << text;
  return dir;
}

// The emulator's admin connection (through a kubeconfig written to `dir`),
// with retries quick enough for tests.
inline k8s::client_config emulator_client(const sim::apiserver& server, const std::string& dir) {
  server.write_kubeconfig(dir + "/kubeconfig");
  auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
  BOOST_TEST_REQUIRE(conn.ok());
  auto c = conn->client;
  fast_retries(c);
  return c;
}

// Polls `cond` every 10 ms until it holds, for at most `limit`.
inline bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds limit = std::chrono::seconds(60)) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// A namespaced custom resource definition with open spec and status and a
// status subresource: the kinds the runtime's tests invent.
inline std::string open_crd(const std::string& group, const std::string& kind, const std::string& plural) {
  std::string singular = plural.substr(0, plural.size() - 1);
  return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: " + plural + "." +
         group + "\nspec:\n  group: " + group + "\n  scope: Namespaced\n  names: {kind: " + kind +
         ", plural: " + plural + ", singular: " + singular + ", listKind: " + kind +
         "List}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    subresources: {status: {}}\n"
         "    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"
         "          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n"
         "          status: {type: object, x-kubernetes-preserve-unknown-fields: true}\n";
}

}  // namespace c5c3::testing
