// informer_cache: which narrower lists a cache answers, the label indexes
// giving the same answer as a scan (through relabels, erases, namespaces),
// and the field index (the duplicate rule of KeystoneRoleAssignment) re-keyed
// as objects change their fields.
#include "actors/cluster/informer_cache.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

namespace {

using c5c3::cluster::informer_cache;
using c5c3::k8s::field_selector;
using c5c3::k8s::label_selector;
using c5c3::k8s::object;

object labelled(const std::string& ns, const std::string& name, const std::string& labels) {
  return *object::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"namespace":")" + ns + R"(","name":")" +
                       name + R"(","labels":{)" + labels + "}}}");
}

label_selector sel(const std::string& s) { return *label_selector::parse(s); }

object assignment(const std::string& ns, const std::string& name, const std::string& user, const std::string& role) {
  return *object::parse(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneRoleAssignment","metadata":{"namespace":")" +
                        ns + R"(","name":")" + name + R"("},"spec":{"userRef":{"name":")" + user +
                        R"("},"projectRef":{"name":"team"},"role":")" + role + R"("}})");
}

field_selector fields(const std::string& s) { return *field_selector::parse(s); }

std::string names(const std::vector<object>& objs) {
  std::string out;
  for (const auto& o : objs) out += std::string(o.name()) + ",";
  return out;
}

// What a scan of every object answers (the cache's store, in key order).
std::string scanned(const informer_cache& c, const std::string& ns, const label_selector& request) {
  std::string out;
  for (const auto& o : c.all())
    if ((ns.empty() || o.namespace_() == ns) && request.matches(o)) out += std::string(o.name()) + ",";
  return out;
}

// Every request of `requests` in every namespace (and all of them) answers
// as a scan does; at least one of them selects something.
void answers_as_a_scan(const informer_cache& c, const std::vector<std::string>& requests) {
  bool some = false;
  for (const auto& r : requests) {
    for (const std::string ns : {"", "ns1", "ns2", "ns3"}) {
      BOOST_TEST_INFO("request '" << r << "' namespace '" << ns << "'");
      auto got = names(c.list(ns, sel(r)));
      BOOST_TEST(got == scanned(c, ns, sel(r)));
      some = some || !got.empty();
    }
  }
  BOOST_TEST(some);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(informer_cache_test)

BOOST_AUTO_TEST_CASE(covers_requests_that_imply_the_informers_selector) {
  struct row {
    std::string informer, request;
    bool covers;
  };
  const row rows[] = {
      {"", "", true},
      {"", "a=b", true},
      {"o", "o", true},
      {"o", "o=x", true},
      {"o", "o in (x,y)", true},
      {"o", "o=x,p=y", true},
      {"o", "p=y", false},
      {"o", "", false},
      {"o", "o!=x", false},
      {"o,p", "o=x", false},
      {"o,p", "o=x,p", true},
      {"o in (x,y)", "o=x", true},
      {"o in (x,y)", "o=z", false},
      {"o=x", "o=x,p=y", true},
      {"o=x", "o=y", false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_INFO("informer '" << r.informer << "' request '" << r.request << "'");
    BOOST_TEST(informer_cache(r.informer).covers(sel(r.request)) == r.covers);
  }
}

BOOST_AUTO_TEST_CASE(index_answers_as_a_scan_does_through_updates_and_deletes) {
  informer_cache c("o");
  c.put(labelled("ns1", "a1", R"("o":"a","n":"ns1")"));
  c.put(labelled("ns1", "a2", R"("o":"a","n":"ns2")"));
  c.put(labelled("ns2", "a3", R"("o":"a","n":"ns1")"));
  c.put(labelled("ns1", "b1", R"("o":"b","n":"ns1")"));
  BOOST_TEST(names(c.list("", sel("o=a"))) == "a1,a2,a3,");
  BOOST_TEST(names(c.list("ns1", sel("o=a"))) == "a1,a2,");
  BOOST_TEST(names(c.list("", sel("o=a,n=ns1"))) == "a1,a3,");
  BOOST_TEST(names(c.list("", sel("o=c"))) == "");
  BOOST_TEST(names(c.list("", sel("o in (a,b),n=ns1"))) == "a1,b1,a3,");  // not indexed: a scan, in key order
  // A relabelled object leaves its old bucket.
  c.put(labelled("ns1", "a1", R"("o":"b","n":"ns1")"));
  BOOST_TEST(names(c.list("", sel("o=a"))) == "a2,a3,");
  BOOST_TEST(names(c.list("", sel("o=b"))) == "a1,b1,");
  c.erase(c5c3::k8s::object_key{"ns1", "b1"});
  BOOST_TEST(names(c.list("", sel("o=b"))) == "a1,");
  BOOST_TEST(!c.get(c5c3::k8s::object_key{"ns1", "b1"}));
  BOOST_TEST(c.size() == 3u);
}

// Lists pinning any label (not only the informer's `exists` key) are
// answered from an index on one pinned key, built on the first such list:
// the same objects in the same order as a scan, as objects arrive, change
// their labels (they move between buckets; a label dropped or added), and go.
BOOST_AUTO_TEST_CASE(label_indexes_answer_as_a_scan_through_relabels_erases_and_namespaces) {
  const std::vector<std::string> requests = {
      "",          "o",          "o=a",        "o=a,n=ns1", "n=ns1",     "n in (ns1)", "n=ns2,p=x", "p=x",
      "p=x,o=b",   "o in (a,b)", "o in (a),p", "o!=a",      "!p",        "p,n=ns1",    "n notin (ns1)",
      "o=missing", "q=y",        "o=a,q=y",
  };
  struct row {
    std::string informer;
    std::size_t indexed_at_start;
  };
  for (const auto& r : {row{"o", 1}, row{"", 0}, row{"o in (a,b,c)", 0}}) {
    BOOST_TEST_INFO("informer '" << r.informer << "'");
    informer_cache c(r.informer);
    BOOST_TEST(c.label_indexes() == r.indexed_at_start);
    c.put(labelled("ns1", "a1", R"("o":"a","n":"ns1")"));
    c.put(labelled("ns1", "a2", R"("o":"a","n":"ns2","p":"x")"));
    c.put(labelled("ns2", "a3", R"("o":"a","n":"ns1","p":"x")"));
    c.put(labelled("ns1", "b1", R"("o":"b","n":"ns1","p":"x")"));
    c.put(labelled("ns2", "b2", R"("o":"b","n":"ns2")"));
    c.put(labelled("", "c1", R"("o":"c","n":"ns1","p":"x")"));  // cluster-scoped
    answers_as_a_scan(c, requests);
    BOOST_TEST(c.label_indexes() >= 2u);  // a key besides `o` is indexed

    // Relabels: a moves to b, a label dropped, a label added, a new value.
    c.put(labelled("ns1", "a1", R"("o":"b","n":"ns1","p":"x")"));
    c.put(labelled("ns1", "a2", R"("o":"a","n":"ns2")"));
    c.put(labelled("ns2", "b2", R"("o":"a","n":"ns1","q":"y")"));
    c.put(labelled("ns3", "c2", R"("o":"c","n":"ns3","q":"y")"));
    answers_as_a_scan(c, requests);
    BOOST_TEST(names(c.list("", sel("o=a"))) == "a2,a3,b2,");
    BOOST_TEST(names(c.list("ns1", sel("p=x"))) == "a1,b1,");

    c.erase({"ns1", "b1"});
    c.erase({"", "c1"});
    c.erase({"ns1", "nothing"});
    answers_as_a_scan(c, requests);
    BOOST_TEST(names(c.list("", sel("p=x"))) == "a1,a3,");
    BOOST_TEST(names(c.list("", sel("o=c"))) == "c2,");
  }
}

// The indexes refer to the store's keys rather than keeping copies: a moved
// cache (the cluster actor's informer entries move into their map) answers
// from them as before, through later changes (ASan sees a dangling one).
BOOST_AUTO_TEST_CASE(indexes_survive_a_move_of_the_cache) {
  informer_cache c("o");
  c.put(labelled("ns1", "a1", R"("o":"a","n":"ns1")"));
  c.put(labelled("ns2", "a2", R"("o":"a","n":"ns2")"));
  BOOST_TEST(names(c.list("", sel("n=ns1"))) == "a1,");  // indexes `n` too
  informer_cache moved(std::move(c));
  informer_cache again;
  again = std::move(moved);
  BOOST_TEST(again.label_indexes() == 2u);
  again.put(labelled("ns1", "a1", R"("o":"b","n":"ns2")"));
  again.put(labelled("ns1", "a3", R"("o":"a","n":"ns1")"));
  again.erase({"ns2", "a2"});
  answers_as_a_scan(again, {"o=a", "o=b", "n=ns1", "n=ns2", "o"});
  BOOST_TEST(names(again.list("", sel("n=ns2"))) == "a1,");
}

// The first list pinning no indexed key indexes one pinned key; later lists
// use the indexed key with the smallest bucket, building no more.
BOOST_AUTO_TEST_CASE(a_label_index_is_built_once_for_the_first_pinned_key) {
  informer_cache c("o");
  c.put(labelled("ns1", "a1", R"("o":"a","n":"ns1","p":"x")"));
  c.put(labelled("ns1", "a2", R"("o":"a","n":"ns1","p":"y")"));
  BOOST_TEST(c.label_indexes() == 1u);
  BOOST_TEST(names(c.list("ns1", sel("o=a,p=y"))) == "a2,");  // o is indexed
  BOOST_TEST(c.label_indexes() == 1u);
  BOOST_TEST(names(c.list("ns1", sel("n=ns1,p=y"))) == "a2,");  // builds n, the first pinned
  BOOST_TEST(c.label_indexes() == 2u);
  BOOST_TEST(names(c.list("ns1", sel("n=ns1,p=y"))) == "a2,");
  BOOST_TEST(names(c.list("ns1", sel("o!=b,p"))) == "a1,a2,");  // nothing pinned: a scan
  BOOST_TEST(c.label_indexes() == 2u);
  c.put(labelled("ns1", "a3", R"("o":"a","n":"ns2","p":"y")"));  // kept by put after it was built
  BOOST_TEST(names(c.list("", sel("n=ns2"))) == "a3,");
  BOOST_TEST(c.label_indexes() == 2u);
}

// A list by spec fields reads the objects with those values in the
// namespace; the index built on the first list follows puts that change a
// field (the object moves to its new key), erases, and later arrivals.
BOOST_AUTO_TEST_CASE(field_index_follows_changes_of_the_indexed_fields) {
  informer_cache c;
  c.put(assignment("a", "ra-1", "alice", "member"));
  c.put(assignment("a", "ra-2", "alice", "member"));
  c.put(assignment("a", "ra-3", "bob", "member"));
  c.put(assignment("b", "ra-4", "alice", "member"));
  const auto alice = fields("spec.userRef.name=alice,spec.projectRef.name=team,spec.role=member");
  const auto bob = fields("spec.role=member,spec.userRef.name=bob,spec.projectRef.name=team");
  BOOST_TEST(c.field_indexes() == 0u);
  BOOST_TEST(names(c.list("a", sel(""), alice)) == "ra-1,ra-2,");
  BOOST_TEST(c.field_indexes() == 1u);
  BOOST_TEST(names(c.list("a", sel(""), bob)) == "ra-3,");  // the same paths in another order: the same index
  BOOST_TEST(c.field_indexes() == 1u);
  BOOST_TEST(names(c.list("b", sel(""), alice)) == "ra-4,");

  c.put(assignment("a", "ra-1", "bob", "member"));  // changes its user
  BOOST_TEST(names(c.list("a", sel(""), alice)) == "ra-2,");
  BOOST_TEST(names(c.list("a", sel(""), bob)) == "ra-1,ra-3,");
  c.erase({"a", "ra-2"});
  BOOST_TEST(names(c.list("a", sel(""), alice)) == "");
  c.put(assignment("a", "ra-5", "alice", "member"));
  c.put(assignment("a", "ra-6", "alice", "reader"));
  BOOST_TEST(names(c.list("a", sel(""), alice)) == "ra-5,");

  // What the index cannot answer is scanned: a `!=`, every namespace.
  BOOST_TEST(names(c.list("a", sel(""), fields("spec.userRef.name!=bob"))) == "ra-5,ra-6,");
  BOOST_TEST(names(c.list("", sel(""), alice)) == "ra-5,ra-4,");
  BOOST_TEST(names(c.list("a", sel(""), field_selector{})) == "ra-1,ra-3,ra-5,ra-6,");
}

// The cache keeps its objects packed and packs them all again with each new
// dictionary (at 8 and 128 objects here): the label and field indexes point
// at entries that stay where they are, so they answer as a scan does after
// each repacking (ASan sees a stale key); every object reads back as it was
// put, and its version reads without unpacking.
BOOST_AUTO_TEST_CASE(objects_read_back_and_indexes_answer_across_the_dictionaries) {
  informer_cache c("o");
  const auto by_user = fields("spec.userRef.name=u1,spec.projectRef.name=team,spec.role=member");
  auto object_of = [](int i) {
    auto n = std::to_string(i);
    auto ns = "ns" + std::to_string(i % 3 + 1);
    return i % 2 ? labelled(ns, "child-" + n, R"("o":")" + std::string(i % 4 ? "a" : "b") + R"(","n":")" + ns + R"(")")
                 : assignment(ns, "child-" + n, "u" + std::to_string(i % 5), "member");
  };
  std::string before_first_dictionary;
  for (int i = 0; i < 200; ++i) {
    if (i % 2 == 0) c.put(labelled("ns1", "relabelled", R"("o":")" + std::string(i % 4 ? "a" : "b") + R"(")"));
    c.put(object_of(i));
    if (i == 5) {
      // Indexes built before the first dictionary, kept through the repacks.
      BOOST_TEST(names(c.list("ns1", sel("n=ns1"))) != "");
      BOOST_TEST(names(c.list("ns1", sel(""), by_user)) == "");
    }
    if (i % 50 == 0 || i == 7 || i == 130) answers_as_a_scan(c, {"o=a", "o=b", "n=ns1", "n=ns2", "o"});
  }
  BOOST_TEST(c.size() == 201u);
  for (int i = 0; i < 200; i += 7) {
    auto want = object_of(i);
    BOOST_TEST(c.get(want.key()).to_json() == want.to_json());
  }
  BOOST_TEST(c.get({"ns1", "relabelled"}).label("o").value_or("") == "a");
  BOOST_TEST(c.version({"ns1", "child-3"}).value_or("none") == "");  // labelled() sets none
  BOOST_TEST(names(c.list("ns2", sel(""), by_user)) == "child-106,child-136,child-16,child-166,child-196,child-46,child-76,");  // key order
  BOOST_TEST(!c.version({"ns1", "nothing"}));
  BOOST_TEST(c.erase({"ns1", "relabelled"}).name() == "relabelled");
  answers_as_a_scan(c, {"o=a", "o=b", "n=ns1"});
  // Packed: well under the text of the objects it holds.
  std::size_t text = 0;
  for (const auto& o : c.all()) text += o.to_json().size();
  BOOST_TEST_MESSAGE("200 objects: " << text << " B of JSON, " << c.packed_bytes() << " B packed");
  BOOST_TEST(c.packed_bytes() * 2 < text);
}

BOOST_AUTO_TEST_SUITE_END()
