#include "k8s/client/discovery.hpp"
#include "k8s/client/informer.hpp"
#include "k8s/client/observer.hpp"
#include "k8s/client/watch_decoder.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(client_watch_decoder)

namespace {
const std::string stream =
    R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","resourceVersion":"5"},"data":{"k":"brace } and \" quote { \\ \\\" {[\\"}}})"
    "\n"
    R"({"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","resourceVersion":"6"},"data":{"list":"[1,2]"}}})"
    R"({"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"9"}}})"
    "\n"
    R"j({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (10)","reason":"Expired","code":410}})j"
    "\n";
}  // namespace

// Every way of cutting the stream into two or three chunks gives the same events.
BOOST_AUTO_TEST_CASE(events_survive_any_chunking) {
  for (std::size_t cut1 = 0; cut1 <= stream.size(); cut1 += 7) {
    for (std::size_t cut2 = cut1; cut2 <= stream.size(); cut2 += 13) {
      json_stream_splitter s;
      std::vector<std::string> texts;
      for (auto part : {stream.substr(0, cut1), stream.substr(cut1, cut2 - cut1), stream.substr(cut2)}) {
        std::string err;
        for (auto& t : s.feed(part, &err)) texts.push_back(t);
        BOOST_TEST(err.empty());
      }
      BOOST_TEST_REQUIRE(texts.size() == 4u);
      BOOST_TEST(s.idle());
    }
  }
  // Byte by byte.
  json_stream_splitter s;
  std::vector<watch_event> events;
  for (char c : stream)
    for (auto& t : s.feed(std::string_view(&c, 1))) {
      auto ev = parse_watch_event(t);
      BOOST_TEST_REQUIRE(ev.has_value());
      events.push_back(*ev);
    }
  BOOST_TEST_REQUIRE(events.size() == 4u);
  BOOST_TEST((events[0].type == watch_event_type::added));
  BOOST_TEST(events[0].obj.get_string({"data", "k"}) == R"(brace } and " quote { \ \" {[\)");
  BOOST_TEST((events[1].type == watch_event_type::modified));
  BOOST_TEST(events[1].obj.resource_version() == "6");
  BOOST_TEST((events[2].type == watch_event_type::bookmark));
  BOOST_TEST(events[2].obj.resource_version() == "9");
  BOOST_TEST((events[3].type == watch_event_type::error));
  BOOST_TEST(events[3].error.gone());
  BOOST_TEST(events[3].error.code == 410);
  BOOST_TEST(events[3].error.message == "too old resource version: 5 (10)");
}

// An event past max_watch_event_bytes (64 MiB) is refused as it grows, not
// buffered to its end; the splitter is empty after it, and what follows the
// refusal on a new stream decodes (the watch that met it ends and a new one
// starts: client_watch.cpp).
BOOST_AUTO_TEST_CASE(an_event_over_64_mib_is_refused_as_it_grows) {
  json_stream_splitter s;
  std::string err;
  BOOST_TEST(s.feed(R"({"type":"ADDED","object":{"kind":"ConfigMap","data":{"k":")", &err).empty());
  const std::string mib(1u << 20, 'x');
  std::size_t fed = 0;
  while (err.empty() && fed <= max_watch_event_bytes) {
    BOOST_TEST(s.feed(mib, &err).empty());
    fed += mib.size();
  }
  BOOST_TEST(err == "a watch event is larger than 64 MiB");
  BOOST_TEST(fed == max_watch_event_bytes);  // refused in the chunk that crossed the limit
  BOOST_TEST(s.idle());
  err.clear();
  json_stream_splitter next;
  BOOST_TEST(next.feed(stream, &err).size() == 4u);
  BOOST_TEST(err.empty());
}

// The splitter holds an event's nesting to max_json_depth (as parse_json
// does), so the events it returns are parsed without a second scan: one
// level deeper is refused as it arrives, brackets in strings do not count,
// and the next event on a new splitter decodes.
BOOST_AUTO_TEST_CASE(an_event_nested_too_deep_is_refused) {
  auto event = [](std::size_t depth) {
    return R"({"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a"},"data":)" +
           std::string(depth, '[') + std::string(depth, ']') + "}}";
  };
  // The event's own object and its "object" are two levels.
  const std::size_t most = max_json_depth - 2;
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1u << 20}}) {
    BOOST_TEST_CONTEXT("chunks of " << chunk) {
      json_stream_splitter ok, deep;
      std::string err_ok, err_deep;
      std::vector<std::string> texts, refused;
      const auto fine = event(most), over = event(most + 1);
      for (std::size_t at = 0; at < fine.size(); at += chunk)
        for (auto& t : ok.feed(std::string_view(fine).substr(at, chunk), &err_ok)) texts.push_back(t);
      for (std::size_t at = 0; at < over.size(); at += chunk)
        for (auto& t : deep.feed(std::string_view(over).substr(at, chunk), &err_deep)) refused.push_back(t);
      BOOST_TEST(err_ok.empty());
      BOOST_TEST_REQUIRE(texts.size() == 1u);
      BOOST_TEST(parse_watch_event(texts[0], nullptr, false, true).has_value());
      BOOST_TEST(refused.empty());
      BOOST_TEST(err_deep == "a watch event is nested deeper than 1000 levels");
    }
  }
  json_stream_splitter s;
  std::string err;
  const std::string quoted = R"({"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":")" +
                             std::string(5000, '[') + R"("}}})";
  BOOST_TEST(s.feed(quoted, &err).size() == 1u);
  BOOST_TEST(err.empty());
  BOOST_TEST(s.feed(stream, &err).size() == 4u);
}

// client_config::drop_managed_fields at the watch: the object loses
// metadata.managedFields and keeps everything else; without it, it keeps them.
BOOST_AUTO_TEST_CASE(managed_fields_dropped_on_request) {
  const std::string text =
      R"({"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n",)"
      R"("managedFields":[{"manager":"kubectl","operation":"Apply"}],"labels":{"x":"y"},"resourceVersion":"7"},)"
      R"("data":{"k":"v"}}})";
  auto kept = parse_watch_event(text);
  BOOST_TEST_REQUIRE(kept.has_value());
  BOOST_TEST(kept->obj.get({"metadata", "managedFields"}) != nullptr);
  auto dropped = parse_watch_event(text, nullptr, true);
  BOOST_TEST_REQUIRE(dropped.has_value());
  BOOST_TEST(dropped->obj.get({"metadata", "managedFields"}) == nullptr);
  BOOST_TEST(dropped->obj.name() == "a");
  BOOST_TEST(dropped->obj.resource_version() == "7");
  BOOST_TEST(dropped->obj.label("x").value_or("") == "y");
  BOOST_TEST(dropped->obj.get_string({"data", "k"}) == "v");
  // The same object as the informers' transform makes of the kept one.
  BOOST_TEST(dropped->obj.to_json() == strip_managed_fields(kept->obj).to_json());
}

BOOST_AUTO_TEST_CASE(malformed_events_are_reported) {
  std::string err;
  BOOST_TEST(!parse_watch_event(R"({"type":"WHATEVER","object":{}})", &err));
  BOOST_TEST(err.find("WHATEVER") != std::string::npos);
  BOOST_TEST(!parse_watch_event(R"({"type":"ADDED"})", &err));
  BOOST_TEST(!parse_watch_event(R"({"type":"ADDED","object":{)", &err));
  json_stream_splitter s;
  err.clear();  // feed keeps the first error it meets: start from none
  auto out = s.feed("x{\"a\":1}", &err);
  BOOST_TEST(out.size() == 1u);
  BOOST_TEST(err.find("unexpected byte") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(api_resource_list_parsing) {
  const char* body = R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"c5c3.io/v1alpha1","resources":[
    {"name":"rabbitmqvhosts","singularName":"rabbitmqvhost","namespaced":true,"kind":"RabbitMQVhost","verbs":["get","list","watch"],"shortNames":["rmqv"],"categories":["c5c3"]},
    {"name":"rabbitmqvhosts/status","singularName":"","namespaced":true,"kind":"RabbitMQVhost","verbs":["get","patch","update"]},
    {"name":"clusterthings","singularName":"clusterthing","namespaced":false,"kind":"ClusterThing","verbs":["get"]}]})";
  auto rs = parse_api_resource_list(body);
  BOOST_TEST_REQUIRE(rs.has_value());
  BOOST_TEST_REQUIRE(rs->size() == 2u);
  const auto& v = (*rs)[0];
  BOOST_TEST(v.group == "c5c3.io");
  BOOST_TEST(v.version == "v1alpha1");
  BOOST_TEST(v.kind == "RabbitMQVhost");
  BOOST_TEST(v.plural == "rabbitmqvhosts");
  BOOST_TEST(v.namespaced);
  BOOST_TEST(v.status_subresource);
  BOOST_TEST(v.short_names.at(0) == "rmqv");
  BOOST_TEST(v.verbs.size() == 3u);
  BOOST_TEST(!(*rs)[1].namespaced);
  BOOST_TEST(!(*rs)[1].status_subresource);

  rest_mapper m;
  m.set_group_version("c5c3.io", "v1alpha1", *rs);
  BOOST_TEST(m.find(gvk{"c5c3.io", "v1alpha1", "RabbitMQVhost"})->plural == "rabbitmqvhosts");
  BOOST_TEST(!m.find(gvk{"c5c3.io", "v1", "RabbitMQVhost"}));
  BOOST_TEST(!m.find(gvk{"c5c3.io", "v1alpha1", "Other"}));
  m.set_group_version("c5c3.io", "v1alpha1", {});
  BOOST_TEST(!m.find(gvk{"c5c3.io", "v1alpha1", "RabbitMQVhost"}));

  auto core = parse_group_versions(R"({"kind":"APIVersions","versions":["v1"]})");
  BOOST_TEST_REQUIRE(core.has_value());
  BOOST_TEST(core->size() == 1u);
  BOOST_TEST((*core)[0].first == "");
  auto groups = parse_group_versions(
      R"({"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}]},{"name":"c5c3.io","versions":[{"version":"v1alpha1"},{"version":"v1beta1"}]}]})");
  BOOST_TEST_REQUIRE(groups.has_value());
  BOOST_TEST(groups->size() == 3u);
  BOOST_TEST((*groups)[2].second == "v1beta1");
}

BOOST_AUTO_TEST_CASE(request_counters_count_and_bucket) {
  request_counters c;
  c.on_request({"GET", "200", "h:1", std::chrono::milliseconds(3)});
  c.on_request({"GET", "200", "h:1", std::chrono::milliseconds(300)});
  c.on_request({"POST", "409", "h:1", std::chrono::seconds(40)});
  c.on_retry("GET", "503");
  BOOST_TEST(c.requests("GET", "200") == 2u);
  BOOST_TEST(c.requests("POST", "409") == 1u);
  BOOST_TEST(c.requests_total() == 3u);
  BOOST_TEST(c.retries() == 1u);
  auto h = c.latency_histogram();
  BOOST_TEST(h[0] == 1u);   // <= 5ms
  BOOST_TEST(h[4] == 2u);   // <= 0.5s
  BOOST_TEST(h[10] == 2u);  // <= 30s
  BOOST_TEST(h[11] == 3u);  // +Inf
}

BOOST_AUTO_TEST_SUITE_END()
