#include "actors/c5c3/rabbitmqvhost/topology.hpp"

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

k8s::object_builder topology_object(std::string_view kind, std::string_view name, std::string_view namespace_,
                                    std::string_view cluster) {
  k8s::object_builder b(topology_api_version, kind, namespace_, name);
  b.set_string({"spec", "rabbitmqClusterReference", "name"}, cluster);
  return b;
}

}  // namespace

k8s::object build_vhost(std::string_view name, std::string_view namespace_, std::string_view vhost,
                        std::string_view cluster, std::string_view deletion_policy) {
  auto b = topology_object("Vhost", name, namespace_, cluster);
  b.set_string({"spec", "name"}, vhost);
  b.set_string({"spec", "deletionPolicy"}, deletion_policy);
  return std::move(b).freeze();
}

k8s::object build_user(std::string_view name, std::string_view namespace_, std::string_view cluster,
                       std::string_view credentials_secret) {
  auto b = topology_object("User", name, namespace_, cluster);
  b.set_string({"spec", "importCredentialsSecret", "name"}, credentials_secret);
  return std::move(b).freeze();
}

k8s::object build_permission(std::string_view name, std::string_view namespace_, std::string_view cluster,
                             std::string_view vhost, std::string_view username) {
  auto b = topology_object("Permission", name, namespace_, cluster);
  b.set_string({"spec", "vhost"}, vhost);
  b.set_string({"spec", "user"}, username);
  b.set_string({"spec", "permissions", "configure"}, ".*");
  b.set_string({"spec", "permissions", "write"}, ".*");
  b.set_string({"spec", "permissions", "read"}, ".*");
  return std::move(b).freeze();
}

bool topology_ready(const k8s::object& obj) {
  const auto* observed = obj.get({"status", "observedGeneration"});
  if (!observed || !observed->IsInt64() || observed->GetInt64() != obj.generation()) return false;
  auto c = obj.find_condition("Ready");
  return c && c->is_true();
}

std::string topology_failure(const k8s::object& obj) {
  auto c = obj.find_condition("Ready");
  if (!c || c->status != "False" || c->reason != "FailedCreateOrUpdate") return {};
  return c->message.empty() ? c->reason : c->message;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
