#include "actors/runtime/ownership.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <optional>

using namespace c5c3;
using namespace c5c3::runtime;
using protocol::order_key;

namespace {
const ownership_keys keys{"c5c3.io/keystoneuser-name", "c5c3.io/keystoneuser-namespace",
                          "c5c3.io/keystoneuser-cluster"};
const k8s::gvk order_kind{"c5c3.io", "v1alpha1", "KeystoneUser"};

k8s::object child(const std::map<std::string, std::string>& labels) {
  k8s::object_builder b{"openstack.k-orc.cloud/v1alpha1", "User", "cp-ns", "alice-1234abcd-user"};
  for (const auto& [k, v] : labels) b.set_label(k, v);
  return std::move(b).freeze();
}
}  // namespace

BOOST_AUTO_TEST_SUITE(ownership_mapping)

// apis.md orderChildToRequests: name and namespace labels non-empty; the
// cluster label value becomes the request's cluster.
BOOST_AUTO_TEST_CASE(label_rows) {
  struct row {
    const char* name;
    std::map<std::string, std::string> labels;
    std::optional<order_key> expected;
  };
  const row rows[] = {
      {"all three, management cluster",
       {{keys.name, "alice"}, {keys.namespace_, "tenant-a"}, {keys.cluster, ""}},
       order_key{"", "tenant-a", "alice"}},
      {"all three, target cluster",
       {{keys.name, "alice"}, {keys.namespace_, "tenant-a"}, {keys.cluster, "edge-1"}},
       order_key{"edge-1", "tenant-a", "alice"}},
      {"cluster label absent", {{keys.name, "alice"}, {keys.namespace_, "tenant-a"}},
       order_key{"", "tenant-a", "alice"}},
      {"name empty", {{keys.name, ""}, {keys.namespace_, "tenant-a"}, {keys.cluster, ""}},
       std::nullopt},
      {"namespace empty", {{keys.name, "alice"}, {keys.namespace_, ""}, {keys.cluster, ""}},
       std::nullopt},
      {"name missing", {{keys.namespace_, "tenant-a"}, {keys.cluster, ""}}, std::nullopt},
      {"namespace missing", {{keys.name, "alice"}, {keys.cluster, "x"}}, std::nullopt},
      {"another kind's labels",
       {{"c5c3.io/keystoneproject-name", "p"}, {"c5c3.io/keystoneproject-namespace", "n"}},
       std::nullopt},
      {"no labels", {}, std::nullopt},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto got = order_of_labels(child(r.labels), keys);
      BOOST_TEST(got.has_value() == r.expected.has_value());
      if (got && r.expected) BOOST_TEST(got->to_string() == r.expected->to_string());
    }
  }
}

BOOST_AUTO_TEST_CASE(controller_reference_maps_to_the_owner_on_the_event_cluster) {
  k8s::object_builder b{"v1", "Secret", "tenant-a", "alice-clouds"};
  b.add_owner_reference({"c5c3.io/v1alpha1", "KeystoneUser", "alice", "u-1", true, true});
  auto secret = std::move(b).freeze();
  auto k = order_of_child(secret, "edge-1", keys, order_kind);
  BOOST_REQUIRE(k);
  BOOST_TEST(k->to_string() == "edge-1/tenant-a/alice");

  // Not the controller, another kind, or another group: no order.
  k8s::object_builder nc{"v1", "Secret", "tenant-a", "s"};
  nc.add_owner_reference({"c5c3.io/v1alpha1", "KeystoneUser", "alice", "u-1", false, false});
  BOOST_TEST(!order_of_child(std::move(nc).freeze(), "", keys, order_kind));
  k8s::object_builder ok{"v1", "Secret", "tenant-a", "s"};
  ok.add_owner_reference({"c5c3.io/v1alpha1", "KeystoneProject", "p", "u-2", true, true});
  BOOST_TEST(!order_of_child(std::move(ok).freeze(), "", keys, order_kind));
  k8s::object_builder og{"v1", "Secret", "tenant-a", "s"};
  og.add_owner_reference({"other.io/v1", "KeystoneUser", "alice", "u-3", true, true});
  BOOST_TEST(!order_of_child(std::move(og).freeze(), "", keys, order_kind));
}

BOOST_AUTO_TEST_CASE(labels_win_over_the_controller_reference) {
  k8s::object_builder b{"v1", "Secret", "tenant-a", "x"};
  b.set_label(keys.name, "bob").set_label(keys.namespace_, "tenant-b").set_label(keys.cluster, "c");
  b.add_owner_reference({"c5c3.io/v1alpha1", "KeystoneUser", "alice", "u-1", true, true});
  auto k = order_of_child(std::move(b).freeze(), "edge-1", keys, order_kind);
  BOOST_REQUIRE(k);
  BOOST_TEST(k->to_string() == "c/tenant-b/bob");
}

BOOST_AUTO_TEST_CASE(a_child_without_the_cluster_label_maps_to_the_order_beside_it) {
  // The delivered Secret: name and namespace labels, a controller reference,
  // no cluster label. On a target cluster it names that cluster's order.
  k8s::object_builder b{"v1", "Secret", "tenant-a", "alice-credentials"};
  b.set_label(keys.name, "alice").set_label(keys.namespace_, "tenant-a");
  b.add_owner_reference({"c5c3.io/v1alpha1", "KeystoneUser", "alice", "u-1", true, true});
  auto delivered = std::move(b).freeze();
  BOOST_TEST(order_of_child(delivered, "edge-1", keys, order_kind)->to_string() == "edge-1/tenant-a/alice");
  BOOST_TEST(order_of_child(delivered, "", keys, order_kind)->to_string() == "/tenant-a/alice");
  // Labels only (the owner reference stripped by a user): still beside its order.
  k8s::object_builder l{"v1", "Secret", "tenant-a", "alice-credentials"};
  l.set_label(keys.name, "alice").set_label(keys.namespace_, "tenant-a");
  BOOST_TEST(order_of_child(std::move(l).freeze(), "edge-1", keys, order_kind)->to_string() ==
             "edge-1/tenant-a/alice");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(reference_mapping)

// A referencing object names the order by a field, in its own namespace on
// the cluster its event came from; another kind, an absent or non-string
// field, or an empty name maps to nothing.
BOOST_AUTO_TEST_CASE(reference_rows) {
  const reference_field ref{{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"}, {"spec", "userRef", "name"}};
  struct row {
    const char* name;
    const char* api_version;
    const char* kind;
    const char* spec;
    const char* cluster;
    std::optional<order_key> expected;
  };
  const row rows[] = {
      {"names a user", "c5c3.io/v1alpha1", "KeystoneRoleAssignment", R"({"userRef":{"name":"alice"}})", "",
       order_key{"", "tenant-a", "alice"}},
      {"on a target cluster", "c5c3.io/v1alpha1", "KeystoneRoleAssignment", R"({"userRef":{"name":"alice"}})",
       "edge-1", order_key{"edge-1", "tenant-a", "alice"}},
      {"any version", "c5c3.io/v1beta9", "KeystoneRoleAssignment", R"({"userRef":{"name":"alice"}})", "",
       order_key{"", "tenant-a", "alice"}},
      {"another group", "other.io/v1alpha1", "KeystoneRoleAssignment", R"({"userRef":{"name":"alice"}})", "",
       std::nullopt},
      {"another kind", "c5c3.io/v1alpha1", "KeystoneApplicationCredential", R"({"userRef":{"name":"alice"}})", "",
       std::nullopt},
      {"field absent", "c5c3.io/v1alpha1", "KeystoneRoleAssignment", R"({"projectRef":{"name":"p"}})", "",
       std::nullopt},
      {"empty name", "c5c3.io/v1alpha1", "KeystoneRoleAssignment", R"({"userRef":{"name":""}})", "", std::nullopt},
      {"not a string", "c5c3.io/v1alpha1", "KeystoneRoleAssignment", R"({"userRef":{"name":7}})", "", std::nullopt},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      std::string json = std::string(R"({"apiVersion":")") + r.api_version + R"(","kind":")" + r.kind +
                         R"(","metadata":{"name":"ra","namespace":"tenant-a"},"spec":)" + r.spec + "}";
      auto obj = k8s::object::parse(json);
      BOOST_REQUIRE(obj);
      auto got = order_of_reference(*obj, r.cluster, ref);
      BOOST_TEST(got.has_value() == r.expected.has_value());
      if (got && r.expected) BOOST_TEST(got->to_string() == r.expected->to_string());
    }
  }
  BOOST_TEST(!order_of_reference(k8s::object{}, "", ref));
}

BOOST_AUTO_TEST_SUITE_END()
