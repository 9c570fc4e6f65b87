// world_api over the Kubernetes client: reads come from informers (one per
// simulated kind, and Secrets), so a quiet world makes no requests; writes go
// to the API server and block the calling thread (never an io_context thread)
// until answered. An object this driver wrote is read back as written until
// its informer delivers that resourceVersion, so a pass never acts on a cache
// older than its own writes.
#pragma once

#include "k8s/client/client.hpp"
#include "k8s/client/informer.hpp"
#include "sim/world/world.hpp"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace c5c3::sim::world {

class client_world_api final : public world_api {
 public:
  static constexpr std::string_view field_manager = "c5c3-sim-world";

  explicit client_world_api(std::shared_ptr<k8s::client> client);
  ~client_world_api() override;

  // Starts the informers; `on_change` runs (on an io thread) after every event.
  void start(std::function<void()> on_change);
  void stop();
  // Every informer has listed once (those of optional_kinds() only when their
  // kind is served).
  bool synced() const;

  std::vector<k8s::object> list(const k8s::gvk& kind) override;
  k8s::object get(const k8s::gvk& kind, std::string_view ns, std::string_view name) override;
  write_result write(const object_write& w) override;

 private:
  using key = std::tuple<std::string, std::string, std::string>;  // group/kind, namespace, name
  static key key_of(const k8s::object& o);
  std::shared_ptr<k8s::informer> informer_of(const k8s::gvk& kind) const;
  k8s::object overlaid(const k8s::object& cached, const key& k) const;
  void observed(const k8s::object& o, bool deleted);

  std::shared_ptr<k8s::client> client_;
  std::vector<std::shared_ptr<k8s::informer>> informers_;
  std::vector<std::shared_ptr<k8s::informer>> optional_;
  mutable std::mutex mu_;
  std::map<key, k8s::object> written_;  // answered to our writes (empty: deleted by it)
};

}  // namespace c5c3::sim::world
