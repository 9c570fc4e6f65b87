// The chaos profile (issue 18): mixed Keystone orders converge while the
// operator's requests meet, all at once, 5 % 429 with Retry-After, 20 % 5xx,
// 10 % conflicts on updates and patches, watch streams cut after two events,
// 10 % 410 Expired on resumed watches and 50-500 ms of latency on every
// answer; then the faults stop. The orders: C5C3_CHAOS_GROUPS groups (5 by
// default, what CI runs; 235 make 999 orders) of a KeystoneUser, a KeystoneProject, the member role
// assigned, a KeystoneApplicationCredential of that user on that project,
// a KeystoneCatalogEntry every fourth group and a RabbitMQVhost every second
// group (its vhost, user and permission through the simulated topology
// operator, its credential delivered and accepted by the broker).
//
// The faults last as long as the operator needs to make as many requests as
// the whole fault-free reference run made (a bound in requests, not in
// seconds, so a slow machine sees the same profile).
//
// Oracle: every order Ready; the end state of every order (its K-ORC
// children, its objects in Keystone, its delivered credential authenticating)
// and the operator's successful creates and deletes per resource equal the
// reference run's (nothing lost, no orphan, no duplicate); and during the
// faults the operator's requests never outran its client-side limiter (qps,
// burst): retries and relists wait for tokens like every request, so the
// faults cause no retry storm.
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

// One order of the profile: its kind's resource and name label, the
// conditions a not-ready message names, and the K-ORC kinds it owns.
struct chaos_order {
  std::string kind, name, resource, label;
  std::vector<const char*> conditions, korc;
};

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
    for (int i = 0; i < chaos_groups(); ++i) {
      auto n = std::to_string(i);
      orders.push_back({"user", "u" + n, "keystoneusers.c5c3.io", user_label, {"UserReady", "DeliveryReady"}, {"users"}});
      orders.push_back({"project", "p" + n, "keystoneprojects.c5c3.io", project_label, {"Ready"}, {"projects"}});
      orders.push_back({"assignment", "ra" + n, "keystoneroleassignments.c5c3.io", "c5c3.io/keystoneroleassignment-name",
                        {"Ready"}, {"roles", "roleassignments"}});
      orders.push_back({"credential", "ac" + n, "keystoneapplicationcredentials.c5c3.io",
                        "c5c3.io/keystoneapplicationcredential-name", {"CredentialReady", "DeliveryReady"},
                        {"applicationcredentials"}});
      if (i % 4 == 0)
        orders.push_back({"catalog", "ce" + n, "keystonecatalogentries.c5c3.io", "c5c3.io/keystonecatalogentry-name",
                          {"Ready"}, {"services", "regions", "endpoints"}});
      if (i % 2 == 0)
        orders.push_back({"vhost", "v" + n, "rabbitmqvhosts.c5c3.io", std::string(vh::label_name),
                          {"VhostReady", "DeliveryReady"}, {}});
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

  void begin() {
    await_synced();
    for (const auto& o : orders) create(json_of(o));
  }

  std::string not_ready() const {
    std::string out;
    for (const auto& o : orders) {
      if (ready(o.resource, o.name)) continue;
      out += o.name + "(";
      for (const auto* t : o.conditions) out += fmt::format("{}={} ", t, reason(o.resource, o.name, t));
      out += ") ";
    }
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
    std::string out = fmt::format("exists={} ready={} ", static_cast<bool>(obj), obj && ready(obj));
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
    for (const auto& o : orders) {
      BOOST_TEST_CONTEXT(o.name) {
        BOOST_TEST(ready(o.resource, o.name));
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
  faults::outcome ref;
  std::uint64_t ref_requests = 0;
  {
    faults::plan_run<chaos_scenario> f;
    f.run(nullptr);
    f.expect_reference();
    ref = f.observe();
    ref_requests = f.operator_requests->requests_total();
  }
  std::string writes;
  for (const auto& [k, n] : ref.writes) writes += fmt::format("{}={} ", k, n);
  BOOST_TEST_MESSAGE("reference: " << ref.orders.size() << " orders, " << ref_requests << " requests; " << writes);

  faults::plan_run<chaos_scenario> f;
  std::vector<std::string> ids;
  for (auto r : chaos_rules()) ids.push_back(f.add(std::move(r)));
  f.start_operator();
  const auto started = clock_type::now();
  f.begin();
  // The faults last until the operator has made a reference run's requests
  // (or everything is Ready through them).
  const bool spent = eventually(
      [&] { return f.operator_requests->requests_total() >= ref_requests || f.not_ready().empty(); },
      faults::plan_converge_seconds);
  auto sends = f.sends->times();
  const auto fault_seconds = std::chrono::duration<double>(clock_type::now() - started).count();
  const auto during = f.operator_requests->requests_total();
  const auto retries = f.operator_requests->retries();
  auto counts = f.server.fault_counts();
  std::string fired;
  for (const auto& id : ids) fired += fmt::format("{}={} ", id, counts.by_rule[id]);
  for (const auto& id : ids) f.server.remove_fault(id);
  BOOST_TEST_REQUIRE(spent, "the fault phase ended by its limit: " << f.not_ready());

  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return f.not_ready().empty(); }, faults::plan_converge_seconds),
                          "not Ready after the faults stopped: " << f.not_ready());
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
