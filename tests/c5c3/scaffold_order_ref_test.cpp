// The shared scaffold's naming and ownership: keystone-orders-reconcilers.txt
// "The shared scaffold" (orderRef.childPrefix, childLabels, claimOrderChild,
// isOrderChild, ownsOrderChild, orderChildRequests) and apis.md 1.1 / 1.2.
#include "actors/c5c3/scaffold/namespace_assignment.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using orders::order_ref;

namespace {
order_ref ref(std::string cluster = "", std::string segment = "vhost") {
  return {"orders", "tenant-a", std::move(cluster), std::move(segment),
          {"c5c3.io/rabbitmqvhost-name", "c5c3.io/rabbitmqvhost-namespace", "c5c3.io/rabbitmqvhost-cluster"}};
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_order_ref)

BOOST_AUTO_TEST_CASE(child_prefix_is_name_hash_segment) {
  struct row {
    const char* sentence;
    order_ref o;
    std::string prefix;
  };
  const row rows[] = {
      {"<name>-<first 8 hex of sha256(<cluster>/<namespace>/<name>)>-<segment>- on the management cluster", ref(),
       "orders-32606a5f-vhost-"},
      {"the hash covers the cluster: the same namespace and name on a target cluster is another order",
       ref("edge-1"), "orders-4143a833-vhost-"},
      {"the segment names the kind", ref("", "user"), "orders-32606a5f-user-"},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) { BOOST_TEST(r.o.child_prefix() == r.prefix); }
  }
}

BOOST_AUTO_TEST_CASE(child_labels_carry_an_empty_cluster_label_on_the_management_cluster) {
  auto labels = ref().child_labels();
  BOOST_TEST(labels.size() == 3u);
  BOOST_TEST(labels.at("c5c3.io/rabbitmqvhost-name") == "orders");
  BOOST_TEST(labels.at("c5c3.io/rabbitmqvhost-namespace") == "tenant-a");
  BOOST_REQUIRE(labels.count("c5c3.io/rabbitmqvhost-cluster") == 1u);
  BOOST_TEST(labels.at("c5c3.io/rabbitmqvhost-cluster") == "");
  BOOST_TEST(ref("edge-1").child_labels().at("c5c3.io/rabbitmqvhost-cluster") == "edge-1");
}

BOOST_AUTO_TEST_CASE(claim_order_child_merges_labels_and_never_sets_an_owner_reference) {
  auto b = make_object("v1", "Secret", "openstack", "x", {{"keep", "me"}}).edit();
  orders::claim_order_child(b, ref());
  auto claimed = std::move(b).freeze();
  BOOST_TEST(claimed.labels().size() == 4u);
  BOOST_TEST(*claimed.label("keep") == "me");
  BOOST_TEST(claimed.label("c5c3.io/rabbitmqvhost-cluster").has_value());
  BOOST_TEST(claimed.owner_references().empty());
}

BOOST_AUTO_TEST_CASE(is_and_owns_order_child) {
  const std::string prefix = ref().child_prefix();
  const orders::order_owner owner{"uid-order"};
  struct row {
    const char* sentence;
    object obj;
    bool is_child;
    bool owns;
  };
  const std::map<std::string, std::string> all = ref().child_labels();
  auto without = [&](const std::string& key) {
    auto m = all;
    m.erase(key);
    return m;
  };
  auto with = [&](const std::string& key, const std::string& value) {
    auto m = all;
    m[key] = value;
    return m;
  };
  const row rows[] = {
      {"a child carries all three labels and the prefix", make_object("v1", "Secret", "openstack", prefix + "source", all),
       true, true},
      {"the cluster label must be present, also when it is empty",
       make_object("v1", "Secret", "openstack", prefix + "source", without("c5c3.io/rabbitmqvhost-cluster")), false,
       false},
      {"the cluster label must name the order's cluster",
       make_object("v1", "Secret", "openstack", prefix + "source", with("c5c3.io/rabbitmqvhost-cluster", "edge-1")),
       false, false},
      {"the name label must match",
       make_object("v1", "Secret", "openstack", prefix + "source", with("c5c3.io/rabbitmqvhost-name", "other")), false,
       false},
      {"the namespace label must match",
       make_object("v1", "Secret", "openstack", prefix + "source", with("c5c3.io/rabbitmqvhost-namespace", "other")),
       false, false},
      {"a labelled object outside the prefix is not owned", make_object("v1", "Secret", "openstack", "cp-keystone", all),
       true, false},
      {"a controller reference to the order makes a child (the delivered Secret)",
       controlled_by(make_object("v1", "Secret", "tenant-a", prefix + "x"), "uid-order"), true, true},
      {"a controller reference to something else does not",
       controlled_by(make_object("v1", "Secret", "tenant-a", prefix + "x"), "uid-other"), false, false},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      BOOST_TEST(orders::is_order_child(r.obj, ref(), owner) == r.is_child);
      BOOST_TEST(orders::owns_order_child(r.obj, ref(), owner) == r.owns);
    }
  }
}

BOOST_AUTO_TEST_CASE(order_child_requests_maps_a_child_back_by_its_labels) {
  auto keys = ref().keys;
  struct row {
    const char* sentence;
    std::map<std::string, std::string> labels;
    std::optional<orders::order_request> want;
  };
  const row rows[] = {
      {"the cluster label becomes the request's cluster",
       {{keys.name, "orders"}, {keys.namespace_, "tenant-a"}, {keys.cluster, "edge-1"}},
       orders::order_request{"edge-1", "tenant-a", "orders"}},
      {"an empty cluster label is the management cluster",
       {{keys.name, "orders"}, {keys.namespace_, "tenant-a"}, {keys.cluster, ""}},
       orders::order_request{"", "tenant-a", "orders"}},
      {"without the name label the object belongs to something else",
       {{keys.namespace_, "tenant-a"}, {keys.cluster, ""}}, std::nullopt},
      {"an empty namespace label maps to nothing", {{keys.name, "orders"}, {keys.namespace_, ""}}, std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto got = orders::order_child_requests(make_object("v1", "Secret", "openstack", "x", r.labels), keys);
      BOOST_TEST(got.has_value() == r.want.has_value());
      if (got && r.want) BOOST_TEST((*got == *r.want));
    }
  }
}

BOOST_AUTO_TEST_CASE(namespace_assignment_helpers) {
  auto cp = control_plane();
  auto entries = orders::namespace_assignments_of(cp);
  BOOST_REQUIRE(entries.size() == 2u);
  BOOST_TEST(entries[0].location() == "the management cluster");
  BOOST_TEST(entries[0].describe() == "tenant-a on the management cluster");
  BOOST_TEST(entries[1].location() == "target cluster \"edge-1\"");
  BOOST_TEST(entries[1].describe() == "tenant-a on target cluster \"edge-1\"");
  BOOST_TEST(entries[1].target_cluster_name() == "edge-1");

  struct row {
    const char* sentence;
    std::string ns, cluster;
    const orders::namespace_assignment* want;
  };
  const row rows[] = {
      {"an entry without targetClusterRef is the management cluster's", "tenant-a", "", &entries[0]},
      {"an entry with targetClusterRef is that cluster's", "tenant-a", "edge-1", &entries[1]},
      {"another cluster has no entry", "tenant-a", "edge-2", nullptr},
      {"another namespace has no entry", "tenant-b", "", nullptr},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      BOOST_TEST(orders::namespace_assignment_for(entries, r.ns, r.cluster) == r.want);
    }
  }
  BOOST_TEST(ref().location() == "the management cluster");
  BOOST_TEST(ref("edge-1").location() == "target cluster \"edge-1\"");
}

BOOST_AUTO_TEST_SUITE_END()
