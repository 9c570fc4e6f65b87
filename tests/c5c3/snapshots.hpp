// Small builders of the objects an order sees, for the step tests.
#pragma once

#include "actors/c5c3/rabbitmqvhost/provision.hpp"
#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "k8s/object.hpp"

#include <map>
#include <string>
#include <vector>

namespace c5c3::test {

namespace k8s = ::c5c3::k8s;
namespace orders = ::c5c3::c5c3;
namespace vhost = ::c5c3::c5c3::rabbitmqvhost;

using k8s::object;
using k8s::time_point;

// Parses JSON text into an object; fails the test on a parse error.
object parse(std::string_view json);

// A fixed instant: 2026-12-01T00:00:00Z.
time_point t0();

// Deterministic randomness: byte i of call k is (seed + k + i) & 0xff.
orders::random_source counting_random(unsigned seed = 0);

// An object of apiVersion/kind/namespace/name with labels.
object make_object(std::string_view api_version, std::string_view kind, std::string_view ns,
                   std::string_view name, const std::map<std::string, std::string>& labels = {});
// A Secret with plain data (base64-encoded here).
object make_secret(std::string_view ns, std::string_view name, const std::map<std::string, std::string>& data,
                   const std::map<std::string, std::string>& labels = {});
// `obj` with the order's three labels.
object labelled(const object& obj, const orders::order_ref& ref);
// `obj` with a deletionTimestamp.
object terminating(const object& obj);
// A topology object's status: Ready True at its generation (observed), or
// FailedCreateOrUpdate with `message`.
object topology_ready(const object& obj, std::int64_t generation = 1);
object topology_not_ready(const object& obj, std::int64_t generation = 1);
object topology_failed(const object& obj, std::string_view message);
// `obj` with status.conditions [{type, status}].
object with_condition(const object& obj, std::string_view type, bool status);
// `obj` with a controller owner reference of uid.
object controlled_by(const object& obj, std::string_view uid);

// A RabbitMQVhost order; `spec` is the JSON of its spec (defaults to a
// controlPlaneRef named "cp").
object vhost_order_object(std::string_view ns = "tenant-a", std::string_view name = "orders",
                          std::string_view spec_json = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})",
                          std::string_view status_json = "{}", std::int64_t generation = 1);

// A ControlPlane openstack/cp assigning tenant-a on the management cluster
// and on target cluster edge-1, with a managed bus openstack-rabbitmq and a
// published endpoint when `published` is not empty.
object control_plane(std::string_view published = "", bool messaging = true, bool managed = true);

// The RabbitmqCluster openstack/openstack-rabbitmq, AllReplicasReady, and
// its default-user Secret.
object rabbitmq_cluster(bool ready = true, bool reports_secret = true);
object default_user_secret(const std::map<std::string, std::string>& data = {
                               {"username", "admin"}, {"password", "s3cr3t"},
                               {"host", "openstack-rabbitmq.openstack.svc"}, {"port", "5672"}});

// The writes of a plan as "verb Kind ns/name" lines.
std::vector<std::string> describe(const std::vector<orders::child_write>& writes);

}  // namespace c5c3::test
