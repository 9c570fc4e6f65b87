// The embedded default's pure parts: the live table's rows, rendering and
// change lines; where the manifests and the data directory are found; the
// embedded flags.
#include "actors/operator/embedded_paths.hpp"
#include "actors/operator/live_table.hpp"
#include "config/options.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace c5c3;
using namespace c5c3::operator_;
namespace fs = std::filesystem;

namespace {

k8s::object order(const std::string& kind, const std::string& ns, const std::string& name,
                  const std::string& conditions, const std::string& extra_meta = "") {
  std::string text = R"({"apiVersion":"c5c3.io/v1alpha1","kind":")" + kind + R"(","metadata":{"name":")" + name +
                     R"(","namespace":")" + ns + R"(","creationTimestamp":"2026-12-01T00:00:00Z")" + extra_meta +
                     R"(},"status":{"conditions":)" + conditions + "}}";
  auto o = k8s::object::parse(text);
  BOOST_REQUIRE(o);
  return *o;
}

const std::string waiting =
    R"([{"type":"Ready","status":"False","reason":"WaitingForVhost","message":"the Vhost is not Ready\nyet"}])";
const std::string ready = R"([{"type":"Ready","status":"True","reason":"Delivered","message":"delivered"}])";

k8s::time_point at(const std::string& t) { return *k8s::parse_rfc3339(t); }

config::env_lookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

struct temp_dir {
  fs::path path;
  temp_dir() {
    char tmpl[] = "/tmp/c5c3-embedded-unit-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(tmpl));
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(embedded_live_table)

BOOST_AUTO_TEST_CASE(a_row_is_the_ready_condition_on_one_line) {
  auto r = live::row_of(order("RabbitMQVhost", "tenant-a", "app", waiting));
  BOOST_TEST(r.kind == "RabbitMQVhost");
  BOOST_TEST(r.namespace_ == "tenant-a");
  BOOST_TEST(r.name == "app");
  BOOST_TEST(r.ready == "False");
  BOOST_TEST(r.reason == "WaitingForVhost");
  BOOST_TEST(r.message == "the Vhost is not Ready yet");
  BOOST_TEST(!r.terminating);
  auto none = live::row_of(order("RabbitMQVhost", "tenant-a", "new", "[]"));
  BOOST_TEST(none.ready == "");
  auto gone = live::row_of(
      order("RabbitMQVhost", "tenant-a", "old", ready, R"(,"deletionTimestamp":"2026-12-01T00:01:00Z")"));
  BOOST_TEST(gone.terminating);
}

BOOST_AUTO_TEST_CASE(the_table_has_the_columns_sorted_by_kind_namespace_name) {
  auto rows = live::snapshot_of({order("RabbitMQVhost", "tenant-b", "z", ready),
                                 order("RabbitMQVhost", "tenant-a", "app", waiting),
                                 order("KeystoneUser", "tenant-a", "u", "[]")});
  auto text = live::render_table(rows, at("2026-12-01T00:05:00Z"), 0, "header\n");
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  BOOST_REQUIRE(lines.size() == 6u);
  BOOST_TEST(lines[5] == "3 orders, 1 Ready");
  BOOST_TEST(lines[0] == "header");
  BOOST_TEST(lines[1].rfind("NAMESPACE", 0) == 0u);
  for (const char* col : {"NAME", "KIND", "READY", "REASON", "AGE", "MESSAGE"})
    BOOST_TEST(lines[1].find(col) != std::string::npos, col);
  BOOST_TEST(lines[2].find("KeystoneUser") != std::string::npos);
  BOOST_TEST(lines[2].find(" - ") != std::string::npos);  // no Ready condition yet
  BOOST_TEST(lines[3].find("WaitingForVhost") != std::string::npos);
  BOOST_TEST(lines[3].find("5m") != std::string::npos);
  BOOST_TEST(lines[3].find("the Vhost is not Ready yet") != std::string::npos);
  BOOST_TEST(lines[4].find("tenant-b") != std::string::npos);
  BOOST_TEST(lines[4].find("True") != std::string::npos);
  // Columns line up: KIND starts at the same offset in every line.
  auto kind_at = lines[1].find("KIND");
  BOOST_TEST(lines[3].substr(kind_at, 13) == "RabbitMQVhost");
}

BOOST_AUTO_TEST_CASE(the_table_is_cut_to_the_terminal_width) {
  auto rows = live::snapshot_of({order("RabbitMQVhost", "tenant-a", "app", waiting)});
  auto text = live::render_table(rows, at("2026-12-01T00:05:00Z"), 30, std::string(40, 'h') + "\n\n");
  BOOST_TEST(text.rfind(std::string(30, 'h') + "\n\nNAMESPACE", 0) == 0u, text);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) BOOST_TEST(line.size() <= 30u, line);
  BOOST_TEST(live::render_table({}, at("2026-12-01T00:05:00Z"), 0).find("(no orders)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rows_beyond_max_rows_are_counted) {
  auto rows = live::snapshot_of({order("RabbitMQVhost", "a", "1", ready), order("RabbitMQVhost", "a", "2", waiting),
                                 order("RabbitMQVhost", "a", "3", ready)});
  auto text = live::render_table(rows, at("2026-12-01T00:05:00Z"), 0, "", 2);
  BOOST_TEST(text.find(" 1 ") != std::string::npos);
  BOOST_TEST(text.find(" 2 ") != std::string::npos);
  BOOST_TEST(text.find(" 3 ") == std::string::npos, text);
  BOOST_TEST(text.find("... and 1 more\n3 orders, 2 Ready\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(a_line_per_change) {
  auto now = at("2026-12-01T00:05:00Z");
  auto a = live::snapshot_of({order("RabbitMQVhost", "tenant-a", "app", waiting)});
  auto added = live::changes({}, a, now);
  BOOST_REQUIRE(added.size() == 1u);
  BOOST_TEST(added[0] ==
             "2026-12-01T00:05:00Z added RabbitMQVhost tenant-a/app READY=False REASON=WaitingForVhost "
             "MESSAGE=the Vhost is not Ready yet");
  BOOST_TEST(live::changes(a, a, now).empty());
  auto b = live::snapshot_of({order("RabbitMQVhost", "tenant-a", "app", ready)});
  auto changed = live::changes(a, b, now);
  BOOST_REQUIRE(changed.size() == 1u);
  BOOST_TEST(changed[0] ==
             "2026-12-01T00:05:00Z changed RabbitMQVhost tenant-a/app READY=True REASON=Delivered MESSAGE=delivered");
  auto c = live::snapshot_of(
      {order("RabbitMQVhost", "tenant-a", "app", ready, R"(,"deletionTimestamp":"2026-12-01T00:04:00Z")")});
  auto term = live::changes(b, c, now);
  BOOST_REQUIRE(term.size() == 1u);
  BOOST_TEST(term[0].find("READY=True,Terminating") != std::string::npos);
  auto deleted = live::changes(c, {}, now);
  BOOST_REQUIRE(deleted.size() == 1u);
  BOOST_TEST(deleted[0] == "2026-12-01T00:05:00Z deleted RabbitMQVhost tenant-a/app");
}

BOOST_AUTO_TEST_CASE(order_crds_are_c5c3_kinds_but_the_controlplane) {
  auto crd = [](const std::string& group, const std::string& kind) {
    auto o = k8s::object::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",)"
                                R"("metadata":{"name":"x"},"spec":{"group":")" +
                                group + R"(","names":{"kind":")" + kind + R"("}}})");
    BOOST_REQUIRE(o);
    return *o;
  };
  BOOST_TEST(live::is_order_crd(crd("c5c3.io", "RabbitMQVhost")));
  BOOST_TEST(live::is_order_crd(crd("c5c3.io", "KeystoneUser")));
  BOOST_TEST(!live::is_order_crd(crd("c5c3.io", "ControlPlane")));
  BOOST_TEST(!live::is_order_crd(crd("rabbitmq.com", "Vhost")));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(embedded_paths)

BOOST_AUTO_TEST_CASE(the_data_dir_follows_the_flag_then_xdg_then_home) {
  BOOST_TEST(*data_dir_of("/d", fake_env({{"XDG_STATE_HOME", "/x"}})) == "/d");
  BOOST_TEST(*data_dir_of("", fake_env({{"XDG_STATE_HOME", "/x"}, {"HOME", "/h"}})) == "/x/c5c3-operator");
  BOOST_TEST(*data_dir_of("", fake_env({{"HOME", "/h"}})) == "/h/.local/state/c5c3-operator");
  auto none = data_dir_of("", fake_env({}));
  BOOST_REQUIRE(!none.ok());
  BOOST_TEST(none.error().find("--data-dir") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_manifests_come_from_the_flag_or_the_first_folder_that_has_them) {
  temp_dir t;
  auto good = t.path / "good";
  for (auto d : {"deploy/crds", "deploy/samples/world", "deploy/samples/orders", "sim/crds"})
    fs::create_directories(good / d);
  fs::create_directories(t.path / "bad/deploy/crds");
  for (auto f : {"deploy/samples/20-b.yaml", "deploy/samples/00-a.yaml", "deploy/samples/README.md",
                 "deploy/samples/world/10-c.yaml", "deploy/samples/orders/10-d.yaml"})
    std::ofstream(good / f) << "{}\n";

  auto by_flag = find_manifests(good.string(), {});
  BOOST_REQUIRE(by_flag.ok());
  BOOST_TEST(by_flag->root == good.string());
  auto bad_flag = find_manifests((t.path / "bad").string(), {good.string()});
  BOOST_REQUIRE(!bad_flag.ok());
  BOOST_TEST(bad_flag.error().find("--source-dir") != std::string::npos);
  auto found = find_manifests("", {"", (t.path / "bad").string(), good.string()});
  BOOST_REQUIRE(found.ok());
  BOOST_TEST(found->root == good.string());
  auto missing = find_manifests("", {(t.path / "bad").string()});
  BOOST_REQUIRE(!missing.ok());
  BOOST_TEST(missing.error().find("--source-dir") != std::string::npos);

  auto files = sample_files(*found);
  BOOST_REQUIRE(files.size() == 4u);
  BOOST_TEST(files[0] == (good / "deploy/samples/00-a.yaml").string());
  BOOST_TEST(files[1] == (good / "deploy/samples/20-b.yaml").string());
  BOOST_TEST(files[2] == (good / "deploy/samples/world/10-c.yaml").string());
  BOOST_TEST(files[3] == (good / "deploy/samples/orders/10-d.yaml").string());  // the Keystone orders last
}

BOOST_AUTO_TEST_CASE(the_source_tree_is_a_default_root) {
  auto roots = default_manifest_roots();
  BOOST_REQUIRE(!roots.empty());
  BOOST_TEST(has_manifests(roots.front()), roots.front());
}

BOOST_AUTO_TEST_CASE(the_embedded_flags) {
  auto o = config::parse_operator_options(
      {"--embedded", "--data-dir", "/state", "--embedded-port=6443", "--source-dir", "/src"}, fake_env({}));
  BOOST_REQUIRE(o.ok());
  BOOST_TEST(o->embedded);
  BOOST_TEST(o->data_dir == "/state");
  BOOST_TEST(o->embedded_port == 6443);
  BOOST_TEST(o->source_dir == "/src");
  auto e = config::parse_operator_options(
      {}, fake_env({{"C5C3_DATA_DIR", "/e"}, {"C5C3_EMBEDDED_PORT", "7000"}, {"C5C3_SOURCE_DIR", "/s"}}));
  BOOST_REQUIRE(e.ok());
  BOOST_TEST(e->data_dir == "/e");
  BOOST_TEST(e->embedded_port == 7000);
  BOOST_TEST(e->source_dir == "/s");
  BOOST_TEST(config::parse_operator_options({}, fake_env({}))->embedded_port == 0);
  auto bad = config::parse_operator_options({"--embedded-port", "70000"}, fake_env({}));
  BOOST_REQUIRE(!bad.ok());
  BOOST_TEST(bad.error().find("--embedded-port") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
