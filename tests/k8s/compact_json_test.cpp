// A frozen object's storage (k8s/compact_json.hpp): one buffer of exactly the
// size the copy takes, long member names shared by every object.
#include "k8s/compact_json.hpp"
#include "k8s/object.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <thread>
#include <vector>

using namespace c5c3::k8s;

namespace {

// A child as the informers cache them: long and short names and strings,
// numbers, booleans, null, nested and empty objects and arrays.
const char* child_json = R"({
  "apiVersion": "rabbitmq.com/v1beta1", "kind": "Vhost",
  "metadata": {"name": "bench-00001-f381ee09-vhost-vhost", "namespace": "openstack",
               "creationTimestamp": "2026-12-03T17:46:54Z", "resourceVersion": "118", "generation": 1,
               "uid": "bad9a9b7-b0b1-41b1-a445-119832e7025e",
               "labels": {"c5c3.io/rabbitmqvhost-name": "bench-00001", "c5c3.io/rabbitmqvhost-namespace": "tenant-a"},
               "ownerReferences": [{"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost", "name": "bench-00001",
                                    "uid": "u-1", "controller": true, "blockOwnerDeletion": true}],
               "annotations": {}, "finalizers": []},
  "spec": {"name": "bench-00001-f381ee09", "rabbitmqClusterReference": {"name": "openstack-rabbitmq"},
           "defaultQueueType": null, "tracing": false, "weight": 1.5, "big": 18446744073709551615, "neg": -7},
  "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-12-03T17:46:55Z",
                             "reason": "SuccessfulCreateOrUpdate", "message": ""}], "observedGeneration": 1}})";

object parse(const std::string& text) {
  auto o = object::parse(text);
  BOOST_REQUIRE(o);
  return *o;
}

const json_value& name_of(const object& o, std::string_view path_member) {
  const json_value* meta = member(o.json(), "metadata");
  BOOST_REQUIRE(meta);
  for (auto& m : meta->GetObject())
    if (as_string_view(m.name) == path_member) return m.name;
  BOOST_FAIL("no such member");
  throw;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compact_storage)

BOOST_AUTO_TEST_CASE(the_storage_is_exactly_what_the_copy_takes) {
  auto o = parse(child_json);
  auto [used, reserved] = usage_of(o.json());
  BOOST_TEST(used > 0u);
  BOOST_TEST(used == reserved);  // measured exactly: no slack, no second chunk
  BOOST_TEST(to_json(o.json()) == to_json(*parse_json(child_json)));
  // An object edited and frozen again is measured again.
  auto b = o.edit();
  b.set_label("a-label-key-longer-than-13", "a value longer than thirteen");
  auto edited = std::move(b).freeze();
  auto [used2, reserved2] = usage_of(edited.json());
  BOOST_TEST(used2 == reserved2);
  BOOST_TEST(used2 > used);
}

BOOST_AUTO_TEST_CASE(long_member_names_are_kept_once) {
  auto a = parse(child_json);
  auto b = parse(child_json);
  BOOST_TEST(!a.same_document(b));
  // A long name: the same bytes in both objects.
  auto addr = [](const json_value& v) { return static_cast<const void*>(v.GetString()); };
  BOOST_TEST(addr(name_of(a, "creationTimestamp")) == addr(name_of(b, "creationTimestamp")));
  // A long string value is each object's own.
  const json_value* ta = a.get({"metadata", "creationTimestamp"});
  const json_value* tb = b.get({"metadata", "creationTimestamp"});
  BOOST_TEST(addr(*ta) != addr(*tb));
  BOOST_TEST(as_string_view(*ta) == as_string_view(*tb));
  // Names are kept once per process however many objects carry them.
  auto before = interned_names();
  parse(R"({"metadata": {"a-name-no-other-test-uses": 1}})");
  BOOST_TEST(interned_names() == before + 1);
  parse(R"({"metadata": {"a-name-no-other-test-uses": 2}})");
  BOOST_TEST(interned_names() == before + 1);
}

BOOST_AUTO_TEST_CASE(copies_outlive_the_object_they_came_from) {
  object_builder b;
  {
    auto o = parse(child_json);
    b = o.edit();
  }
  b.set_string({"spec", "name"}, "renamed");
  auto frozen = std::move(b).freeze();
  BOOST_TEST(frozen.get_string({"spec", "name"}) == "renamed");
  BOOST_TEST(*frozen.label("c5c3.io/rabbitmqvhost-name") == "bench-00001");
  BOOST_TEST(frozen.creation_timestamp() == "2026-12-03T17:46:54Z");
  BOOST_TEST(frozen.get({"spec", "big"})->GetUint64() == 18446744073709551615u);
  BOOST_TEST(frozen.get({"spec", "weight"})->GetDouble() == 1.5);
}

// An object is one pointer to its block: copies share it, the last one to go
// (on whichever thread) frees it, and an empty object holds none.
BOOST_AUTO_TEST_CASE(copies_share_one_block_and_the_last_one_frees_it) {
  static_assert(sizeof(object) == sizeof(void*));
  auto o = parse(child_json);
  const void* root = &o.json();
  {
    object copy = o;
    object moved = std::move(copy);
    BOOST_TEST(moved.same_document(o));
    BOOST_TEST(&moved.json() == root);
    BOOST_TEST(!copy);  // NOLINT(bugprone-use-after-move): a moved-from object is empty
    copy = moved;
    object& alias = copy;
    copy = alias;  // self-assignment keeps it
    BOOST_TEST(copy.same_document(o));
  }
  std::vector<std::thread> threads;
  std::vector<object> held(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        object c = o;
        held[t] = c;
      }
    });
  for (auto& t : threads) t.join();
  o = object();
  BOOST_TEST(!o);
  // The threads' last copies keep the block: ASan would see a use after free.
  for (auto& h : held) BOOST_TEST(h.get_string({"spec", "name"}) == "bench-00001-f381ee09");
  held.clear();
}

BOOST_AUTO_TEST_SUITE_END()
