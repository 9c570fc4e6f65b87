// Double-writer detection for sharded operators (issue 17): a write for an
// order's status or for one of its children by a replica that does not hold
// the order at that moment. A replica is a client whose User-Agent is
// "c5c3-operator/<replica>"; an order is an object of a c5c3.io kind (other
// than ControlPlane) and its holder the value of its c5c3.io/shard label; a
// child carries the order's three labels c5c3.io/<kind>-name, -namespace and
// -cluster (the cluster "" : the order lives here). Other clients' writes, and
// writes of the order's metadata (claims, releases, finalizers), are not
// counted. The monitoring controllers' orders: held_object_writes.hpp.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/held_object_writes.hpp"

#include <algorithm>
#include <cctype>

namespace c5c3::sim {

namespace {

constexpr std::string_view replica_agent = "c5c3-operator/";
constexpr std::string_view claim_label = "c5c3.io/shard";

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_order_resource(const k8s::api_resource& r) { return r.group == "c5c3.io" && r.kind != "ControlPlane"; }

}  // namespace

void apiserver::impl::check_double_writer(const request_info& ri, const k8s::http_request& req,
                                          const std::string& verb, const k8s::object& written,
                                          const k8s::object& before) {
  auto agent = std::string_view(req.header("User-Agent"));
  if (agent.rfind(replica_agent, 0) != 0 || !written || !ri.kind) return;
  std::string replica(agent.substr(replica_agent.size()));
  if (auto dw = held_object_double_write(
          replica, {verb, ri.plural, ri.subresource, ri.kind->status_subresource, before, written})) {
    std::lock_guard lock(log_mu_);
    double_writes_.push_back(std::move(*dw));
    return;
  }
  double_write dw;
  {
    std::lock_guard lock(mu_);
    const k8s::object* order = nullptr;
    std::string order_resource;
    if (ri.subresource == "status" && is_order_resource(*ri.kind)) {
      auto it = resources_.find(ri.kind->plural + "." + ri.kind->group);
      if (it == resources_.end()) return;
      auto o = it->second.objects.find({ri.namespace_, ri.name});
      if (o == it->second.objects.end()) return;
      order = &o->second;
      order_resource = it->first;
    } else if (ri.subresource.empty()) {
      // A child: the labels of an order kind, naming an order of this cluster.
      for (const auto& [key, value] : written.labels()) {
        constexpr std::string_view prefix = "c5c3.io/";
        constexpr std::string_view suffix = "-name";
        if (key.rfind(prefix, 0) != 0 || key.size() <= prefix.size() + suffix.size() ||
            key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
          continue;
        auto kind = key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
        auto ns = written.label("c5c3.io/" + kind + "-namespace");
        auto cluster = written.label("c5c3.io/" + kind + "-cluster");
        if (!ns || !cluster || !cluster->empty()) continue;
        for (const auto& [qualified, sr] : resources_) {
          if (!is_order_resource(sr.storage) || lower(sr.storage.kind) != kind) continue;
          auto o = sr.objects.find({std::string(*ns), value});
          if (o == sr.objects.end()) continue;
          order = &o->second;
          order_resource = qualified;
        }
        if (order) break;
      }
    }
    if (!order) return;
    auto holder = std::string(order->label(claim_label).value_or(""));
    if (holder == replica) return;
    dw.replica = replica;
    dw.holder = holder;
    dw.verb = ri.verb;
    dw.resource = ri.resource();
    dw.namespace_ = ri.namespace_;
    dw.name = ri.name.empty() ? std::string(written.name()) : ri.name;
    dw.order = order_resource + " " + std::string(order->namespace_()) + "/" + std::string(order->name());
  }
  std::lock_guard lock(log_mu_);
  double_writes_.push_back(std::move(dw));
}

}  // namespace c5c3::sim
