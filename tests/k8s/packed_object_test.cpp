// k8s::packed_object and object_packer: an object packed and unpacked is the
// same JSON, its namespace, name and resourceVersion read without unpacking;
// a dictionary of the store's own objects packs their siblings to a fraction
// of their size, and objects packed before it unpack again once repacked.
#include "k8s/packed_object.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace c5c3::k8s;

namespace {

// A child as the RabbitMQVhost orders have them: long labels, an owner
// reference, conditions; `i` makes the name, uid and version differ.
object child(int i, const std::string& ns = "tenant-a") {
  auto n = std::to_string(i);
  auto o = object::parse(
      R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"User","metadata":{"name":"vhost-)" + n +
      R"(-user","namespace":")" + ns + R"(","uid":"0b5c)" + n + R"(-7f3e-4c1a-9d2b-5e6f7a8b9c0d","resourceVersion":")" +
      std::to_string(1000 + i) +
      R"(","generation":1,"creationTimestamp":"2026-12-07T07:00:00Z","labels":{"c5c3.io/rabbitmqvhost-name":"vhost-)" + n +
      R"(","app.kubernetes.io/managed-by":"c5c3-operator"},"ownerReferences":[{"apiVersion":"c5c3.io/v1alpha1",)"
      R"("kind":"RabbitMQVhost","name":"vhost-)" + n +
      R"(","uid":"77aa-)" + n + R"(","controller":true,"blockOwnerDeletion":true}]},"spec":{"tags":[],)"
      R"("rabbitmqClusterReference":{"name":"rabbitmq","namespace":"openstack"},"importCredentialsSecret":)"
      R"({"name":"vhost-)" + n + R"(-source"}},"status":{"observedGeneration":1,"conditions":[{"type":"Ready",)"
      R"("status":"True","reason":"SuccessfulCreateOrUpdate","lastTransitionTime":"2026-12-07T07:00:01Z"}],)"
      R"("ratio":0.25}})");
  BOOST_TEST_REQUIRE(o.has_value());
  return *o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(k8s_packed_object)

BOOST_AUTO_TEST_CASE(an_object_unpacks_to_the_same_json_and_its_names_read_packed) {
  object_packer packer;
  for (const auto& o : {child(1), child(2, "")}) {
    auto p = packer.pack(o);
    BOOST_TEST(p.namespace_() == o.namespace_());
    BOOST_TEST(p.name() == o.name());
    BOOST_TEST(p.resource_version() == o.resource_version());
    auto back = packer.unpack(p);
    BOOST_TEST_REQUIRE(static_cast<bool>(back));
    BOOST_TEST(json_equal(back.json(), o.json()));
    BOOST_TEST(back.to_json() == o.to_json());
  }
  BOOST_TEST(!packer.unpack(packed_object()));
  BOOST_TEST(packed_object().name().empty());
}

BOOST_AUTO_TEST_CASE(a_dictionary_of_siblings_packs_a_new_one_to_a_fraction) {
  object_packer packer;
  std::vector<packed_object> held;
  std::size_t i = 0;
  for (; !packer.due(held.size()); ++i) held.push_back(packer.pack(child(static_cast<int>(i))));
  BOOST_TEST(held.size() == object_packer::thresholds[0]);
  BOOST_TEST(packer.dictionary_size() == 0u);
  auto text = child(100).to_json().size();
  auto without = packer.pack(child(100)).allocated();

  auto old = packer.renew();
  BOOST_TEST(packer.dictionary_size() > 0u);
  BOOST_TEST(packer.dictionary_size() <= object_packer::max_dictionary_bytes);
  for (auto& p : held) p = packer.repack(p, old);
  old.reset();
  auto with = packer.pack(child(100)).allocated();
  BOOST_TEST_MESSAGE("text " << text << " B, packed without a dictionary " << without << " B, with " << with << " B");
  BOOST_TEST(without < text);
  BOOST_TEST(with * 3 < without);  // measured: 813 B of text, 521 without, 60 with

  // What was packed before the dictionary unpacks with it once repacked.
  for (std::size_t k = 0; k < held.size(); ++k) {
    BOOST_TEST(held[k].name() == child(static_cast<int>(k)).name());
    BOOST_TEST(packer.unpack(held[k]).to_json() == child(static_cast<int>(k)).to_json());
  }
}

BOOST_AUTO_TEST_CASE(dictionaries_come_at_each_threshold_and_then_no_more) {
  object_packer packer;
  std::size_t size = 0;
  std::size_t renewed = 0;
  for (; size <= object_packer::thresholds.back() + 1; ++size) {
    if (!packer.due(size)) continue;
    // Sampled only while a dictionary is due: a pack per threshold will do.
    packer.pack(child(static_cast<int>(size)));
    packer.renew();
    ++renewed;
  }
  BOOST_TEST(renewed == object_packer::thresholds.size());
  BOOST_TEST(!packer.due(size * 2));
  BOOST_TEST(packer.dictionary_size() > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
