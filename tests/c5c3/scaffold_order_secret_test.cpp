// ensureOrderSecret: a read-modify-write of a labelled Secret, so a generated
// value is kept across passes (keystone-orders-reconcilers.txt).
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;

namespace {
orders::order_ref ref() { return vhost::make_order_ref("orders", "tenant-a", ""); }
orders::order_secret_spec spec() {
  return {"openstack", "orders-32606a5f-vhost-password-v1", {{"username", "orders-32606a5f-v1"}}, {"password"},
          {{"rabbitmq.com/topology-operator", "true"}}};
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_order_secret)

BOOST_AUTO_TEST_CASE(a_missing_secret_is_created_with_a_generated_value) {
  auto d = orders::ensure_order_secret(ref(), spec(), nullptr, counting_random());
  BOOST_TEST((d.ensure.action == orders::ensure_action::create));
  BOOST_REQUIRE(d.ensure.write);
  const object& body = d.ensure.write->body;
  BOOST_TEST(d.data.at("password").size() == 43u);
  BOOST_TEST(*orders::secret_value(body, "password") == d.data.at("password"));
  BOOST_TEST(*orders::secret_value(body, "username") == "orders-32606a5f-v1");
  BOOST_TEST(*body.label("rabbitmq.com/topology-operator") == "true");
  BOOST_TEST(*body.label("c5c3.io/rabbitmqvhost-name") == "orders");
  BOOST_TEST(body.get_string({"type"}) == "Opaque");
}

BOOST_AUTO_TEST_CASE(a_generated_value_is_kept_across_passes) {
  auto first = orders::ensure_order_secret(ref(), spec(), nullptr, counting_random(1));
  auto live = first.ensure.write->body;
  auto again = orders::ensure_order_secret(ref(), spec(), &live, counting_random(2));
  BOOST_TEST((again.ensure.action == orders::ensure_action::unchanged));
  BOOST_TEST(again.data.at("password") == first.data.at("password"));
}

BOOST_AUTO_TEST_CASE(read_modify_write_table) {
  auto base = labelled(make_secret("openstack", "orders-32606a5f-vhost-password-v1",
                                   {{"username", "stale"}, {"password", "kept-value"}, {"extra", "x"}},
                                   {{"rabbitmq.com/topology-operator", "true"}}),
                       ref());
  auto with_rv = base.edit();
  with_rv.set_resource_version("41");
  auto live = std::move(with_rv).freeze();
  auto d = orders::ensure_order_secret(ref(), spec(), &live, counting_random());
  BOOST_TEST_CONTEXT("a set key is rewritten, a generated one kept, others left") {
    BOOST_TEST((d.ensure.action == orders::ensure_action::apply));
    BOOST_TEST((d.ensure.write->verb == orders::write_verb::update));
    BOOST_TEST(d.ensure.write->body.resource_version() == "41");
    BOOST_TEST(d.data.at("username") == "orders-32606a5f-v1");
    BOOST_TEST(d.data.at("password") == "kept-value");
    BOOST_TEST(d.data.at("extra") == "x");
  }
  BOOST_TEST_CONTEXT("a dropped key is removed") {
    auto dropping = spec();
    dropping.dropped = {"extra"};
    auto r = orders::ensure_order_secret(ref(), dropping, &live, counting_random());
    BOOST_TEST(!r.data.contains("extra"));
    BOOST_TEST(!orders::secret_value(r.ensure.write->body, "extra"));
    BOOST_TEST(r.data.at("password") == "kept-value");
  }
  BOOST_TEST_CONTEXT("an empty generated value is generated again") {
    auto empty = labelled(make_secret("openstack", "orders-32606a5f-vhost-password-v1", {{"password", ""}}), ref());
    auto e = orders::ensure_order_secret(ref(), spec(), &empty, counting_random());
    BOOST_TEST(e.data.at("password").size() == 43u);
  }
  BOOST_TEST_CONTEXT("the update keeps the owners and finalizers others put on the Secret") {
    auto owned = live.edit();
    owned.add_owner_reference({"v1", "ConfigMap", "holder", "uid-holder", false, false});
    owned.add_finalizer("backup.example.com/keep");
    auto held = std::move(owned).freeze();
    auto u = orders::ensure_order_secret(ref(), spec(), &held, counting_random());
    BOOST_TEST((u.ensure.action == orders::ensure_action::apply));
    const auto refs = u.ensure.write->body.owner_references();
    BOOST_TEST_REQUIRE(refs.size() == 1u);
    BOOST_TEST(refs[0].uid == "uid-holder");
    BOOST_TEST(u.ensure.write->body.has_finalizer("backup.example.com/keep"));
    // Nothing else to change: the owners and finalizers alone are no reason to write.
    auto again = orders::ensure_order_secret(ref(), spec(), &u.ensure.write->body, counting_random());
    BOOST_TEST((again.ensure.action == orders::ensure_action::unchanged));
  }
  BOOST_TEST_CONTEXT("a Secret of that name the order did not create is refused") {
    auto foreign = make_secret("openstack", "orders-32606a5f-vhost-password-v1", {{"password", "theirs"}});
    auto f = orders::ensure_order_secret(ref(), spec(), &foreign, counting_random());
    BOOST_TEST(f.ensure.refused());
    BOOST_TEST(!f.ensure.write);
    BOOST_TEST(f.ensure.refusal.find("theirs") == std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
