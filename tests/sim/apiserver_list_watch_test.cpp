// list and watch: selectors, pagination with continue tokens (and their
// expiry), resourceVersion semantics, watch events, resume, 410 Expired once
// a version has left the history, bookmarks, sendInitialEvents, timeouts.
#include "k8s/base64.hpp"
#include "k8s/server/http_server.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <thread>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

const std::string cms = "/api/v1/namespaces/default/configmaps";

void make_cms(const http_client& c, int n, const std::string& prefix = "cm") {
  for (int i = 0; i < n; ++i) {
    auto r = c.post(cms, fmt::format(R"({{"metadata":{{"name":"{}-{:03}","labels":{{"i":"{}","tier":"{}"}}}}}})",
                                     prefix, i, i, i % 2 ? "odd" : "even"));
    BOOST_REQUIRE_EQUAL(r.status, 201);
  }
}

std::vector<std::string> names(const k8s::json_document& list) {
  std::vector<std::string> out;
  if (auto* items = k8s::member(list, "items"))
    for (auto& i : items->GetArray()) out.push_back(str(i, {"metadata", "name"}));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_list_watch)

BOOST_AUTO_TEST_CASE(label_and_field_selectors) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 6);
  struct row {
    std::string query;
    std::size_t expect;
  };
  for (auto& r : std::vector<row>{{"labelSelector=tier%3Dodd", 3},
                                  {"labelSelector=tier%3D%3Deven", 3},
                                  {"labelSelector=tier!%3Dodd", 3},
                                  {"labelSelector=i+in+(1,2,9)", 2},
                                  {"labelSelector=i+notin+(1,2)", 4},
                                  {"labelSelector=tier", 6},
                                  {"labelSelector=!tier", 0},
                                  {"fieldSelector=metadata.name%3Dcm-002", 1},
                                  {"fieldSelector=metadata.name!%3Dcm-002", 5},
                                  {"fieldSelector=metadata.namespace%3Ddefault", 6}}) {
    auto res = c.get(cms + "?" + r.query);
    BOOST_TEST_REQUIRE(res.status == 200, r.query);
    BOOST_TEST(names(res.json()).size() == r.expect, r.query);
  }
  auto bad = c.get(cms + "?fieldSelector=spec.x%3D1");
  BOOST_TEST(bad.status == 400);
}

BOOST_AUTO_TEST_CASE(pagination_with_continue) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 7);
  std::vector<std::string> all;
  std::string cont;
  int pages = 0;
  do {
    auto res = c.get(cms + "?limit=3" + (cont.empty() ? "" : "&continue=" + k8s::url_encode(cont)));
    BOOST_TEST_REQUIRE(res.status == 200);
    auto j = res.json();
    for (auto& n : names(j)) all.push_back(n);
    cont = str(j, {"metadata", "continue"});
    if (!cont.empty()) {
      BOOST_TEST(k8s::get_int(j, {"metadata", "remainingItemCount"}).value_or(-1) == 7 - 3 * (pages + 1));
    }
    ++pages;
  } while (!cont.empty() && pages < 10);
  BOOST_TEST(pages == 3);
  BOOST_TEST(all.size() == 7u);
  BOOST_TEST(std::is_sorted(all.begin(), all.end()));
  // Tokens are base64 RawURLEncoding of {"v","rv","start"}, as apiserver's.
  auto first = c.get(cms + "?limit=3").json();
  auto token = str(first, {"metadata", "continue"});
  BOOST_TEST(token.find_first_of("=+/") == std::string::npos);
  auto bad = c.get(cms + "?limit=3&continue=%21%21");
  BOOST_TEST(bad.status == 400);
  BOOST_TEST(str(bad.json(), {"message"}) ==
             "invalid continue token: continue key is not valid: illegal base64 data at input byte 0");
  // {"v":"meta.k8s.io/v1","rv":0,"start":"x"}
  auto zero = c.get(cms + "?continue=" + k8s::base64_raw_url_encode(R"({"v":"meta.k8s.io/v1","rv":0,"start":"x"})"));
  BOOST_TEST(str(zero.json(), {"message"}) ==
             "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version "
             "meta.k8s.io/v1)");
}

BOOST_AUTO_TEST_CASE(expired_continue_token_is_410) {
  sim::apiserver_options o = plain();
  o.watch_history = 5;
  server_fixture f(o);
  auto c = f.client();
  make_cms(c, 4);
  auto first = c.get(cms + "?limit=2").json();
  std::string cont = str(first, {"metadata", "continue"});
  BOOST_TEST_REQUIRE(!cont.empty());
  make_cms(c, 10, "more");
  auto res = c.get(cms + "?limit=2&continue=" + k8s::url_encode(cont));
  BOOST_TEST(res.status == 410);
  BOOST_TEST(str(res.json(), {"reason"}) == "Expired");
  // kube hands out a token that continues at the latest state (inconsistent
  // with the first page, which the message says).
  auto fresh = str(res.json(), {"metadata", "continue"});
  BOOST_TEST_REQUIRE(!fresh.empty());
  auto rest = c.get(cms + "?limit=100&continue=" + k8s::url_encode(fresh));
  BOOST_TEST_REQUIRE(rest.status == 200);
  auto j = rest.json();
  auto got = names(j);
  BOOST_TEST(got.size() == 12u);  // cm-002, cm-003 and the ten "more-"
  BOOST_TEST(got.front() == "cm-002");
  BOOST_TEST(str(j, {"metadata", "resourceVersion"}) == std::to_string(f.server->current_resource_version()));
}

// A continue token pins the snapshot of the first page (kube reads etcd at
// its revision): later changes do not show in the remainder.
BOOST_AUTO_TEST_CASE(continue_returns_the_first_pages_snapshot) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 4);
  auto first = c.get(cms + "?limit=2").json();
  auto snapshot_rv = str(first, {"metadata", "resourceVersion"});
  std::string cont = str(first, {"metadata", "continue"});
  BOOST_TEST_REQUIRE(!cont.empty());
  BOOST_REQUIRE_EQUAL(c.del(cms + "/cm-003").status, 200);
  BOOST_REQUIRE_EQUAL(c.patch(cms + "/cm-002", R"({"data":{"late":"yes"}})", "application/merge-patch+json").status,
                      200);
  make_cms(c, 1, "zz");
  auto rest = c.get(cms + "?limit=2&continue=" + k8s::url_encode(cont));
  BOOST_TEST_REQUIRE(rest.status == 200);
  auto j = rest.json();
  BOOST_TEST((names(j) == std::vector<std::string>{"cm-002", "cm-003"}));
  BOOST_TEST(str(j, {"metadata", "resourceVersion"}) == snapshot_rv);
  BOOST_TEST(str(j, {"metadata", "continue"}).empty());
  BOOST_TEST(k8s::find((*k8s::member(j, "items"))[0], {"data", "late"}) == nullptr);
}

// Pages found by their start key, not by a scan: a namespace's list holds
// only its own objects (not those of a namespace its name is a prefix of) and
// counts only them as remaining; a list across namespaces pages through all,
// each page of it at the first page's snapshot however many pages follow.
BOOST_AUTO_TEST_CASE(pages_of_a_namespace_and_across_namespaces) {
  server_fixture f(plain());
  auto c = f.client();
  for (const char* ns : {"a", "default-x"})
    BOOST_REQUIRE_EQUAL(c.post("/api/v1/namespaces", fmt::format(R"({{"metadata":{{"name":"{}"}}}})", ns)).status,
                        201);
  auto make_in = [&](const std::string& ns, const std::string& name) {
    auto r = c.post("/api/v1/namespaces/" + ns + "/configmaps", fmt::format(R"({{"metadata":{{"name":"{}"}}}})", name));
    BOOST_REQUIRE_EQUAL(r.status, 201);
  };
  for (const char* n : {"a1", "a2"}) make_in("a", n);
  for (const char* n : {"d1", "d2", "d3", "d4", "d5"}) make_in("default", n);
  for (const char* n : {"x1", "x2"}) make_in("default-x", n);
  auto pages = [&](const std::string& path, int limit, const std::function<void(int)>& between) {
    std::vector<std::string> all;
    std::vector<std::int64_t> remaining;
    std::string cont;
    int page = 0;
    do {
      auto res = c.get(path + "?limit=" + std::to_string(limit) + (cont.empty() ? "" : "&continue=" + k8s::url_encode(cont)));
      BOOST_TEST_REQUIRE(res.status == 200);
      auto j = res.json();
      for (auto& n : names(j)) all.push_back(n);
      cont = str(j, {"metadata", "continue"});
      if (!cont.empty()) remaining.push_back(k8s::get_int(j, {"metadata", "remainingItemCount"}).value_or(-1));
      between(page++);
    } while (!cont.empty() && page < 20);
    return std::make_pair(all, remaining);
  };
  auto [in_default, left] = pages(cms, 2, [](int) {});
  BOOST_TEST((in_default == std::vector<std::string>{"d1", "d2", "d3", "d4", "d5"}));
  BOOST_TEST((left == std::vector<std::int64_t>{3, 1}));
  // Across namespaces, with a change after every page: the list stays at its first page's state.
  int late = 0;
  auto [everywhere, _] = pages("/api/v1/configmaps", 2, [&](int page) {
    make_in("default", "late" + std::to_string(++late));
    if (page == 0) BOOST_REQUIRE_EQUAL(c.del("/api/v1/namespaces/default-x/configmaps/x1").status, 200);
  });
  std::vector<std::string> want = {"a1", "a2", "d1", "d2", "d3", "d4", "d5", "x1", "x2"};
  // kube-root-ca.crt and other ConfigMaps the server made are not this test's.
  std::vector<std::string> ours;
  for (auto& n : everywhere)
    if (std::find(want.begin(), want.end(), n) != want.end() || n.rfind("late", 0) == 0) ours.push_back(n);
  BOOST_TEST(ours == want);
  BOOST_TEST(late >= 5);
}

// resourceVersionMatch=Exact (and a legacy resourceVersion with a limit)
// list the state at that version; once it has left the history window: 410.
// resourceVersion=0 is served as from the watch cache: limit is ignored.
BOOST_AUTO_TEST_CASE(exact_resource_version_lists_that_state) {
  sim::apiserver_options o = plain();
  o.watch_history = 6;
  server_fixture f(o);
  auto c = f.client();
  make_cms(c, 2);
  auto rv = f.server->current_resource_version();
  make_cms(c, 1, "later");
  BOOST_REQUIRE_EQUAL(c.del(cms + "/cm-000").status, 200);
  auto exact = c.get(cms + fmt::format("?resourceVersion={}&resourceVersionMatch=Exact", rv));
  BOOST_TEST_REQUIRE(exact.status == 200);
  BOOST_TEST((names(exact.json()) == std::vector<std::string>{"cm-000", "cm-001"}));
  BOOST_TEST(str(exact.json(), {"metadata", "resourceVersion"}) == std::to_string(rv));
  auto legacy = c.get(cms + fmt::format("?resourceVersion={}&limit=1", rv)).json();
  BOOST_TEST((names(legacy) == std::vector<std::string>{"cm-000"}));
  auto newer = c.get(cms + fmt::format("?resourceVersion={}&resourceVersionMatch=NotOlderThan", rv)).json();
  BOOST_TEST((names(newer) == std::vector<std::string>{"cm-001", "later-000"}));
  auto cache = c.get(cms + "?resourceVersion=0&limit=1").json();
  BOOST_TEST(names(cache).size() == 2u);
  BOOST_TEST(str(cache, {"metadata", "continue"}).empty());
  make_cms(c, 8, "more");  // pushes rv out of the window
  auto gone = c.get(cms + fmt::format("?resourceVersion={}&resourceVersionMatch=Exact", rv));
  BOOST_TEST(gone.status == 410);
  BOOST_TEST(str(gone.json(), {"reason"}) == "Expired");
  BOOST_TEST(str(gone.json(), {"message"}) == "The resourceVersion for the provided list is too old.");
}

BOOST_AUTO_TEST_CASE(resource_version_semantics_on_list) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 2);
  auto rv = f.server->current_resource_version();
  BOOST_TEST(c.get(cms + "?resourceVersion=0").status == 200);
  BOOST_TEST(c.get(cms + fmt::format("?resourceVersion={}&resourceVersionMatch=NotOlderThan", rv)).status == 200);
  BOOST_TEST(c.get(cms + fmt::format("?resourceVersion={}&resourceVersionMatch=Exact", rv)).status == 200);
  auto too_new = c.get(cms + fmt::format("?resourceVersion={}", rv + 100));
  BOOST_TEST(too_new.status == 504);
  BOOST_TEST(str(too_new.json(), {"message"}) == fmt::format("Too large resource version: {}, current: {}", rv + 100, rv));
  // ListOptions validation: 422 Invalid with every cause, as apimachinery's.
  auto no_rv = c.get(cms + "?resourceVersionMatch=Exact");
  BOOST_TEST(no_rv.status == 422);
  BOOST_TEST(str(no_rv.json(), {"message"}) ==
             "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is "
             "forbidden unless resourceVersion is provided");
  auto two = c.get(cms + "?resourceVersion=0&resourceVersionMatch=Exact&sendInitialEvents=true");
  BOOST_TEST(two.status == 422);
  auto two_j = two.json();
  BOOST_TEST_REQUIRE(k8s::find(two_j, {"details", "causes"}) != nullptr);
  BOOST_TEST(k8s::find(two_j, {"details", "causes"})->Size() == 2u);
  auto bad = c.get(cms + "?resourceVersion=1&resourceVersionMatch=Newest");
  BOOST_TEST(bad.status == 422);
  auto bad_j = bad.json();
  BOOST_TEST_REQUIRE(k8s::find(bad_j, {"details", "causes"}) != nullptr);
  BOOST_TEST(str((*k8s::find(bad_j, {"details", "causes"}))[0], {"message"}) ==
             "Unsupported value: \"Newest\": supported values: \"Exact\", \"NotOlderThan\", \"\"");
  auto list = c.get(cms).json();
  BOOST_TEST(str(list, {"metadata", "resourceVersion"}) == std::to_string(rv));
  BOOST_TEST(str(list, {"kind"}) == "ConfigMapList");
}

BOOST_AUTO_TEST_CASE(watch_streams_added_modified_deleted) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 1);
  auto rv = f.server->current_resource_version();
  std::vector<std::string> types;
  std::thread writer([&] {
    // The stream is open once the server sees the watch; writes come after.
    c.post(cms, R"({"metadata":{"name":"w1"}})");
    c.patch(cms + "/w1", R"({"data":{"a":"b"}})", "application/merge-patch+json");
    c.del(cms + "/w1");
  });
  auto res = c.stream(cms + fmt::format("?watch=1&resourceVersion={}", rv), [&](const std::string& line) {
    auto d = k8s::parse_json(line);
    BOOST_REQUIRE(d);
    types.push_back(str(*d, {"type"}));
    BOOST_TEST(str(*d, {"object", "metadata", "name"}) == "w1");
    return types.size() < 3;
  });
  writer.join();
  BOOST_TEST(res.status == 200);
  BOOST_TEST((types == std::vector<std::string>{"ADDED", "MODIFIED", "DELETED"}));
}

// kube's watch cache: a modification that brings an object into a watch's
// selector is ADDED, one that takes it out is DELETED (carrying the previous
// content at the new resourceVersion), others outside it are not sent.
BOOST_AUTO_TEST_CASE(watch_sees_objects_enter_and_leave_its_selector) {
  server_fixture f(plain());
  auto c = f.client();
  auto rv = f.server->current_resource_version();
  const std::string mp = "application/merge-patch+json";
  auto label = [&](const std::string& tier) {
    auto r = c.patch(cms + "/a", R"({"metadata":{"labels":{"tier":")" + tier + R"("}}})", mp);
    BOOST_REQUIRE_EQUAL(r.status, 200);
    return str(r.json(), {"metadata", "resourceVersion"});
  };
  BOOST_REQUIRE_EQUAL(c.post(cms, R"({"metadata":{"name":"a","labels":{"tier":"red"}}})").status, 201);
  BOOST_REQUIRE_EQUAL(c.patch(cms + "/a", R"({"data":{"x":"1"}})", mp).status, 200);  // outside: unseen
  label("blue");
  BOOST_REQUIRE_EQUAL(c.patch(cms + "/a", R"({"data":{"x":"2"}})", mp).status, 200);
  auto left_rv = label("red");
  label("blue");
  BOOST_REQUIRE_EQUAL(c.del(cms + "/a").status, 200);
  struct seen_event {
    std::string type, tier, rv, x;
  };
  std::vector<seen_event> seen;
  auto res = c.stream(cms + fmt::format("?watch=1&labelSelector=tier%3Dblue&resourceVersion={}", rv),
                      [&](const std::string& line) {
                        auto d = k8s::parse_json(line);
                        BOOST_REQUIRE(d);
                        seen.push_back({str(*d, {"type"}), str(*d, {"object", "metadata", "labels", "tier"}),
                                        str(*d, {"object", "metadata", "resourceVersion"}),
                                        str(*d, {"object", "data", "x"})});
                        return seen.size() < 5;
                      });
  BOOST_TEST(res.status == 200);
  BOOST_TEST_REQUIRE(seen.size() == 5u);
  std::vector<std::string> types;
  for (auto& e : seen) types.push_back(e.type);
  BOOST_TEST((types == std::vector<std::string>{"ADDED", "MODIFIED", "DELETED", "ADDED", "DELETED"}));
  BOOST_TEST(seen[0].x == "1");
  BOOST_TEST(seen[2].tier == "blue");  // the content it had while it matched
  BOOST_TEST(seen[2].x == "2");
  BOOST_TEST(seen[2].rv == left_rv);
}

BOOST_AUTO_TEST_CASE(watch_without_version_starts_with_current_objects_and_legacy_path) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 3);
  int added = 0;
  auto res = c.stream("/api/v1/watch/namespaces/default/configmaps?labelSelector=tier%3Deven",
                      [&](const std::string& line) {
                        auto d = k8s::parse_json(line);
                        if (str(*d, {"type"}) == "ADDED") ++added;
                        return added < 2;
                      });
  BOOST_TEST(res.status == 200);
  BOOST_TEST(added == 2);
}

BOOST_AUTO_TEST_CASE(watch_resume_from_expired_version_gets_410_error_event) {
  sim::apiserver_options o = plain();
  o.watch_history = 3;
  server_fixture f(o);
  auto c = f.client();
  auto old = f.server->current_resource_version();
  make_cms(c, 6);
  std::string type, reason, message;
  auto res = c.stream(cms + fmt::format("?watch=1&resourceVersion={}", old), [&](const std::string& line) {
    auto d = k8s::parse_json(line);
    type = str(*d, {"type"});
    reason = str(*d, {"object", "reason"});
    message = str(*d, {"object", "message"});
    return false;
  });
  BOOST_TEST(res.status == 200);
  BOOST_TEST(type == "ERROR");
  BOOST_TEST(reason == "Expired");
  BOOST_TEST(message.rfind(fmt::format("too old resource version: {} (", old), 0) == 0u);
}

BOOST_AUTO_TEST_CASE(watch_resume_replays_later_events) {
  server_fixture f(plain());
  auto c = f.client();
  auto rv = f.server->current_resource_version();
  make_cms(c, 3);
  std::vector<std::string> seen;
  c.stream(cms + fmt::format("?watch=true&resourceVersion={}", rv), [&](const std::string& line) {
    seen.push_back(str(*k8s::parse_json(line), {"object", "metadata", "name"}));
    return seen.size() < 3;
  });
  BOOST_TEST((seen == std::vector<std::string>{"cm-000", "cm-001", "cm-002"}));
}

BOOST_AUTO_TEST_CASE(bookmarks_and_send_initial_events) {
  server_fixture f(plain());
  auto c = f.client();
  make_cms(c, 2);
  std::vector<std::string> types;
  std::string annotation;
  c.stream(cms + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
           [&](const std::string& line) {
             auto d = k8s::parse_json(line);
             types.push_back(str(*d, {"type"}));
             if (types.back() == "BOOKMARK") {
               annotation = str(*d, {"object", "metadata", "annotations", "k8s.io/initial-events-end"});
               return false;
             }
             return true;
           });
  BOOST_TEST((types == std::vector<std::string>{"ADDED", "ADDED", "BOOKMARK"}));
  BOOST_TEST(annotation == "true");
  // An idle watch with bookmarks allowed gets one.
  auto rv = f.server->current_resource_version();
  std::string t;
  c.stream(cms + fmt::format("?watch=1&resourceVersion={}&allowWatchBookmarks=true", rv),
           [&](const std::string& line) {
             t = str(*k8s::parse_json(line), {"type"});
             return false;
           });
  BOOST_TEST(t == "BOOKMARK");
}

BOOST_AUTO_TEST_CASE(watch_timeout_ends_the_stream) {
  server_fixture f(plain());
  auto c = f.client();
  auto rv = f.server->current_resource_version();
  auto res = c.stream(cms + fmt::format("?watch=1&resourceVersion={}&timeoutSeconds=1", rv),
                      [&](const std::string&) { return true; });
  BOOST_TEST(res.status == 200);
  BOOST_TEST(res.ended);
  BOOST_TEST(!res.timed_out);
}

BOOST_AUTO_TEST_SUITE_END()

// As kube-apiserver 1.34: a list of a built-in kind is a typed list, its items carry no
// apiVersion or kind (a custom resource's items keep theirs: checked in tests/real).
BOOST_AUTO_TEST_CASE(builtin_list_items_have_no_type_meta) {
  server_fixture f(plain());
  auto c = f.client();
  BOOST_TEST(c.post(cms, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"}})").status == 201);
  auto list = c.get(cms).json();
  BOOST_TEST(k8s::get_string(list, {"kind"}) == "ConfigMapList");
  auto* items = k8s::member(list, "items");
  BOOST_REQUIRE(items && items->Size() == 1u);
  BOOST_TEST(k8s::member((*items)[0], "kind") == nullptr);
  BOOST_TEST(k8s::member((*items)[0], "apiVersion") == nullptr);
}
