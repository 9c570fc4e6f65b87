#include "sim/world/cluster_operator.hpp"

#include "sim/world/base64.hpp"

#include <fmt/format.h>

#include <map>

namespace c5c3::sim::world {
namespace {

std::string secret_value(const k8s::object& secret, std::string_view key) {
  auto v = base64_decode(secret.get_string({"data", key}));
  return v ? *v : std::string();
}

k8s::object build_secret(const k8s::object& cluster, const std::map<std::string, std::string>& data) {
  k8s::object_builder b("v1", "Secret", cluster.namespace_(), default_user_secret_name(cluster.name()));
  b.set_string({"type"}, "Opaque");
  b.set_label("app.kubernetes.io/name", cluster.name());
  b.set_label("app.kubernetes.io/component", "rabbitmq");
  b.set_label("app.kubernetes.io/part-of", "rabbitmq");
  k8s::owner_reference owner{std::string(cluster.api_version()), std::string(cluster.kind()),
                             std::string(cluster.name()), std::string(cluster.uid()), true, true};
  if (!owner.uid.empty()) b.add_owner_reference(owner);
  for (const auto& [k, v] : data) b.set_string({"data", k}, base64_encode(v));
  return std::move(b).freeze();
}

bool same_data(const k8s::object& existing, const k8s::object& wanted) {
  const auto* a = existing.get({"data"});
  const auto* b = wanted.get({"data"});
  return a && b && k8s::json_equal(*a, *b) && existing.get_string({"type"}) == "Opaque";
}

}  // namespace

std::string default_user_secret_name(std::string_view cluster) {
  return std::string(cluster) + "-default-user";
}

cluster_plan reconcile_rabbitmq_cluster(const cluster_snapshot& s) {
  cluster_plan plan;
  const auto& c = s.cluster;
  if (!c || c.terminating()) return plan;
  const std::string ns(c.namespace_());
  const std::string name(c.name());

  std::string user, pass, host;
  int port = 5672;
  if (s.real_broker) {
    user = s.real_broker->username;
    pass = s.real_broker->password;
    host = s.real_broker->host;
    port = s.real_broker->amqp_port;
  } else {
    host = fmt::format("{}.{}.svc", name, ns);
    if (s.default_user) {
      user = secret_value(s.default_user, "username");
      pass = secret_value(s.default_user, "password");
    }
    if (user.empty()) user = "default_user_" + s.random(20);
    if (pass.empty()) pass = s.random(32);
  }
  std::map<std::string, std::string> data{
      {"username", user},
      {"password", pass},
      {"default_user.conf", fmt::format("default_user = {}\ndefault_pass = {}\n", user, pass)},
      {"provider", "rabbitmq"},
      {"type", "rabbitmq"},
      {"host", host},
      {"port", std::to_string(port)},
      {"connection_string", fmt::format("amqp://{}:{}@{}:{}/", user, pass, host, port)},
  };
  auto secret = build_secret(c, data);
  if (!s.default_user || !same_data(s.default_user, secret)) {
    plan.writes.push_back({write_verb::upsert, std::move(secret)});
  }

  auto b = c.edit();
  const auto secret_name = default_user_secret_name(name);
  b.set_string({"status", "defaultUser", "secretReference", "name"}, secret_name);
  b.set_string({"status", "defaultUser", "secretReference", "namespace"}, ns);
  b.set_string({"status", "defaultUser", "secretReference", "keys", "username"}, "username");
  b.set_string({"status", "defaultUser", "secretReference", "keys", "password"}, "password");
  b.set_string({"status", "defaultUser", "serviceReference", "name"}, name);
  b.set_string({"status", "defaultUser", "serviceReference", "namespace"}, ns);
  b.set_string({"status", "binding", "name"}, secret_name);
  b.set_int({"status", "observedGeneration"}, c.generation());
  for (const plain_condition& cond :
       {plain_condition{"AllReplicasReady", "True", "AllPodsAreReady", ""},
        plain_condition{"ClusterAvailable", "True", "AtLeastOneEndpointAvailable", ""},
        plain_condition{"NoWarnings", "True", "NoWarnings", ""},
        plain_condition{"ReconcileSuccess", "True", "Success", "Finish reconciling"}}) {
    upsert_condition(b, cond, s.now);
  }
  auto after = std::move(b).freeze();
  if (status_differs(c, after)) plan.writes.push_back({write_verb::update_status, std::move(after)});
  return plan;
}

}  // namespace c5c3::sim::world
