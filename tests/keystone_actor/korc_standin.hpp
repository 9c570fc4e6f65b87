// A minimal in-test K-ORC for the Keystone orders' actor tests, until the
// simulated K-ORC of sim/world serves them: on its own thread it reads the
// emulator's K-ORC objects every 20 ms and writes their status through its
// own client as K-ORC does (apis.md 3.1-3.3). A managed User, Project or
// Service is Available at its generation with status.id and status.resource
// (a User's appliedPasswordRef = spec.resource.passwordRef); a managed
// Endpoint or RoleAssignment once the objects it references are Available
// (a RoleAssignment has no status.id, its status.resource carries the three
// ids); an unmanaged import (User, Project, Role, Region, Service) is
// Available when Keystone holds what its filter names, else waiting to be
// created externally; a Progressing False at the current generation is left
// alone (K-ORC's ShouldReconcile). `unreachable` names latch a transport
// error once. A managed object gone from the emulator is gone from Keystone.
// It also reports the ControlPlane's AdminCredentialReady.
//
// Keystone's contents by kind: User and Project names, Role names, Region
// ids, Service "name|type", Endpoint "service|interface|url", RoleAssignment
// "role|user|project" (names).
#pragma once

#include "k8s/client/blocking.hpp"
#include "k8s/client/client.hpp"
#include "sim/apiserver/apiserver.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace c5c3::testing {

class korc_standin {
 public:
  korc_standin(sim::apiserver& server, k8s::client& client) : server_(server), client_(client) {}
  ~korc_standin() { stop(); }

  void start() {
    thread_ = std::thread([this] {
      while (!stopping_) {
        step();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  }
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }

  bool holds(const std::string& kind, const std::string& key) {
    std::lock_guard l(mu_);
    return keystone_[kind].contains(key);
  }
  std::set<std::string> contents(const std::string& kind) {
    std::lock_guard l(mu_);
    return keystone_[kind];
  }
  void add(const std::string& kind, const std::string& key) {
    std::lock_guard l(mu_);
    keystone_[kind].insert(key);
  }
  // Names whose first reconcile of a managed object latches "connection refused".
  void unreachable(const std::string& name) {
    std::lock_guard l(mu_);
    unreachable_.insert(name);
  }
  // The passwordRef K-ORC last applied to the user `name` ("" none).
  std::string applied(const std::string& name) {
    std::lock_guard l(mu_);
    auto it = applied_.find(name);
    return it == applied_.end() ? "" : it->second;
  }

  k8s::result<k8s::object> patch_status(const k8s::gvk& gvk, const std::string& ns, const std::string& name,
                                        const std::string& body) {
    k8s::patch_options po;
    po.field_manager = "openstack.k-orc.cloud/standin";
    po.status = true;
    return k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
      client_.patch(gvk, ns, name, k8s::patch_type::merge, body, po, std::move(cb));
    });
  }

 private:
  static std::string cond(const char* type, const char* status, const std::string& reason,
                          const std::string& message, std::int64_t gen) {
    return R"({"type":")" + std::string(type) + R"(","status":")" + status + R"(","reason":")" + reason +
           R"(","message":")" + message + R"(","observedGeneration":)" + std::to_string(gen) +
           R"(,"lastTransitionTime":"2026-12-01T00:00:00Z"})";
  }
  static std::string available(const std::string& fields, std::int64_t gen) {
    return R"({"status":{)" + fields + R"("conditions":[)" +
           cond("Available", "True", "Success", "OpenStack resource is available", gen) + "," +
           cond("Progressing", "False", "Success", "OpenStack resource is up to date", gen) + "]}}";
  }
  static std::string waiting(const std::string& msg, std::int64_t gen) {
    return R"({"status":{"conditions":[)" + cond("Available", "False", "Progressing", msg, gen) + "," +
           cond("Progressing", "True", "Progressing", msg, gen) + "]}}";
  }
  static std::string resource_of(const std::string& kind) {
    std::string lower = kind;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower + "s.openstack.k-orc.cloud";
  }

  void step() {
    for (const auto& cp : server_.list_objects("controlplanes.c5c3.io", "")) {
      if (cp.find_condition("AdminCredentialReady")) continue;
      // A failed write is retried on the next step.
      (void)patch_status({"c5c3.io", "v1alpha1", "ControlPlane"}, std::string(cp.namespace_()),
                         std::string(cp.name()),
                         R"({"status":{"conditions":[)" + cond("AdminCredentialReady", "True", "Ready", "ready", 1) +
                             "]}}");
    }
    std::set<std::string> seen;  // kind/key of every managed object still there
    for (const auto* kind : {"User", "Project", "Role", "Region", "Service", "Endpoint", "RoleAssignment"}) {
      for (const auto& o : server_.list_objects(resource_of(kind), "")) {
        const bool managed = o.get_string({"spec", "managementPolicy"}) == "managed";
        auto key = managed ? managed_key(kind, o) : std::nullopt;
        if (key) seen.insert(std::string(kind) + "/" + *key);
        if (auto p = o.find_condition("Progressing"); p && p->status == "False" && p->observed_generation == o.generation())
          continue;  // up to date, or latched
        if (auto body = managed ? reconcile_managed(kind, o, key) : reconcile_import(kind, o))
          (void)patch_status({"openstack.k-orc.cloud", "v1alpha1", kind}, std::string(o.namespace_()),
                             std::string(o.name()), *body);  // a failed write is retried on the next step
      }
    }
    std::lock_guard l(mu_);
    for (auto it = managed_.begin(); it != managed_.end();) {
      if (seen.contains(*it)) {
        ++it;
        continue;
      }
      auto slash = it->find('/');
      keystone_[it->substr(0, slash)].erase(it->substr(slash + 1));
      it = managed_.erase(it);
    }
  }

  // The K-ORC object `ref` names (in o's namespace) when Available, else empty.
  k8s::object ready_ref(const std::string& kind, const k8s::object& o, const char* field) {
    auto ref = server_.get_object(resource_of(kind), std::string(o.namespace_()),
                                  std::string(o.get_string({"spec", "resource", field})));
    auto c = ref ? ref.find_condition("Available") : std::nullopt;
    return c && c->is_true() ? ref : k8s::object{};
  }
  static std::string resource_name(const k8s::object& o) { return std::string(o.get_string({"spec", "resource", "name"})); }

  // What a managed object is in Keystone (nullopt: not there yet).
  std::optional<std::string> managed_key(const std::string& kind, const k8s::object& o) {
    auto r = [&](const char* f) { return std::string(o.get_string({"spec", "resource", f})); };
    if (kind == "User" || kind == "Project") return r("name");
    if (kind == "Service") return r("name") + "|" + r("type");
    if (kind == "Endpoint") {
      auto svc = ready_ref("Service", o, "serviceRef");
      if (!svc || !ready_ref("Region", o, "regionRef")) return std::nullopt;
      return resource_name(svc) + "|" + r("interface") + "|" + r("url");
    }
    if (kind == "RoleAssignment") {
      auto role = ready_ref("Role", o, "roleRef"), user = ready_ref("User", o, "userRef"),
           project = ready_ref("Project", o, "projectRef");
      if (!role || !user || !project) return std::nullopt;
      return std::string(role.get_string({"spec", "import", "filter", "name"})) + "|" + resource_name(user) + "|" +
             resource_name(project);
    }
    return std::nullopt;
  }

  std::optional<std::string> reconcile_managed(const std::string& kind, const k8s::object& o,
                                               const std::optional<std::string>& key) {
    const auto gen = o.generation();
    if (!key) return waiting("Waiting for the referenced objects to be ready", gen);
    std::lock_guard l(mu_);
    if (unreachable_.erase(resource_name(o))) {
      std::string msg = "dial tcp 127.0.0.1:5000: connect: connection refused";
      return R"({"status":{"conditions":[)" + cond("Available", "False", "InvalidConfiguration", msg, gen) + "," +
             cond("Progressing", "False", "InvalidConfiguration", msg, gen) + "]}}";
    }
    keystone_[kind].insert(*key);
    managed_.insert(kind + "/" + *key);
    if (kind == "RoleAssignment") {
      auto part = [&](std::size_t i) {
        std::size_t start = 0;
        for (std::size_t n = 0; n < i; ++n) start = key->find('|', start) + 1;
        return key->substr(start, key->find('|', start) - start);
      };
      return available(R"("resource":{"roleID":"id-role-)" + part(0) + R"(","userID":"id-)" + part(1) +
                           R"(","projectID":"id-)" + part(2) + R"("},)",
                       gen);
    }
    std::string resource = R"("name":")" + resource_name(o) + R"(")";
    if (kind == "User") {
      std::string ref(o.get_string({"spec", "resource", "passwordRef"}));
      applied_[resource_name(o)] = ref;
      resource += R"(,"appliedPasswordRef":")" + ref + R"(")";
    }
    const std::string id = kind == "User" || kind == "Project" ? "id-" + resource_name(o)
                                                               : "id-" + std::string(o.name());
    return available(R"("id":")" + id + R"(","resource":{)" + resource + "},", gen);
  }

  std::optional<std::string> reconcile_import(const std::string& kind, const k8s::object& o) {
    auto f = [&](const char* field) { return std::string(o.get_string({"spec", "import", "filter", field})); };
    const std::string key = kind == "Service" ? f("name") + "|" + f("type") : f("name");
    if (holds(kind, key)) {
      const std::string id = kind == "Region" ? key : kind == "Role" ? "id-role-" + key : "id-" + f("name");
      return available(R"("id":")" + id + R"(",)", o.generation());
    }
    if (o.find_condition("Available")) return std::nullopt;  // still waiting
    return waiting("Waiting for OpenStack resource to be created externally", o.generation());
  }

  sim::apiserver& server_;
  k8s::client& client_;
  std::mutex mu_;
  std::map<std::string, std::set<std::string>> keystone_{
      {"User", {"admin"}}, {"Project", {"admin"}}, {"Role", {"admin", "member", "reader"}}, {"Region", {"RegionOne"}}};
  std::set<std::string> unreachable_, managed_;
  std::map<std::string, std::string> applied_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace c5c3::testing
