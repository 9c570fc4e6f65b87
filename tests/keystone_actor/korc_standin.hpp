// A minimal in-test K-ORC for the Keystone orders' actor tests, until the
// simulated K-ORC of sim/world serves them: on its own thread it reads the
// emulator's Users and Projects every 20 ms and writes their status through
// its own client as K-ORC does (apis.md 3.1-3.3): a managed object Available
// at its generation with status.id and status.resource (appliedPasswordRef
// = spec.resource.passwordRef); an unmanaged import Available when Keystone
// holds the name, else waiting to be created externally; a Progressing
// False at the current generation is left alone (K-ORC's ShouldReconcile).
// `unreachable` names latch a transport error once. A managed object gone
// from the emulator is gone from Keystone. It also reports the ControlPlane's
// AdminCredentialReady.
#pragma once

#include "k8s/client/blocking.hpp"
#include "k8s/client/client.hpp"
#include "sim/apiserver/apiserver.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
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

  // Keystone's names, and the project names whose first reconcile latches
  // "connection refused".
  bool holds(const std::string& kind, const std::string& name) {
    std::lock_guard l(mu_);
    return (kind == "User" ? users_ : projects_).contains(name);
  }
  void add(const std::string& kind, const std::string& name) {
    std::lock_guard l(mu_);
    (kind == "User" ? users_ : projects_).insert(name);
  }
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

  void step() {
    for (const auto& cp : server_.list_objects("controlplanes.c5c3.io", "")) {
      if (cp.find_condition("AdminCredentialReady")) continue;
      // A failed write is retried on the next step.
      (void)patch_status({"c5c3.io", "v1alpha1", "ControlPlane"}, std::string(cp.namespace_()),
                         std::string(cp.name()),
                         R"({"status":{"conditions":[)" + cond("AdminCredentialReady", "True", "Ready", "ready", 1) +
                             "]}}");
    }
    std::set<std::string> seen;
    for (const auto* kind : {"User", "Project"}) {
      const std::string resource = std::string(kind == std::string("User") ? "users" : "projects") +
                                   ".openstack.k-orc.cloud";
      for (const auto& o : server_.list_objects(resource, "")) {
        const auto gen = o.generation();
        if (auto p = o.find_condition("Progressing"); p && p->status == "False" && p->observed_generation == gen) {
          if (o.get_string({"spec", "managementPolicy"}) == "managed")
            seen.insert(std::string(kind) + "/" + std::string(o.get_string({"spec", "resource", "name"})));
          continue;  // up to date, or latched
        }
        reconcile(kind, o, seen);
      }
    }
    std::lock_guard l(mu_);
    for (auto it = managed_.begin(); it != managed_.end();) {
      if (seen.contains(*it)) {
        ++it;
        continue;
      }
      auto slash = it->find('/');
      (it->substr(0, slash) == "User" ? users_ : projects_).erase(it->substr(slash + 1));
      it = managed_.erase(it);
    }
  }

  void reconcile(const std::string& kind, const k8s::object& o, std::set<std::string>& seen) {
    const auto gen = o.generation();
    const k8s::gvk gvk{"openstack.k-orc.cloud", "v1alpha1", kind};
    const std::string ns(o.namespace_()), name(o.name());
    std::string body;
    if (o.get_string({"spec", "managementPolicy"}) == "managed") {
      const std::string os_name(o.get_string({"spec", "resource", "name"}));
      {
        std::lock_guard l(mu_);
        if (unreachable_.erase(os_name)) {
          std::string msg = "dial tcp 127.0.0.1:5000: connect: connection refused";
          body = R"({"status":{"conditions":[)" + cond("Available", "False", "InvalidConfiguration", msg, gen) + "," +
                 cond("Progressing", "False", "InvalidConfiguration", msg, gen) + "]}}";
        } else {
          (kind == "User" ? users_ : projects_).insert(os_name);
          managed_.insert(kind + "/" + os_name);
          seen.insert(kind + "/" + os_name);
          std::string resource = R"("name":")" + os_name + R"(")";
          if (kind == "User") {
            std::string ref(o.get_string({"spec", "resource", "passwordRef"}));
            applied_[os_name] = ref;
            resource += R"(,"appliedPasswordRef":")" + ref + R"(")";
          }
          body = R"({"status":{"id":"id-)" + os_name + R"(","resource":{)" + resource + R"(},"conditions":[)" +
                 cond("Available", "True", "Success", "OpenStack resource is available", gen) + "," +
                 cond("Progressing", "False", "Success", "OpenStack resource is up to date", gen) + "]}}";
        }
      }
    } else {
      const std::string filter(o.get_string({"spec", "import", "filter", "name"}));
      if (holds(kind, filter)) {
        body = R"({"status":{"id":"id-)" + filter + R"(","conditions":[)" +
               cond("Available", "True", "Success", "OpenStack resource is available", gen) + "," +
               cond("Progressing", "False", "Success", "OpenStack resource is up to date", gen) + "]}}";
      } else {
        if (o.find_condition("Available")) return;  // still waiting
        std::string msg = "Waiting for OpenStack resource to be created externally";
        body = R"({"status":{"conditions":[)" + cond("Available", "False", "Progressing", msg, gen) + "," +
               cond("Progressing", "True", "Progressing", msg, gen) + "]}}";
      }
    }
    (void)patch_status(gvk, ns, name, body);  // a failed write is retried on the next step
  }

  sim::apiserver& server_;
  k8s::client& client_;
  std::mutex mu_;
  std::set<std::string> users_{"admin"}, projects_{"admin"}, unreachable_, managed_;
  std::map<std::string, std::string> applied_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace c5c3::testing
