// Every client operation against the emulator over TLS with token auth.
#include "harness.hpp"

#include "k8s/client/paths.hpp"
#include "tests/tcp_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>

using namespace c5c3;
using namespace c5c3::testing;
using k8s::object;
using k8s::result;

BOOST_AUTO_TEST_SUITE(client_operations)

BOOST_FIXTURE_TEST_CASE(crud_round_trip, emulator_fixture) {
  auto c = make_client();
  auto created = await<object>([&](auto cb) { c->create(configmap("default", "cm1", "one"), {"tester"}, cb); });
  BOOST_TEST_REQUIRE(created.ok(), why(created));
  BOOST_TEST(created->name() == "cm1");
  BOOST_TEST(!created->uid().empty());
  BOOST_TEST(!created->resource_version().empty());

  auto again = await<object>([&](auto cb) { c->create(configmap("default", "cm1", "one"), {}, cb); });
  BOOST_TEST_REQUIRE(!again.ok());
  BOOST_TEST(again.error().already_exists());
  BOOST_TEST(again.error().request == "POST /api/v1/namespaces/default/configmaps");

  auto got = await<object>([&](auto cb) { c->get(testing::configmap_kind, "default", "cm1", cb); });
  BOOST_TEST_REQUIRE(got.ok());
  BOOST_TEST(got->get_string({"data", "value"}) == "one");
  BOOST_TEST(got->kind() == "ConfigMap");

  // update with the current resourceVersion, then a stale one: Conflict.
  auto b = got->edit();
  b.set_string({"data", "value"}, "two");
  auto updated = await<object>([&](auto cb) { c->update(std::move(b).freeze(), {}, cb); });
  BOOST_TEST_REQUIRE(updated.ok(), why(updated));
  BOOST_TEST(updated->get_string({"data", "value"}) == "two");
  auto stale = got->edit();
  stale.set_string({"data", "value"}, "stale");
  auto conflict = await<object>([&](auto cb) { c->update(std::move(stale).freeze(), {}, cb); });
  BOOST_TEST_REQUIRE(!conflict.ok());
  BOOST_TEST(conflict.error().conflict());
  BOOST_TEST(conflict.error().describe().find("PUT /api/v1/namespaces/default/configmaps/cm1: 409 Conflict") == 0u,
             conflict.error().describe());

  // merge patch, JSON patch, server-side apply.
  auto merged = await<object>([&](auto cb) {
    c->patch(configmap_kind, "default", "cm1", k8s::patch_type::merge, R"({"data":{"extra":"x"}})", {}, cb);
  });
  BOOST_TEST_REQUIRE(merged.ok(), why(merged));
  BOOST_TEST(merged->get_string({"data", "extra"}) == "x");
  BOOST_TEST(merged->get_string({"data", "value"}) == "two");
  auto jsonp = await<object>([&](auto cb) {
    c->patch(configmap_kind, "default", "cm1", k8s::patch_type::json,
             R"([{"op":"test","path":"/data/value","value":"two"},{"op":"remove","path":"/data/extra"}])", {}, cb);
  });
  BOOST_TEST_REQUIRE(jsonp.ok(), why(jsonp));
  BOOST_TEST(!jsonp->get({"data", "extra"}));
  auto failed_test = await<object>([&](auto cb) {
    c->patch(configmap_kind, "default", "cm1", k8s::patch_type::json,
             R"([{"op":"test","path":"/data/value","value":"nope"}])", {}, cb);
  });
  BOOST_TEST(!failed_test.ok());

  k8s::object_builder ab("v1", "ConfigMap", "default", "cm1");
  ab.set_string({"data", "applied"}, "yes");
  auto no_manager = await<object>([&](auto cb) { c->apply(std::move(ab).freeze(), {}, cb); });
  BOOST_TEST(!no_manager.ok());
  k8s::object_builder ab2("v1", "ConfigMap", "default", "cm1");
  ab2.set_string({"data", "applied"}, "yes");
  k8s::patch_options po;
  po.field_manager = "c5c3-test";
  po.force = true;
  auto applied = await<object>([&](auto cb) { c->apply(std::move(ab2).freeze(), po, cb); });
  BOOST_TEST_REQUIRE(applied.ok(), why(applied));
  BOOST_TEST(applied->get_string({"data", "applied"}) == "yes");
  auto apply_new = await<object>([&](auto cb) { c->apply(configmap("default", "cm-applied", "a"), po, cb); });
  BOOST_TEST_REQUIRE(apply_new.ok(), why(apply_new));

  // delete: a wrong uid precondition is refused, the right one deletes.
  k8s::delete_options wrong;
  wrong.precondition_uid = "not-the-uid";
  auto refused = await<object>([&](auto cb) { c->remove(configmap_kind, "default", "cm1", wrong, cb); });
  BOOST_TEST_REQUIRE(!refused.ok());
  BOOST_TEST(refused.error().conflict());
  k8s::delete_options right;
  right.precondition_uid = std::string(created->uid());
  right.propagation_policy = "Foreground";
  auto deleted = await<object>([&](auto cb) { c->remove(configmap_kind, "default", "cm1", right, cb); });
  BOOST_TEST_REQUIRE(deleted.ok(), why(deleted));
  auto gone = await<object>([&](auto cb) { c->get(configmap_kind, "default", "cm1", cb); });
  BOOST_TEST_REQUIRE(!gone.ok());
  BOOST_TEST(gone.error().not_found());
  BOOST_TEST(gone.error().describe() ==
             "GET /api/v1/namespaces/default/configmaps/cm1: 404 NotFound: configmaps \"cm1\" not found");
  BOOST_TEST(counters->requests("POST", "201") >= 1u);
  BOOST_TEST(counters->requests("GET", "404") == 1u);
}

BOOST_FIXTURE_TEST_CASE(list_follows_pages, emulator_fixture) {
  auto cfg = base_config();
  cfg.list_page_size = 3;
  auto c = make_client(cfg);
  for (int i = 0; i < 8; ++i) {
    auto r = await<object>([&](auto cb) {
      auto o = configmap("default", "p" + std::to_string(i), std::to_string(i));
      auto b = o.edit();
      b.set_label("set", i % 2 ? "odd" : "even");
      c->create(std::move(b).freeze(), {}, cb);
    });
    BOOST_TEST_REQUIRE(r.ok());
  }
  auto before = counters->requests("GET", "200");
  auto all = await<k8s::object_list>([&](auto cb) { c->list(configmap_kind, "default", {}, cb); });
  BOOST_TEST_REQUIRE(all.ok(), why(all));
  BOOST_TEST(all->items.size() >= 8u);  // plus the namespace's own (kube-root-ca.crt) if any
  BOOST_TEST(!all->resource_version.empty());
  for (const auto& o : all->items) {
    BOOST_TEST(o.kind() == "ConfigMap");
    BOOST_TEST(o.api_version() == "v1");
  }
  BOOST_TEST(counters->requests("GET", "200") - before >= 3u);  // pages of 3
  k8s::list_options odd;
  odd.label_selector = "set=odd";
  auto odds = await<k8s::object_list>([&](auto cb) { c->list(configmap_kind, "", odd, cb); });
  BOOST_TEST_REQUIRE(odds.ok());
  BOOST_TEST(odds->items.size() == 4u);
  k8s::list_options unpaged;
  unpaged.page_size = 0;
  auto whole = await<k8s::object_list>([&](auto cb) { c->list(configmap_kind, "default", unpaged, cb); });
  BOOST_TEST_REQUIRE(whole.ok());
  BOOST_TEST(whole->items.size() == all->items.size());
}

// client_config::drop_managed_fields: answers, list items and watch events
// come without metadata.managedFields, which the server keeps; a client
// without it sees them.
BOOST_FIXTURE_TEST_CASE(managed_fields_dropped_when_asked, emulator_fixture) {
  auto plain = make_client();
  auto cfg = base_config();
  cfg.drop_managed_fields = true;
  auto lean = make_client(cfg);
  auto has_fields = [](const object& o) { return o.get({"metadata", "managedFields"}) != nullptr; };
  auto made = await<object>([&](auto cb) { plain->create(configmap("default", "mf", "one"), {"tester"}, cb); });
  BOOST_TEST_REQUIRE(made.ok(), why(made));
  BOOST_TEST(has_fields(*made));

  auto patched = await<object>([&](auto cb) {
    lean->patch(configmap_kind, "default", "mf", k8s::patch_type::merge, R"({"data":{"value":"two"}})",
                {"tester"}, cb);
  });
  BOOST_TEST_REQUIRE(patched.ok(), why(patched));
  BOOST_TEST(!has_fields(*patched));
  BOOST_TEST(patched->get_string({"data", "value"}) == "two");
  auto got = await<object>([&](auto cb) { lean->get(configmap_kind, "default", "mf", cb); });
  BOOST_TEST_REQUIRE(got.ok(), why(got));
  BOOST_TEST(!has_fields(*got));
  BOOST_TEST(got->name() == "mf");
  auto listed = await<k8s::object_list>([&](auto cb) { lean->list(configmap_kind, "default", {}, cb); });
  BOOST_TEST_REQUIRE(listed.ok(), why(listed));
  bool seen = false;
  for (const auto& o : listed->items) {
    BOOST_TEST(!has_fields(o));
    BOOST_TEST(o.kind() == "ConfigMap");
    seen = seen || o.name() == "mf";
  }
  BOOST_TEST(seen);
  auto kept = await<object>([&](auto cb) { plain->get(configmap_kind, "default", "mf", cb); });
  BOOST_TEST_REQUIRE(kept.ok(), why(kept));
  BOOST_TEST(has_fields(*kept));
}

BOOST_FIXTURE_TEST_CASE(discovery_refreshes_when_a_kind_appears, emulator_fixture) {
  auto c = make_client();
  k8s::gvk widget{"example.c5c3.io", "v1", "Widget"};
  auto missing = await<k8s::api_resource>([&](auto cb) { c->resource_for(widget, cb); });
  BOOST_TEST_REQUIRE(!missing.ok());
  BOOST_TEST(k8s::is_no_kind_match(missing.error()));
  BOOST_TEST(missing.error().message == "no matches for kind \"Widget\" in version \"example.c5c3.io/v1\"");

  auto crd = k8s::object::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.c5c3.io"},
    "spec":{"group":"example.c5c3.io","scope":"Namespaced",
      "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
      "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
        "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
          "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}})");
  BOOST_TEST_REQUIRE(crd.has_value());
  auto made = await<object>([&](auto cb) { c->create(*crd, {}, cb); });
  BOOST_TEST_REQUIRE(made.ok(), why(made));

  BOOST_TEST_REQUIRE(eventually([&] { return await<k8s::api_resource>([&](auto cb) { c->resource_for(widget, cb); }).ok(); }));
  auto res = c->cached_resource(widget);
  BOOST_TEST_REQUIRE(res.has_value());
  BOOST_TEST(res->plural == "widgets");
  BOOST_TEST(res->namespaced);
  BOOST_TEST(res->status_subresource);

  // The status subresource: spec changes through update, status through update_status.
  k8s::object_builder wb("example.c5c3.io/v1", "Widget", "default", "w1");
  wb.set_string({"spec", "size"}, "small");
  wb.set_string({"status", "phase"}, "ignored-on-create");
  auto w = await<object>([&](auto cb) { c->create(std::move(wb).freeze(), {}, cb); });
  BOOST_TEST_REQUIRE(w.ok(), why(w));
  auto sb = w->edit();
  sb.set_string({"status", "phase"}, "Ready");
  auto st = await<object>([&](auto cb) { c->update_status(std::move(sb).freeze(), {}, cb); });
  BOOST_TEST_REQUIRE(st.ok(), why(st));
  BOOST_TEST(st->get_string({"status", "phase"}) == "Ready");
  k8s::patch_options status_patch;
  status_patch.status = true;
  auto sp = await<object>([&](auto cb) {
    c->patch(widget, "default", "w1", k8s::patch_type::merge, R"({"status":{"phase":"Done"}})", status_patch, cb);
  });
  BOOST_TEST_REQUIRE(sp.ok(), why(sp));
  BOOST_TEST(sp->get_string({"status", "phase"}) == "Done");

  auto all = await<std::vector<k8s::api_resource>>([&](auto cb) { c->discover(cb); });
  BOOST_TEST_REQUIRE(all.ok(), why(all));
  bool saw_secrets = false, saw_widgets = false;
  for (const auto& r : all.value()) {
    saw_secrets |= r.kind == "Secret";
    saw_widgets |= r.kind == "Widget";
  }
  BOOST_TEST(saw_secrets);
  BOOST_TEST(saw_widgets);
}

BOOST_FIXTURE_TEST_CASE(raw_watch_streams_events, emulator_fixture) {
  auto c = make_client();
  std::mutex mu;
  std::vector<std::string> seen;
  std::promise<k8s::result<bool>> ended;
  k8s::watch_options wo;
  auto w = c->watch(
      configmap_kind, "watched", wo,
      [&](k8s::watch_event ev) {
        std::lock_guard lock(mu);
        if (ev.type == k8s::watch_event_type::added) seen.push_back("ADDED " + std::string(ev.obj.name()));
        if (ev.type == k8s::watch_event_type::modified) seen.push_back("MODIFIED " + std::string(ev.obj.name()));
        if (ev.type == k8s::watch_event_type::deleted) seen.push_back("DELETED " + std::string(ev.obj.name()));
      },
      [&](k8s::result<bool> r) { ended.set_value(std::move(r)); });
  auto ns = await<object>([&](auto cb) {
    c->create(k8s::object_builder("v1", "Namespace", "", "watched").freeze(), {}, cb);
  });
  BOOST_TEST_REQUIRE(ns.ok());
  // The watch may open after the first write: write until it sees one.
  BOOST_TEST_REQUIRE(eventually([&] {
    auto r = await<object>([&](auto cb) {
      c->patch(configmap_kind, "watched", "w", k8s::patch_type::apply, configmap("watched", "w", "v").to_json(),
               k8s::patch_options{"t", true}, cb);
    });
    std::lock_guard lock(mu);
    return r.ok() && !seen.empty();
  }));
  auto del = await<object>([&](auto cb) { c->remove(configmap_kind, "watched", "w", {}, cb); });
  BOOST_TEST_REQUIRE(del.ok());
  BOOST_TEST_REQUIRE(eventually([&] {
    std::lock_guard lock(mu);
    return !seen.empty() && seen.back() == "DELETED w";
  }));
  w->cancel();
  auto f = ended.get_future();
  BOOST_TEST_REQUIRE((f.wait_for(deadline) == std::future_status::ready));
  BOOST_TEST(!f.get().ok());  // cancelled
}

// A server that accepts the connection and never answers: the request ends
// with a transport error after the configured request_timeout, and the
// observer hears it with the reason. (Every request used to wait 30 s
// whatever request_timeout said: this bounded wait would time out.)
BOOST_FIXTURE_TEST_CASE(request_timeout_bounds_a_request_nobody_answers, emulator_fixture) {
  tcp_proxy hole(server.port());
  hole.go_dark();
  auto cfg = base_config();
  auto at = cfg.server.rfind(':');
  cfg.server = cfg.server.substr(0, at + 1) + std::to_string(hole.port());
  cfg.request_timeout = std::chrono::milliseconds(300);
  cfg.retry.max_retries = 0;
  auto c = make_client(cfg);
  auto r = await<object>([&](auto cb) { c->get(testing::configmap_kind, "default", "none", cb); }, 10s);
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().transport(), r.error().describe());
  BOOST_TEST(r.error().describe().find("timeout") != std::string::npos, r.error().describe());
  BOOST_TEST(counters->requests("GET", "<error>") == 1u);
  BOOST_TEST(hole.accepted() == 1u);
}

namespace {

// A plain HTTP server on 127.0.0.1 that answers each request with a header
// announcing a body of 600 MB and one byte of it, then waits (up to 20 s) for
// the client to close the connection.
class oversized_answer {
 public:
  oversized_answer() {
    listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_, 4) != 0)
      throw std::runtime_error("oversized_answer: cannot listen");
    socklen_t len = sizeof a;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      for (int c; (c = ::accept(listen_, nullptr, nullptr)) >= 0;) serve(c);
    });
  }
  ~oversized_answer() {
    ::shutdown(listen_, SHUT_RDWR);
    thread_.join();
    ::close(listen_);
  }
  std::uint16_t port() const { return port_; }
  int answered() const { return answered_; }
  // Connections the client closed after the header.
  int closed_by_client() const { return closed_; }

 private:
  void serve(int c) {
    std::string req;
    char buf[4096];
    while (req.find("\r\n\r\n") == std::string::npos) {
      auto n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) return (void)::close(c);
      req.append(buf, static_cast<std::size_t>(n));
    }
    const std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 600000000\r\n\r\n{";
    ++answered_;  // before the send: the client may have its answer (and the test look) before this thread runs on
    (void)::send(c, head.data(), head.size(), MSG_NOSIGNAL);
    pollfd p{c, POLLIN, 0};
    if (::poll(&p, 1, 20'000) == 1 && ::recv(c, buf, sizeof buf, 0) == 0) ++closed_;
    ::close(c);
  }

  int listen_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<int> answered_{0}, closed_{0};
  std::thread thread_;
};

}  // namespace

// An answer larger than the client reads (512 MiB) is refused from its
// Content-Length, with an error that says so, and its connection closed: the
// client never buffers it (issue 18, hostile answers).
BOOST_FIXTURE_TEST_CASE(an_answer_over_512_mib_is_refused_from_its_length, emulator_fixture) {
  oversized_answer big;
  auto cfg = base_config();
  cfg.server = "http://127.0.0.1:" + std::to_string(big.port());
  cfg.credentials = nullptr;
  cfg.retry.max_retries = 0;
  auto c = make_client(cfg);
  auto r = await<object>([&](auto cb) { c->get(testing::configmap_kind, "default", "big", cb); }, 10s);
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.error().transport(), r.error().describe());
  BOOST_TEST(r.error().describe().find("is larger than 512 MiB") != std::string::npos, r.error().describe());
  BOOST_TEST(r.error().describe().find("GET /api") != std::string::npos, r.error().describe());
  BOOST_TEST(big.answered() >= 1);
  BOOST_TEST(eventually([&] { return big.closed_by_client() == big.answered(); }));
}

BOOST_AUTO_TEST_SUITE_END()
