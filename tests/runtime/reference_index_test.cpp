// The order host's reference index (keystone-orders-reconcilers.txt
// "Watches"): an order naming an object by a field, or sharing fields with
// it (a compound key), is found from the object's event alone; the update
// filter; orders coming, changing what they name, and going; the cluster and
// namespace of the order; 10,000 orders, one change.
#include "actors/runtime/reference_index.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace c5c3;
using namespace c5c3::runtime;
using protocol::order_key;

namespace {

const k8s::gvk user_kind{"c5c3.io", "v1alpha1", "KeystoneUser"};
const k8s::gvk credential_kind{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};

k8s::object assignment(const std::string& name, const std::string& user, const std::string& project,
                       const std::string& ns = "tenant-a") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneRoleAssignment", ns, name};
  if (!user.empty()) b.set_string({"spec", "userRef", "name"}, user);
  if (!project.empty()) b.set_string({"spec", "projectRef", "name"}, project);
  return std::move(b).freeze();
}

k8s::object user(const std::string& name, std::int64_t generation = 1, const std::string& ns = "tenant-a") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", ns, name};
  b.set_int({"metadata", "generation"}, generation);
  return std::move(b).freeze();
}

k8s::object credential(const std::string& name, const std::string& user, const std::string& project) {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneApplicationCredential", "tenant-a", name};
  b.set_string({"spec", "userRef", "name"}, user);
  b.set_string({"spec", "projectRef", "name"}, project);
  return std::move(b).freeze();
}

order_key at(const std::string& name, const std::string& cluster = "", const std::string& ns = "tenant-a") {
  return {cluster, ns, name};
}

std::vector<std::string> names(const std::set<order_key>& keys) {
  std::vector<std::string> out;
  for (const auto& k : keys) out.push_back(k.to_string());
  return out;
}

bool generation_moved(const k8s::object& old, const k8s::object& now) {
  return old.generation() != now.generation();
}

const std::vector<std::string> user_ref{"spec", "userRef", "name"};
const std::vector<std::string> project_ref{"spec", "projectRef", "name"};

}  // namespace

BOOST_AUTO_TEST_SUITE(reference_index_table)

BOOST_AUTO_TEST_CASE(a_field_names_an_object_by_name_in_the_orders_namespace_and_cluster) {
  reference_index idx({{user_kind, user_ref, {}, generation_moved}});
  idx.update(at("ra-1"), {}, assignment("ra-1", "alice", "team"));
  idx.update(at("ra-2"), {}, assignment("ra-2", "alice", "other"));
  idx.update(at("ra-3"), {}, assignment("ra-3", "bob", "team"));
  idx.update(at("ra-1", "edge-1"), {}, assignment("ra-1", "alice", "team"));
  idx.update(at("ra-4"), {}, assignment("ra-4", "", "team"));  // names nobody
  BOOST_TEST(idx.entries() == 4u);
  struct row {
    const char* what;
    k8s::object obj, old;
    std::string cluster;
    std::vector<std::string> woken;
  };
  const std::vector<row> rows{
      {"an addition", user("alice"), {}, "", {"/tenant-a/ra-1", "/tenant-a/ra-2"}},
      {"a spec change", user("alice", 2), user("alice", 1), "", {"/tenant-a/ra-1", "/tenant-a/ra-2"}},
      {"a filtered update", user("alice", 1), user("alice", 1), "", {}},
      {"another cluster", user("alice"), {}, "edge-1", {"edge-1/tenant-a/ra-1"}},
      {"another namespace", user("alice", 1, "tenant-b"), {}, "", {}},
      {"a name nobody names", user("carol"), {}, "", {}},
      {"another kind", credential("alice", "x", "y"), {}, "", {}},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.what) { BOOST_TEST(names(idx.woken_by(r.obj, r.old, r.cluster)) == r.woken); }
}

BOOST_AUTO_TEST_CASE(orders_come_change_what_they_name_and_go) {
  reference_index idx({{user_kind, user_ref}});
  idx.update(at("ra-1"), {}, assignment("ra-1", "alice", "team"));
  BOOST_TEST(names(idx.woken_by(user("alice"), {}, "")) == std::vector<std::string>{"/tenant-a/ra-1"});
  idx.update(at("ra-1"), assignment("ra-1", "alice", "team"), assignment("ra-1", "bob", "team"));
  BOOST_TEST(idx.woken_by(user("alice"), {}, "").empty());
  BOOST_TEST(names(idx.woken_by(user("bob"), {}, "")) == std::vector<std::string>{"/tenant-a/ra-1"});
  idx.update(at("ra-1"), assignment("ra-1", "bob", "team"), {});
  BOOST_TEST(idx.woken_by(user("bob"), {}, "").empty());
  BOOST_TEST(idx.entries() == 0u);
}

BOOST_AUTO_TEST_CASE(shared_fields_are_a_compound_key_on_both_sides) {
  reference_index idx({{credential_kind, {}, {user_ref, project_ref}}});
  idx.update(at("ra-1"), {}, assignment("ra-1", "alice", "team"));
  idx.update(at("ra-2"), {}, assignment("ra-2", "alice", "other"));
  idx.update(at("ra-3"), {}, assignment("ra-3", "alice", ""));  // incomplete: not indexed
  BOOST_TEST(names(idx.woken_by(credential("cred", "alice", "team"), {}, "")) ==
             std::vector<std::string>{"/tenant-a/ra-1"});
  BOOST_TEST(idx.woken_by(credential("cred", "bob", "team"), {}, "").empty());
  // A modification that moves the key wakes the orders of both versions.
  BOOST_TEST(names(idx.woken_by(credential("cred", "alice", "other"), credential("cred", "alice", "team"), "")) ==
             (std::vector<std::string>{"/tenant-a/ra-1", "/tenant-a/ra-2"}));
}

BOOST_AUTO_TEST_CASE(an_order_of_the_kind_itself_wakes_its_peers_but_not_itself) {
  const k8s::gvk self_kind{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"};
  reference_index idx({{self_kind, {}, {user_ref, project_ref}}});
  auto a = assignment("ra-1", "alice", "team"), b = assignment("ra-2", "alice", "team");
  idx.update(at("ra-1"), {}, a);
  idx.update(at("ra-2"), {}, b);
  BOOST_TEST(idx.names_kind(a));
  BOOST_TEST(!idx.names_kind(user("alice")));
  auto self = at("ra-1");
  BOOST_TEST(names(idx.woken_by(a, {}, "", &self)) == std::vector<std::string>{"/tenant-a/ra-2"});
}

BOOST_AUTO_TEST_CASE(ten_thousand_orders_one_change_wakes_only_its_own) {
  reference_index idx({{user_kind, user_ref}});
  for (int i = 0; i < 10000; ++i) {
    auto name = "ra-" + std::to_string(i);
    idx.update(at(name), {}, assignment(name, "user-" + std::to_string(i % 1000), "team"));
  }
  BOOST_TEST(idx.entries() == 10000u);
  auto woken = idx.woken_by(user("user-7"), {}, "");
  BOOST_TEST(woken.size() == 10u);
  for (const auto& k : woken) BOOST_TEST((std::stoi(k.name.substr(3)) % 1000 == 7));
}

BOOST_AUTO_TEST_SUITE_END()
