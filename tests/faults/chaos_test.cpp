// The chaos profile (issue 18): mixed orders are created, then some rotated
// and some deleted, while the operator's requests meet, all at once, 5 % 429
// with Retry-After, 20 % 5xx, 10 % conflicts on updates and patches, watch
// streams cut after two events, 10 % 410 Expired on resumed watches and
// 50-500 ms of latency on every answer; then the faults stop. The orders:
// C5C3_CHAOS_GROUPS groups (5 by default, what CI runs; 200 make 1,000
// orders) of a KeystoneUser, a KeystoneProject, the member role assigned, a
// KeystoneApplicationCredential of that user on that project, and every
// second group a KeystoneCatalogEntry and a RabbitMQVhost (its vhost, user
// and permission through the simulated topology operator, its credential
// delivered and accepted by the broker).
//
// Two steps, as a user makes them: every order created; once they are all
// Ready (still under the faults), every third group's user, credential and
// vhost rotated (passwordGeneration, credentialGeneration 2) and another
// third's orders all deleted at once. The faults last through the first step
// and, in the second, until the operator has made as many requests as the
// fault-free reference run made in it (a bound in requests, not in seconds,
// so a slow machine sees the same profile).
//
// Oracle: every order Ready or gone; the end state of every order (its K-ORC
// children, its objects in Keystone, its delivered credential authenticating,
// its generation) and the operator's successful creates and deletes per
// resource equal the reference run's (nothing lost, no orphan, no duplicate,
// nothing left of a deleted order in Keystone or on the broker); and during
// the faults the operator's requests never outran its client-side limiter
// (qps, burst): retries and relists wait for tokens like every request, so
// the faults cause no retry storm.
#include "sim/world/memory_identity.hpp"
#include "tests/faults/keystone_scenario.hpp"
#include "tests/require_eventually.hpp"

#include <algorithm>
#include <mutex>

namespace c5c3::testing {
namespace {

using clock_type = std::chrono::steady_clock;

// The operator client's limiter: low enough that the orders need more than
// a burst (C5C3_CHAOS_QPS sets the rate for a large run; the burst is twice it).
double env_number(const char* name, double fallback) {
  const char* env = std::getenv(name);
  return env && *env ? std::atof(env) : fallback;
}
const double chaos_qps = env_number("C5C3_CHAOS_QPS", 10);
const int chaos_burst = static_cast<int>(2 * chaos_qps);

int chaos_groups() {
  const char* env = std::getenv("C5C3_CHAOS_GROUPS");
  return env && *env ? std::max(1, std::atoi(env)) : 5;
}

const std::string chaos_rotation = R"({"interval":"1h","gracePeriod":"4s"})";

// The operator's requests by the time each was sent (its answer's time less
// its latency, which the client measures from the moment the limiter let it
// go), besides the usual counts.
struct send_log : k8s::request_counters {
  mutable std::mutex mu;
  std::vector<clock_type::time_point> sent;
  void on_request(const k8s::request_observation& o) override {
    {
      std::lock_guard lock(mu);
      sent.push_back(clock_type::now() - std::chrono::duration_cast<clock_type::duration>(o.latency));
    }
    request_counters::on_request(o);
  }
  std::vector<clock_type::time_point> times() const {
    std::lock_guard lock(mu);
    auto out = sent;
    std::sort(out.begin(), out.end());
    return out;
  }
};

// How far the sends outran a token bucket of chaos_qps and chaos_burst, full
// at the first send (the most it can hold): the lowest token count reached.
// The client's bucket hands out each request's moment (a reservation); the
// request starts when the io thread's timer for that moment fires, so on a
// loaded machine late timers firing together bunch a few starts up: with
// starts at most `lateness` after their reservations the count stays above
// -1 - qps * lateness. A request that did not wait for its token at all (a
// retry storm) goes far below. Also the most requests sent in any second.
constexpr double timer_lateness_seconds = 0.5;
struct bucket_check {
  double lowest = chaos_burst;
  std::size_t most_in_a_second = 0;
};
bucket_check check_bucket(const std::vector<clock_type::time_point>& t) {
  bucket_check out;
  double tokens = chaos_burst;
  for (std::size_t i = 0, j = 0; i < t.size(); ++i) {
    if (i > 0) tokens = std::min<double>(chaos_burst, tokens + std::chrono::duration<double>(t[i] - t[i - 1]).count() * chaos_qps);
    tokens -= 1.0;
    out.lowest = std::min(out.lowest, tokens);
    while (t[i] - t[j] > 1s) ++j;
    out.most_in_a_second = std::max(out.most_in_a_second, i - j + 1);
  }
  return out;
}

// One order of the profile: its group, its kind's resource, gvk and name
// label, the conditions a not-ready message names, and the K-ORC kinds it owns.
struct chaos_order {
  int group = 0;
  std::string kind, name, resource;
  k8s::gvk gvk;
  std::string label;
  std::vector<const char*> conditions, korc;
};

// The second step: every third group rotated, another third deleted.
bool rotated(int group) { return group % 3 == 1; }
bool deleted(int group) { return group % 3 == 2; }

struct chaos_scenario : faults::keystone_scenario {
  std::vector<chaos_order> orders;
  std::shared_ptr<send_log> sends = std::make_shared<send_log>();
  caf::actor vhosts;  // the RabbitMQVhost host, beside the Keystone kinds' hosts

  explicit chaos_scenario(bool start) : keystone_scenario(false) {
    auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp", consent_everywhere);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
    create(rabbitmq_cluster);
    // C5C3_CHAOS_UNLIMITED=1 turns the limiter off: the check below fails then.
    const char* unlimited = std::getenv("C5C3_CHAOS_UNLIMITED");
    operator_qps = unlimited && *unlimited ? 0 : chaos_qps;
    operator_burst = chaos_burst;
    operator_requests = sends;
    const k8s::gvk catalog_gvk{"c5c3.io", "v1alpha1", "KeystoneCatalogEntry"};
    const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};
    for (int i = 0; i < chaos_groups(); ++i) {
      auto n = std::to_string(i);
      orders.push_back({i, "user", "u" + n, "keystoneusers.c5c3.io", user_gvk, user_label, {"UserReady", "DeliveryReady"},
                        {"users"}});
      orders.push_back({i, "project", "p" + n, "keystoneprojects.c5c3.io", project_gvk, project_label, {"Ready"},
                        {"projects"}});
      orders.push_back({i, "assignment", "ra" + n, "keystoneroleassignments.c5c3.io", assignment_gvk,
                        "c5c3.io/keystoneroleassignment-name", {"Ready"}, {"roles", "roleassignments"}});
      orders.push_back({i, "credential", "ac" + n, "keystoneapplicationcredentials.c5c3.io", credential_gvk,
                        "c5c3.io/keystoneapplicationcredential-name", {"CredentialReady", "DeliveryReady"},
                        {"applicationcredentials"}});
      if (i % 2 == 0) {
        orders.push_back({i, "catalog", "ce" + n, "keystonecatalogentries.c5c3.io", catalog_gvk,
                          "c5c3.io/keystonecatalogentry-name", {"Ready"}, {"services", "regions", "endpoints"}});
        orders.push_back({i, "vhost", "v" + n, "rabbitmqvhosts.c5c3.io", order_gvk, std::string(vh::label_name),
                          {"VhostReady", "DeliveryReady"}, {}});
      }
    }
    if (start) start_operator();
  }
  ~chaos_scenario() { stop_operator(); }

  void start_operator() {
    keystone_scenario::start_operator();
    vhosts = spawn_vhost_host(sys, limiter, directory, control_planes, reg);
  }
  void stop_operator() {
    if (vhosts) {
      caf::scoped_actor self{sys};
      self->request(vhosts, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
      caf::anon_send_exit(vhosts, caf::exit_reason::user_shutdown);
      self->wait_for(vhosts);
      vhosts = caf::actor{};
    }
    keystone_scenario::stop_operator();
  }

  // A RabbitMQVhost's children through the topology operator, its delivered
  // credential's keys, its vhost on the broker and whether the broker takes
  // the delivered password.
  std::string vhost_state(const std::string& name) const {
    std::string out;
    for (auto res : {"vhosts", "users", "permissions"})
      out += fmt::format(" {}={}", res, labelled(std::string(res) + ".rabbitmq.com", std::string(vh::label_name), name));
    const auto user = secret(name + "-credentials", "username");
    const auto password = secret(name + "-credentials", "password");
    auto u = world->broker->user(user);
    return out + fmt::format(" vhost-on-broker={} authenticates={}",
                             world->broker->vhosts().count(secret(name + "-credentials", "vhost")),
                             u && !password.empty() && u->password == password);
  }

  std::string json_of(const chaos_order& o) const {
    if (o.kind == "vhost") return vhost_order(o.name, "Delete");
    auto n = o.name.substr(o.kind == "assignment" || o.kind == "credential" || o.kind == "catalog" ? 2 : 1);
    if (o.kind == "user") return user_order(o.name);
    if (o.kind == "project") return project_order(o.name);
    if (o.kind == "assignment") return assignment_order(o.name, "u" + n, "p" + n);
    if (o.kind == "credential") return credential_order(o.name, "u" + n, "p" + n, chaos_rotation);
    return catalog_order(o.name, "dns-" + n, true);
  }

  // Whether the second step was taken, and the broker vhosts of the deleted
  // RabbitMQVhost orders as they were delivered.
  bool second_step = false;
  std::vector<std::string> deleted_vhosts;

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               await_synced();
               for (const auto& o : orders) create(json_of(o));
             },
             [this] { return not_ready(); }},
            {"rotate and delete", [this] { rotate_and_delete(); }, [this] { return not_ready(); }}};
  }

  void rotate_and_delete() {
    second_step = true;
    for (const auto& o : orders) {
      if (deleted(o.group)) {
        if (o.kind == "vhost") deleted_vhosts.push_back(secret(o.name + "-credentials", "vhost"));
        remove(o.gvk, o.name);
      } else if (rotated(o.group) && (o.kind == "user" || o.kind == "vhost")) {
        patch(o.gvk, o.name, R"({"spec":{"passwordGeneration":2}})");
      } else if (rotated(o.group) && o.kind == "credential") {
        patch(o.gvk, o.name, R"({"spec":{"credentialGeneration":2}})");
      }
    }
  }

  static std::int64_t status_int(const k8s::object& o, const char* field) {
    return o ? k8s::get_int(o.json(), {"status", field}).value_or(0) : 0;
  }
  // The generation the order's credential is at ("" for a kind without one)
  // and whether a rotation's grace period still runs.
  static std::string generation(const chaos_order& o, const k8s::object& obj) {
    if (o.kind == "user") return fmt::format("g{}", status_int(obj, "passwordGeneration"));
    if (o.kind == "vhost")
      return fmt::format("g{}/{}", status_int(obj, "passwordGeneration"), status_int(obj, "previousPasswordGeneration"));
    if (o.kind == "credential")
      return fmt::format("g{}/{}", status_int(obj, "credentialGeneration"),
                         status_int(obj, "previousCredentialGeneration"));
    return "";
  }
  static std::string settled_generation(const chaos_order& o) {
    const int g = rotated(o.group) ? 2 : 1;
    if (o.kind == "user") return fmt::format("g{}", g);
    if (o.kind == "vhost" || o.kind == "credential") return fmt::format("g{}/0", g);
    return "";
  }

  // "" once every order is where its step leaves it: Ready at its settled
  // generation (a rotation's grace period over), or gone with everything of
  // it (its K-ORC children, its broker vhost).
  std::string not_ready() const {
    std::string out;
    for (const auto& o : orders) {
      auto obj = get(o.resource, o.name);
      if (deleted(o.group) && second_step) {
        if (obj) out += o.name + "(not gone) ";
        for (const auto* k : o.korc)
          if (auto n = labelled(std::string(k) + ".openstack.k-orc.cloud", o.label, o.name))
            out += fmt::format("{}({} {} left) ", o.name, n, k);
        continue;
      }
      if (ready(obj) && (!second_step || generation(o, obj) == settled_generation(o))) continue;
      out += o.name + "(";
      for (const auto* t : o.conditions) out += fmt::format("{}={} ", t, reason(o.resource, o.name, t));
      out += generation(o, obj) + ") ";
    }
    for (const auto& v : deleted_vhosts)
      if (world->broker->vhosts().count(v)) out += "broker vhost " + v + " left ";
    return out;
  }

  std::vector<std::string> order_names() const {
    std::vector<std::string> out;
    for (const auto& o : orders) out.push_back(o.name);
    return out;
  }

  std::string order_state(const std::string& name) const {
    const chaos_order* order = nullptr;
    for (const auto& o : orders)
      if (o.name == name) order = &o;
    BOOST_TEST_REQUIRE(order != nullptr);
    auto obj = get(order->resource, name);
    std::string out =
        fmt::format("exists={} ready={} {} ", static_cast<bool>(obj), obj && ready(obj), generation(*order, obj));
    for (const auto* k : order->korc)
      out += fmt::format("{}={} ", k, labelled(std::string(k) + ".openstack.k-orc.cloud", order->label, name));
    out += fmt::format("secrets={} pushsecrets={}", labelled("secrets", order->label, name),
                       labelled("pushsecrets.external-secrets.io", order->label, name));
    if (order->kind == "user") out += " authenticates=" + user_authenticates(name);
    if (order->kind == "project")
      out += fmt::format(" in-keystone={}", obj.get_string({"status", "projectID"}) == keystone->id("projects", name));
    if (order->kind == "credential") out += " delivered=" + credential_delivered(name, obj);
    if (order->kind == "vhost") out += vhost_state(name);
    return out;
  }

  void expect_reference() const {
    for (const auto& v : deleted_vhosts) BOOST_TEST(!world->broker->vhosts().count(v), v);
    for (const auto& o : orders) {
      BOOST_TEST_CONTEXT(o.name) {
        if (deleted(o.group)) {
          BOOST_TEST(!get(o.resource, o.name));
          if (o.kind == "user" || o.kind == "project")
            BOOST_TEST(keystone->id(o.kind + "s", o.name) == "", "left in Keystone");
          BOOST_TEST(labelled("secrets", o.label, o.name) == 0u);
          if (o.kind == "user" || o.kind == "credential" || o.kind == "vhost")
            BOOST_TEST(!get("secrets", o.name + "-credentials"), "its delivered Secret is left");
          continue;
        }
        BOOST_TEST(ready(o.resource, o.name));
        BOOST_TEST(generation(o, get(o.resource, o.name)) == settled_generation(o));
        if (o.kind == "user") BOOST_TEST(user_authenticates(o.name) == "yes");
        if (o.kind == "credential") BOOST_TEST(credential_delivered(o.name, get(o.resource, o.name)) == "201/p" + o.name.substr(2));
        if (o.kind == "vhost")
          BOOST_TEST(vhost_state(o.name) == " vhosts=1 users=1 permissions=1 vhost-on-broker=1 authenticates=true");
      }
    }
  }
};

std::vector<sim::fault_rule> chaos_rules() {
  auto rule = [](std::string id, std::string verb, double p) {
    sim::fault_rule r;
    r.id = std::move(id);
    r.verb = std::move(verb);
    r.probability = p;
    r.latency = 50ms;
    r.latency_max = 500ms;
    return r;
  };
  std::vector<sim::fault_rule> out;
  // Tried in order, each on the requests the ones before it let pass.
  auto too_many = rule("chaos-429", "", 0.05);
  too_many.status_code = 429;
  too_many.retry_after_seconds = 1;
  out.push_back(too_many);
  auto e500 = rule("chaos-500", "", 0.11);
  e500.status_code = 500;
  out.push_back(e500);
  auto e503 = rule("chaos-503", "", 0.11);
  e503.status_code = 503;
  out.push_back(e503);
  for (auto verb : {"update", "patch"}) {
    auto conflict = rule(std::string("chaos-409-") + verb, verb, 0.14);
    conflict.status_code = 409;
    out.push_back(conflict);
  }
  auto expired = rule("chaos-410", "watch", 0.1);
  expired.expire_resume = true;
  out.push_back(expired);
  auto cut = rule("chaos-cut", "watch", 0.3);
  cut.cut_watch_after_events = 2;
  out.push_back(cut);
  out.push_back(rule("chaos-latency", "", 1.0));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_chaos)

BOOST_AUTO_TEST_CASE(mixed_orders_converge_through_the_chaos_profile_as_without_it) {
  // The reference: each step converged and settled, fault-free; the requests
  // of its second step bound the faults in the chaos run's. No client-side
  // limiter here (C5C3_CHAOS_LIMITED_REFERENCE=1: the chaos run's), as in every
  // plan's reference: the chaos run checks it; at 10 qps this run took ~45 s.
  faults::outcome ref;
  std::uint64_t ref_requests = 0;
  std::vector<std::uint64_t> ref_step_requests;
  {
    faults::plan_run<chaos_scenario> f;
    if (env_number("C5C3_CHAOS_LIMITED_REFERENCE", 0) == 0) f.operator_qps = 0;
    f.start_operator();
    for (auto& step : f.steps()) {
      const auto before = f.operator_requests->requests_total();
      step.act();
      C5C3_REQUIRE_EVENTUALLY(eventually([&] { return step.pending().empty(); }, faults::plan_converge_seconds),
                              step.name << ": " << step.pending());
      BOOST_TEST_REQUIRE(eventually([&] { return f.settled(); }));
      ref_step_requests.push_back(f.operator_requests->requests_total() - before);
    }
    f.expect_reference();
    ref = f.observe();
    ref_requests = f.operator_requests->requests_total();
  }
  std::string writes;
  for (const auto& [k, n] : ref.writes) writes += fmt::format("{}={} ", k, n);
  const auto ref_second_step = ref_step_requests.back();
  BOOST_TEST_MESSAGE("reference: " << ref.orders.size() << " orders, " << ref_requests << " requests ("
                                   << ref_second_step << " in the second step); " << writes);

  faults::plan_run<chaos_scenario> f;
  std::vector<std::string> ids;
  for (auto r : chaos_rules()) ids.push_back(f.add(std::move(r)));
  f.start_operator();
  const auto started = clock_type::now();
  auto steps = f.steps();
  // Under the faults: every order created and Ready, then the rotations and
  // deletions made, until the operator has made the reference's requests of
  // that step (or it is done through them).
  steps[0].act();
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return steps[0].pending().empty(); }, faults::plan_converge_seconds),
                          "not Ready under the faults: " << steps[0].pending());
  const auto created = f.operator_requests->requests_total();
  steps[1].act();
  const bool spent = eventually(
      [&] { return f.operator_requests->requests_total() >= created + ref_second_step || steps[1].pending().empty(); },
      faults::plan_converge_seconds);
  auto sends = f.sends->times();
  const auto fault_seconds = std::chrono::duration<double>(clock_type::now() - started).count();
  const auto during = f.operator_requests->requests_total();
  const auto retries = f.operator_requests->retries();
  auto counts = f.server.fault_counts();
  std::string fired;
  for (const auto& id : ids) fired += fmt::format("{}={} ", id, counts.by_rule[id]);
  for (const auto& id : ids) f.server.remove_fault(id);
  BOOST_TEST_REQUIRE(spent, "the fault phase ended by its limit: " << steps[1].pending());

  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return steps[1].pending().empty(); }, faults::plan_converge_seconds),
                          "not settled after the faults stopped: " << steps[1].pending());
  BOOST_TEST_REQUIRE(eventually([&] { return f.settled(); }));
  auto got = f.observe();
  BOOST_TEST(faults::describe(got) == faults::describe(ref));
  f.expect_reference();

  auto bucket = check_bucket(sends);
  BOOST_TEST_MESSAGE(fmt::format(
      "chaos: {} orders; faults for {:.1f} s, {} requests under them ({} retries), fired: {}; at most {} requests "
      "sent in a second (limiter {} qps, burst {}; lowest token count {:.1f}); {} requests in all (reference {})",
      f.orders.size(), fault_seconds, during, retries, fired, bucket.most_in_a_second, chaos_qps, chaos_burst,
      bucket.lowest, f.operator_requests->requests_total(), ref_requests));
  BOOST_TEST(bucket.lowest >= -1.0 - chaos_qps * timer_lateness_seconds,
             "the operator's requests outran its client-side limiter (" << bucket.lowest
                                        << " tokens)");
  // Each family of faults reached the operator (the draws depend on the
  // order of its requests; each family's expected count is 10 or more).
  auto n = [&](std::initializer_list<const char*> rules) {
    std::uint64_t sum = 0;
    for (const auto* r : rules) sum += counts.by_rule[r];
    return sum;
  };
  BOOST_TEST(n({"chaos-429"}) > 0u);
  BOOST_TEST(n({"chaos-500", "chaos-503"}) > 0u);
  BOOST_TEST(n({"chaos-409-update", "chaos-409-patch"}) > 0u);
  BOOST_TEST(n({"chaos-410", "chaos-cut"}) > 0u);
  BOOST_TEST(n({"chaos-latency"}) > 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
