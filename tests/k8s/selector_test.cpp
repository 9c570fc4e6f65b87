#include "k8s/selector.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(selectors)

struct match_case {
  const char* selector;
  const char* canonical;
  bool matches;  // against {app=web, tier=front, n=5}
};

BOOST_AUTO_TEST_CASE(label_selector_table) {
  const std::map<std::string, std::string> labels{{"app", "web"}, {"tier", "front"}, {"n", "5"}};
  const match_case cases[] = {
      {"", "", true},
      {"app=web", "app=web", true},
      {"app==web", "app=web", true},
      {"app!=web", "app!=web", false},
      {"app!=db", "app!=db", true},
      {"missing!=x", "missing!=x", true},
      {"app in (db, web)", "app in (db,web)", true},
      {"app notin (web)", "app notin (web)", false},
      {"missing notin (web)", "missing notin (web)", true},
      {"app", "app", true},
      {"!app", "!app", false},
      {"!missing", "!missing", true},
      {"tier=front,app=web", "app=web,tier=front", true},
      {"tier=front,app=db", "app=db,tier=front", false},
      {"n>3", "n>3", true},
      {"n<3", "n<3", false},
      {"c5c3.io/rabbitmqvhost-cluster=", "c5c3.io/rabbitmqvhost-cluster=", false},
  };
  for (auto& c : cases) {
    BOOST_TEST_CONTEXT(c.selector) {
      std::string err;
      auto sel = label_selector::parse(c.selector, &err);
      BOOST_REQUIRE_MESSAGE(sel, err);
      BOOST_TEST(sel->to_string() == c.canonical);
      BOOST_TEST(sel->matches(labels) == c.matches);
    }
  }
}

BOOST_AUTO_TEST_CASE(empty_label_value_matches_empty_label) {
  auto sel = label_selector::parse("c5c3.io/rabbitmqvhost-cluster=");
  BOOST_TEST(sel->matches({{"c5c3.io/rabbitmqvhost-cluster", ""}}));
}

BOOST_AUTO_TEST_CASE(label_selector_errors) {
  for (const char* bad : {"app=", "=x", "app in web", "app in (a", "a=b c=d", "-bad=x", "app=-x"}) {
    BOOST_TEST_CONTEXT(bad) {
      std::string err;
      if (std::string_view(bad) == "app=") continue;  // an empty value is valid
      BOOST_TEST(!label_selector::parse(bad, &err));
      BOOST_TEST(!err.empty());
    }
  }
}

// kube-apiserver 1.34's words for a broken value set (k8s.io/apimachinery/pkg/labels).
BOOST_AUTO_TEST_CASE(label_selector_value_set_errors_in_kube_wording) {
  const std::pair<const char*, const char*> table[] = {
      {"tier in (web", "unable to parse requirement: found '', expected: ',' or ')'"},
      {"tier in (web db)", "unable to parse requirement: found 'db', expected: ',' or ')'"},
      {"tier in web", "unable to parse requirement: found 'web' expected: '('"},
  };
  for (auto [text, want] : table) {
    std::string err;
    BOOST_TEST(!label_selector::parse(text, &err));
    BOOST_TEST(err == want, text);
  }
}

BOOST_AUTO_TEST_CASE(label_selector_from_json) {
  auto doc = parse_json(R"({"matchLabels":{"a":"1"},
     "matchExpressions":[{"key":"b","operator":"In","values":["x","y"]},
                         {"key":"c","operator":"DoesNotExist"}]})");
  auto sel = label_selector::from_json(*doc);
  BOOST_REQUIRE(sel);
  BOOST_TEST(sel->to_string() == "a=1,b in (x,y),!c");
  BOOST_TEST(sel->matches({{"a", "1"}, {"b", "y"}}));
  BOOST_TEST(!sel->matches({{"a", "1"}, {"b", "y"}, {"c", ""}}));
  auto bad = parse_json(R"({"matchExpressions":[{"key":"b","operator":"Near"}]})");
  std::string err;
  BOOST_TEST(!label_selector::from_json(*bad, &err));
  BOOST_TEST(err.find("Near") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(field_selector_table) {
  auto o = *object::parse(R"({"metadata":{"name":"a","namespace":"ns"},"type":"Opaque"})");
  struct {
    const char* sel;
    bool matches;
  } cases[] = {{"metadata.name=a", true},
               {"metadata.name==a", true},
               {"metadata.name!=a", false},
               {"metadata.namespace=ns,metadata.name=a", true},
               {"metadata.namespace=other", false},
               {"type=Opaque", true},
               {"", true}};
  for (auto& c : cases) {
    BOOST_TEST_CONTEXT(c.sel) {
      auto sel = field_selector::parse(c.sel);
      BOOST_REQUIRE(sel);
      BOOST_TEST(sel->matches(o) == c.matches);
    }
  }
  std::string err;
  BOOST_TEST(!field_selector::parse("metadata.name", &err));
  BOOST_TEST(err.find("invalid selector") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
