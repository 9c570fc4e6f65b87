#include "tests/c5c3/snapshots.hpp"

#include "actors/c5c3/scaffold/order_secret.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace c5c3::test {

object parse(std::string_view json) {
  std::string error;
  auto o = object::parse(json, &error);
  if (!o) throw std::invalid_argument("test object does not parse: " + error);
  return *o;
}

time_point t0() { return *k8s::parse_rfc3339("2026-12-01T00:00:00Z"); }

orders::random_source counting_random(unsigned seed) {
  auto calls = std::make_shared<unsigned>(0);
  return [seed, calls](std::span<unsigned char> out) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>((seed + *calls + i) & 0xff);
    ++*calls;
  };
}

object make_object(std::string_view api_version, std::string_view kind, std::string_view ns,
                   std::string_view name, const std::map<std::string, std::string>& labels) {
  k8s::object_builder b(api_version, kind, ns, name);
  for (auto& [k, v] : labels) b.set_label(k, v);
  return std::move(b).freeze();
}

object make_secret(std::string_view ns, std::string_view name, const std::map<std::string, std::string>& data,
                   const std::map<std::string, std::string>& labels) {
  auto b = orders::secret_builder(ns, name, data);
  for (auto& [k, v] : labels) b.set_label(k, v);
  return std::move(b).freeze();
}

object labelled(const object& obj, const orders::order_ref& ref) {
  auto b = obj.edit();
  orders::claim_order_child(b, ref);
  return std::move(b).freeze();
}

object terminating(const object& obj) {
  auto b = obj.edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  return std::move(b).freeze();
}

namespace {
object with_topology_condition(const object& obj, std::int64_t generation, std::optional<std::int64_t> observed,
                               std::string_view status, std::string_view reason, std::string_view message) {
  auto b = obj.edit();
  b.set_int({"metadata", "generation"}, generation);
  if (observed) b.set_int({"status", "observedGeneration"}, *observed);
  auto doc = parse(fmt::format(R"({{"c":[{{"type":"Ready","status":"{}","reason":"{}","message":"{}"}}]}})", status,
                               reason, message));
  b.set({"status", "conditions"}, k8s::copy_json(*doc.get({"c"}), b.alloc()));
  return std::move(b).freeze();
}
}  // namespace

object topology_ready(const object& obj, std::int64_t generation) {
  return with_topology_condition(obj, generation, generation, "True", "SuccessfulCreateOrUpdate", "");
}

object topology_not_ready(const object& obj, std::int64_t generation) {
  return with_topology_condition(obj, generation, generation - 1, "True", "SuccessfulCreateOrUpdate", "");
}

object topology_failed(const object& obj, std::string_view message) {
  return with_topology_condition(obj, 1, std::nullopt, "False", "FailedCreateOrUpdate", message);
}

object with_condition(const object& obj, std::string_view type, bool status) {
  auto b = obj.edit();
  k8s::condition c{std::string(type), status ? "True" : "False", "R", "", "2026-12-01T00:00:00Z", 0};
  k8s::set_condition(b, c, t0());
  return std::move(b).freeze();
}

object controlled_by(const object& obj, std::string_view uid) {
  auto b = obj.edit();
  b.add_owner_reference({"c5c3.io/v1alpha1", "RabbitMQVhost", "orders", std::string(uid), true, true});
  return std::move(b).freeze();
}

object vhost_order_object(std::string_view ns, std::string_view name, std::string_view spec_json,
                          std::string_view status_json, std::int64_t generation) {
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost",
    "metadata":{{"name":"{}","namespace":"{}","uid":"uid-order","generation":{}}},
    "spec":{},"status":{}}})",
                           name, ns, generation, spec_json, status_json));
}

object control_plane(std::string_view published, bool messaging, bool managed) {
  std::string bus;
  if (messaging) {
    bus = managed ? R"("messaging":{"clusterRef":{"name":"openstack-rabbitmq"}})"
                  : R"("messaging":{"secretRef":{"name":"brownfield"}})";
  }
  std::string pub = published.empty() ? "" : fmt::format(R"(,"publishedMessagingEndpoint":"{}")", published);
  if (bus.empty() && !pub.empty()) pub = pub.substr(1);
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane",
    "metadata":{{"name":"cp","namespace":"openstack","generation":1}},
    "spec":{{"namespaceAssignments":[{{"namespace":"tenant-a"}},
                                      {{"namespace":"tenant-a","targetClusterRef":{{"name":"edge-1"}}}}],
             "infrastructure":{{{}{}}}}}}})",
                           bus, pub));
}

object rabbitmq_cluster(bool ready, bool reports_secret) {
  std::string user = reports_secret
                         ? R"("defaultUser":{"secretReference":{"name":"openstack-rabbitmq-default-user"}},)"
                         : "";
  return parse(fmt::format(R"({{"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
    "metadata":{{"name":"openstack-rabbitmq","namespace":"openstack"}},
    "status":{{{}"conditions":[{{"type":"AllReplicasReady","status":"{}"}}]}}}})",
                           user, ready ? "True" : "False"));
}

object default_user_secret(const std::map<std::string, std::string>& data) {
  return make_secret("openstack", "openstack-rabbitmq-default-user", data);
}

std::vector<std::string> describe(const std::vector<orders::child_write>& writes) {
  std::vector<std::string> out;
  for (auto& w : writes) out.push_back(w.describe());
  return out;
}

}  // namespace c5c3::test
