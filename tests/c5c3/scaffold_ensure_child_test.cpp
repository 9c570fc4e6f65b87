// ensureOrderChild (apis.md 1.1): refuse a live object the order did not
// create; claim and write otherwise, and only when the live object lacks what
// the child applies.
#include "actors/c5c3/scaffold/ensure_child.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;

namespace {
orders::order_ref ref() { return vhost::make_order_ref("orders", "tenant-a", ""); }
object desired() {
  return parse(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Vhost",
    "metadata":{"name":"orders-32606a5f-vhost-vhost","namespace":"openstack"},
    "spec":{"name":"orders-32606a5f","deletionPolicy":"retain","rabbitmqClusterReference":{"name":"rmq"}}})");
}
object live_with(std::string_view spec) {
  return labelled(parse(std::string(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Vhost",
    "metadata":{"name":"orders-32606a5f-vhost-vhost","namespace":"openstack","resourceVersion":"9"},
    "spec":)") + std::string(spec) + R"(,"status":{"observedGeneration":1}})"),
                  ref());
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_ensure_child)

BOOST_AUTO_TEST_CASE(ensure_order_child_table) {
  const std::string same = R"({"name":"orders-32606a5f","deletionPolicy":"retain","rabbitmqClusterReference":{"name":"rmq"}})";
  const std::string with_defaults =
      R"({"name":"orders-32606a5f","deletionPolicy":"retain","tracing":false,"rabbitmqClusterReference":{"name":"rmq"}})";
  const std::string drifted = R"({"name":"orders-32606a5f","deletionPolicy":"delete","rabbitmqClusterReference":{"name":"rmq"}})";
  auto foreign = make_object("rabbitmq.com/v1beta1", "Vhost", "openstack", "orders-32606a5f-vhost-vhost");
  struct row {
    const char* sentence;
    std::optional<object> live;
    orders::ensure_action action;
  };
  const row rows[] = {
      {"nothing live: the child is created", std::nullopt, orders::ensure_action::create},
      {"a live object the order did not create is refused", foreign, orders::ensure_action::refuse},
      {"a live child carrying every applied field is left alone (no request)", live_with(same),
       orders::ensure_action::unchanged},
      {"fields the server defaults do not read as drift", live_with(with_defaults), orders::ensure_action::unchanged},
      {"a changed field is applied, so a changed policy reaches it", live_with(drifted), orders::ensure_action::apply},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto d = orders::ensure_order_child(ref(), desired(), r.live ? &*r.live : nullptr);
      BOOST_TEST((d.action == r.action));
      BOOST_TEST(d.write.has_value() ==
                 (r.action == orders::ensure_action::create || r.action == orders::ensure_action::apply));
      if (d.write) {
        BOOST_TEST(d.write->body.label("c5c3.io/rabbitmqvhost-cluster").has_value());
        BOOST_TEST(d.write->body.owner_references().empty());
      }
    }
  }
  auto refused = orders::ensure_order_child(ref(), desired(), &foreign);
  BOOST_TEST(refused.refusal ==
             "refusing to adopt pre-existing Vhost openstack/orders-32606a5f-vhost-vhost: it was not created by this "
             "order");
  auto created = orders::ensure_order_child(ref(), desired(), nullptr);
  BOOST_TEST((created.write->verb == orders::write_verb::create));
  const object drifted_live = live_with(drifted);
  auto applied = orders::ensure_order_child(ref(), desired(), &drifted_live);
  BOOST_TEST((applied.write->verb == orders::write_verb::apply));
  BOOST_TEST(applied.write->force);
}

BOOST_AUTO_TEST_SUITE_END()
