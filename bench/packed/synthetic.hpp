// Synthetic RabbitMQVhost children for the benches of this folder: n Users
// of distinct names, uids and resourceVersions, as the operator writes them.
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <vector>

namespace c5c3::bench {

inline std::vector<k8s::object> synthetic_users(int n) {
  std::vector<k8s::object> out;
  for (int i = 0; i < n; ++i) {
    auto s = std::to_string(i);
    out.push_back(*k8s::object::parse(
        R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"User","metadata":{"name":"vhost-)" + s +
        R"(-user","namespace":"tenant-a","uid":"0b5c)" + s + R"(-7f3e-4c1a-9d2b-5e6f7a8b9c0d","resourceVersion":")" +
        std::to_string(100000 + i * 7) +
        R"(","generation":1,"creationTimestamp":"2026-12-07T07:00:00Z","labels":{"c5c3.io/rabbitmqvhost-name":"vhost-)" +
        s + R"(","app.kubernetes.io/managed-by":"c5c3-operator"},"ownerReferences":[{"apiVersion":"c5c3.io/v1alpha1",)"
        R"("kind":"RabbitMQVhost","name":"vhost-)" + s + R"(","uid":"77aa)" + s +
        R"(-1b2c-4d5e-8f90-a1b2c3d4e5f6","controller":true,"blockOwnerDeletion":true}]},"spec":{"tags":[],)"
        R"("rabbitmqClusterReference":{"name":"rabbitmq","namespace":"openstack"},"importCredentialsSecret":)"
        R"({"name":"vhost-)" + s + R"(-source"}},"status":{"observedGeneration":1,"conditions":[{"type":"Ready",)"
        R"("status":"True","reason":"SuccessfulCreateOrUpdate","lastTransitionTime":"2026-12-07T07:00:01Z"}]}})"));
  }
  return out;
}

}  // namespace c5c3::bench
