// The simulated world with its K-ORC against the in-process API server
// emulator (deploy/crds and sim/crds installed), a ControlPlane whose admin
// credential the world provides, and helpers to write K-ORC objects and wait
// for them. Shared by the integration test (memory Keystone) and the e2e test
// (a real Keystone).
#pragma once

#include "k8s/client/blocking.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "sim/world/base64.hpp"
#include "sim/world/korc_status.hpp"
#include "tests/rabbitmqvhost_actor/world_runner.hpp"

#include "config/connection.hpp"
#include "tests/fast_retries.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace c5c3::sim::world::test {

using namespace std::chrono_literals;

inline std::string korc_source_dir() {
  const char* d = std::getenv("C5C3_SOURCE_DIR");
  return d ? d : ".";
}

// "roleassignments.openstack.k-orc.cloud": the CRD's plural, the kind lowercased plus "s".
inline std::string korc_resource(korc_kind k) {
  std::string plural;
  for (char c : korc_info(k).k8s_kind) plural += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fmt::format("{}s.{}", plural, korc_group);
}

// The ControlPlane openstack/cp with its admin credential in domain Default.
inline const std::string korc_control_plane = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane",
  "metadata":{"name":"cp","namespace":"openstack"},
  "spec":{"region":"RegionOne","services":{"keystone":{"mode":"Managed"}},
    "korc":{"adminCredential":{"domainName":"Default","cloudCredentialsRef":{"cloudName":"admin"}}}}})";

struct korc_world {
  std::string dir;
  sim::apiserver server;
  std::unique_ptr<testing::world_runner> world;

  static sim::apiserver_options options() {
    sim::apiserver_options o;
    o.crd_dirs = {korc_source_dir() + "/deploy/crds", korc_source_dir() + "/sim/crds"};
    return o;
  }

  // Starts the emulator and the world (quick K-ORC timings; `configure` may change more).
  explicit korc_world(std::function<void(world_options&)> configure = {})
      : dir(make_dir()), server(options()) {
    server.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto cfg = conn->client;
    testing::fast_retries(cfg);
    world = std::make_unique<testing::world_runner>(cfg);
    world->configure = [configure](world_options& wo) {
      wo.korc.external_poll = 200ms;
      wo.korc.delete_poll = 100ms;
      wo.korc_max_backoff = 2s;
      if (configure) configure(wo);
    };
    world->start();
    apply(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"openstack"}})");
  }
  ~korc_world() {
    world->stop();
    server.stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  static std::string make_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "c5c3-korc-XXXXXX").string();
    return ::mkdtemp(tmpl.data());
  }

  void apply(const std::string& json) {
    std::string err;
    auto o = k8s::object::parse(json, &err);
    BOOST_TEST_REQUIRE(o.has_value(), err);
    auto r = world->create(*o);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  // The API server's answer to a merge patch ("" when accepted, else its message).
  std::string patch(korc_kind k, const std::string& name, const std::string& body, bool status = false) {
    k8s::patch_options po;
    po.field_manager = "test";
    po.status = status;
    auto r = k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
      world->client().patch(korc_gvk(k), "openstack", name, k8s::patch_type::merge, body, po, std::move(cb));
    });
    return r.ok() ? "" : r.error().describe();
  }
  void remove(const k8s::gvk& g, const std::string& name) {
    auto r = world->remove(g, "openstack", name);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  void remove(korc_kind k, const std::string& name) { remove(korc_gvk(k), name); }

  k8s::object get(korc_kind k, const std::string& name) const {
    return server.get_object(korc_resource(k), "openstack", name);
  }
  k8s::object secret(const std::string& name) const { return server.get_object("secrets", "openstack", name); }

  // A K-ORC object, in `openstack`, with `spec` (JSON members) and the admin cloud.
  void korc(korc_kind k, const std::string& name, const std::string& spec,
            const std::string& cloud_secret = "cp-admin-password-cloud", const std::string& cloud = "admin") {
    apply(fmt::format(R"({{"apiVersion":"openstack.k-orc.cloud/v1alpha1","kind":"{}","metadata":{{"name":"{}","namespace":"openstack"}},
      "spec":{{"cloudCredentialsRef":{{"secretName":"{}","cloudName":"{}"}},{}}}}})",
                      korc_info(k).k8s_kind, name, cloud_secret, cloud, spec));
  }
  void opaque_secret(const std::string& name, const std::string& key, const std::string& value) {
    apply(fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"{}","namespace":"openstack"}},
      "type":"Opaque","data":{{"{}":"{}"}}}})",
                      name, key, base64_encode(value)));
  }

  bool available(korc_kind k, const std::string& name) const {
    auto o = get(k, name);
    auto c = o.find_condition("Available");
    return c && c->is_true() && c->observed_generation == o.generation();
  }
  std::string progressing(korc_kind k, const std::string& name) const {
    auto c = get(k, name).find_condition("Progressing");
    return c ? c->status + "/" + c->reason + ": " + c->message : "(none)";
  }
  bool gone(korc_kind k, const std::string& name) const { return !get(k, name); }
  std::string id(korc_kind k, const std::string& name) const {
    return std::string(get(k, name).get_string({"status", "id"}));
  }
  // A terminal error of `reason` whose message starts with `message`.
  bool terminal(korc_kind k, const std::string& name, std::string_view reason, std::string_view message) const {
    auto t = korc_terminal_error(get(k, name));
    return t && t->first == reason && t->second.rfind(message, 0) == 0;
  }

  // The ControlPlane openstack/cp, waited for until the world reports its admin credential ready.
  void control_plane_ready() {
    apply(korc_control_plane);
    BOOST_TEST_REQUIRE(eventually([&] {
      auto c = server.get_object("controlplanes.c5c3.io", "openstack", "cp").find_condition("AdminCredentialReady");
      return c && c->is_true();
    }));
  }

  // What the orders do to a latched transport error: drop the Progressing
  // condition with a status merge patch, so K-ORC reconciles it again.
  std::string unlatch(korc_kind k, const std::string& name) {
    const auto* conds = get(k, name).get({"status", "conditions"});
    BOOST_TEST_REQUIRE((conds && conds->IsArray()));
    k8s::object_builder b;
    k8s::json_value kept(rapidjson::kArrayType);
    for (const auto& c : conds->GetArray())
      if (k8s::get_string(c, {"type"}) != "Progressing") kept.PushBack(k8s::copy_json(c, b.alloc()), b.alloc());
    b.set({"status", "conditions"}, std::move(kept));
    return patch(k, name, k8s::to_json(b.doc()), true);
  }

  // Polls `done` every 50 ms for at most `seconds`.
  static bool eventually(const std::function<bool()>& done, int seconds = 60) {
    for (int i = 0; i < seconds * 20; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(50ms);
    }
    return done();
  }
};

}  // namespace c5c3::sim::world::test
