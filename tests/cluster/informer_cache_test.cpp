// informer_cache: which narrower lists a cache answers, and the label index
// giving the same answer as a scan.
#include "actors/cluster/informer_cache.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

namespace {

using c5c3::cluster::informer_cache;
using c5c3::k8s::label_selector;
using c5c3::k8s::object;

object labelled(const std::string& ns, const std::string& name, const std::string& labels) {
  return *object::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"namespace":")" + ns + R"(","name":")" +
                       name + R"(","labels":{)" + labels + "}}}");
}

label_selector sel(const std::string& s) { return *label_selector::parse(s); }

std::string names(const std::vector<object>& objs) {
  std::string out;
  for (const auto& o : objs) out += std::string(o.name()) + ",";
  return out;
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
  BOOST_TEST(c.find(c5c3::k8s::object_key{"ns1", "b1"}) == nullptr);
  BOOST_TEST(c.objects().size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
