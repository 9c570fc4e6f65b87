// The plan/act contract over many passes (design.md "sense, plan, act"): a
// fake world issues each plan's writes, reports the topology children Ready
// and the PushSecret pushed by hand (as the reference's unit tests do), and
// the order converges from nothing to Delivered, rotates on a declared
// generation, and ends the grace period; a converged pass writes nothing.
#include "actors/c5c3/rabbitmqvhost/declaration.hpp"
#include "actors/c5c3/rabbitmqvhost/pass.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "k8s/projection.hpp"
#include "tests/c5c3/rabbitmqvhost_world.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {

class fake_world {
 public:
  object order;
  object cp = control_plane();
  object rmq = rabbitmq_cluster();
  object default_user = default_user_secret();
  time_point now = t0();
  int writes_issued = 0;
  // The plan sees the children as the kind's projected informers keep them
  // (declaration.hpp, issue 19); every write issued, described.
  bool projected = false;
  std::vector<std::string> write_log;

  explicit fake_world(std::string_view spec)
      : order(vhost_order_object("tenant-a", "orders", spec)), random_(counting_random()) {}

  // One pass: plan, act, and let the simulated controllers react.
  vhost::pass_plan pass() {
    auto plan = vhost::plan_pass(snapshot());
    for (auto& w : plan.writes) {
      // What reaches the API server: a delete sends its object's uid as the
      // precondition, any other write its body.
      write_log.push_back(w.describe() + " " + (w.verb == orders::write_verb::delete_
                                                    ? "uid " + std::string(w.body.uid())
                                                    : k8s::to_json(w.body.json())));
      act(w);
    }
    writes_issued += static_cast<int>(plan.writes.size());
    auto b = order.edit();
    if (plan.add_finalizer) b.add_finalizer(vhost::finalizer);
    if (plan.status_changed) {
      vhost::write_status(b, plan.status);
      k8s::write_conditions(b, plan.conditions);
    }
    order = std::move(b).freeze();
    controllers();
    return plan;
  }

  // The plan of a pass now as the runner takes it, nothing acted on.
  c5c3::runtime::order_plan runner_plan() {
    auto s = snapshot();
    return vhost::order_plan_of(vhost::plan_pass(s), s);
  }

  // Passes until one asks for nothing (bounded).
  vhost::pass_plan converge() {
    for (int i = 0; i < 30; ++i) {
      auto plan = pass();
      if (plan.writes.empty() && !plan.add_finalizer && !plan.status_changed) return plan;
    }
    BOOST_FAIL("the order did not converge in 30 passes");
    return {};
  }

  const object* get(std::string_view kind, std::string_view name) const {
    auto it = store_.find({std::string(kind), std::string(name)});
    return it == store_.end() ? nullptr : &it->second;
  }

  std::size_t count(std::string_view kind) const {
    std::size_t n = 0;
    for (auto& [k, o] : store_) n += k.first == kind;
    return n;
  }

  void set_spec(std::string_view field, std::int64_t v) {
    auto b = order.edit();
    b.set_int({"spec", field}, v);
    b.set_int({"metadata", "generation"}, order.generation() + 1);
    order = std::move(b).freeze();
  }

 private:
  using key = std::pair<std::string, std::string>;

  // What the kind's informer of `kind` keeps of `o`.
  object view(std::string_view kind, const object& o) const {
    if (!projected) return o;
    std::vector<std::string> drop = kind == "User"         ? vhost::user_drop()
                                    : kind == "PushSecret" ? vhost::push_secret_drop()
                                    : kind == "Secret"     ? vhost::secret_drop()
                                                           : vhost::topology_drop();
    return k8s::project(o, *k8s::parse_field_paths(drop));
  }

  std::vector<object> list(std::string_view kind) const {
    std::vector<object> out;
    for (auto& [k, o] : store_)
      if (k.first == kind && o.namespace_() == "openstack") out.push_back(view(kind, o));
    return out;
  }

  vhost::pass_snapshot snapshot() {
    vhost::pass_snapshot s;
    s.order = &order;
    s.control_plane = &cp;
    s.rabbitmq_cluster = &rmq;
    s.default_user_secret = &default_user;
    s.store = {"SecretStore", "openbao-tenant-store", true};
    s.vhosts = list("Vhost");
    s.users = list("User");
    s.permissions = list("Permission");
    s.secrets = list("Secret");
    s.push_secrets = list("PushSecret");
    const object* delivered = get("Secret", "orders-credentials");
    delivered_view_ = delivered ? view("Secret", *delivered) : object{};
    s.delivered_secret = delivered ? &delivered_view_ : nullptr;
    s.now = now;
    s.random = random_;
    return s;
  }

  void act(const orders::child_write& w) {
    key k{std::string(w.kind()), std::string(w.name())};
    auto it = store_.find(k);
    switch (w.verb) {
      case orders::write_verb::delete_:
        store_.erase(k);
        return;
      case orders::write_verb::merge_patch: {
        BOOST_REQUIRE(it != store_.end());
        auto b = it->second.edit();
        b.set_string({"spec", "deletionPolicy"}, w.body.get_string({"spec", "deletionPolicy"}));
        it->second = std::move(b).freeze();
        return;
      }
      case orders::write_verb::create:
        BOOST_REQUIRE_MESSAGE(it == store_.end(), "create of an existing " + w.describe());
        [[fallthrough]];
      case orders::write_verb::apply:
      case orders::write_verb::update: {
        auto b = w.body.edit();
        std::int64_t gen = 1;
        if (it != store_.end()) {
          gen = it->second.generation();
          const auto* old_spec = it->second.get({"spec"});
          const auto* new_spec = w.body.get({"spec"});
          if (!(old_spec && new_spec && k8s::json_equal(*old_spec, *new_spec))) ++gen;
          if (const auto* st = it->second.get({"status"})) b.set({"status"}, k8s::copy_json(*st, b.alloc()));
        }
        b.set_int({"metadata", "generation"}, gen);
        b.set_string({"metadata", "uid"}, "uid-" + k.second);
        b.set_string({"metadata", "creationTimestamp"}, "2026-11-30T00:00:00Z");
        store_[k] = std::move(b).freeze();
        return;
      }
    }
  }

  // The topology operator and ESO, reporting by hand, with the fields of
  // theirs no step reads (what the kind's projections drop).
  void controllers() {
    for (auto& [k, o] : store_) {
      if (k.first == "Vhost" || k.first == "User" || k.first == "Permission") {
        o = topology_ready(o, o.generation());
        auto b = o.edit();
        b.add_finalizer("deletion.finalizers.rabbitmq.com");
        for (auto& c : k8s::member(*k8s::member(b.doc(), "status"), "conditions")->GetArray())
          c.AddMember(k8s::make_string("lastTransitionTime", b.alloc()),
                      k8s::make_string("2026-11-30T00:00:00Z", b.alloc()), b.alloc());
        if (k.first == "User") {
          b.set_string({"status", "username"}, "generated");
          b.set_string({"status", "credentials", "name"}, "generated-credentials");
        }
        o = std::move(b).freeze();
      } else if (k.first == "PushSecret") {
        auto version = std::to_string(o.generation()) + "-" +
                       orders::sha256_hex(k8s::to_json(*o.get({"metadata", "annotations"}))).substr(0, 8);
        if (o.get_string({"status", "syncedResourceVersion"}) != version) {
          auto b = with_condition(o, "Ready", true).edit();
          b.set_string({"status", "syncedResourceVersion"}, version);
          b.set_string({"status", "refreshTime"}, "2026-11-30T00:00:00Z");
          b.set_string({"status", "syncedPushSecrets", "SecretStore/openbao-tenant-store", "key"}, version);
          b.add_finalizer("pushsecret.externalsecrets.io/finalizer");
          o = std::move(b).freeze();
        }
      }
    }
  }

  std::map<key, object> store_;
  object delivered_view_;
  orders::random_source random_;
};

const std::string spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})";

std::string delivered_user(const fake_world& w) {
  const object* s = w.get("Secret", "orders-credentials");
  BOOST_REQUIRE(s);
  return *orders::secret_value(*s, "username");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_converge)

BOOST_AUTO_TEST_CASE(an_order_converges_rotates_and_ends_its_grace_period) {
  fake_world w(spec);
  auto last = w.converge();
  BOOST_TEST_CONTEXT("from nothing to Ready: AllReady, the first generation delivered") {
    auto status = vhost::read_status(w.order);
    BOOST_TEST(status.password_generation == 1);
    BOOST_TEST(w.order.find_condition("Ready")->reason == "AllReady");
    BOOST_TEST(w.order.find_condition("DeliveryReady")->reason == "Delivered");
    BOOST_TEST(delivered_user(w) == "orders-32606a5f-v1");
    BOOST_TEST(w.order.has_finalizer(vhost::finalizer));
    BOOST_TEST((last.requeue == orders::requeue(720h)));
  }
  BOOST_TEST_CONTEXT("a converged order with nothing to change makes no write") {
    int before = w.writes_issued;
    auto again = w.pass();
    BOOST_TEST(again.writes.empty());
    BOOST_TEST(!again.status_changed);
    BOOST_TEST(w.writes_issued == before);
  }

  w.now += 1h;
  w.set_spec("passwordGeneration", 2);
  w.converge();
  BOOST_TEST_CONTEXT("a declared generation: the successor is created, status switches, the Secret follows") {
    auto status = vhost::read_status(w.order);
    BOOST_TEST(status.password_generation == 2);
    BOOST_TEST(status.previous_password_generation == 1);
    BOOST_TEST((status.previous_password_delete_at == w.now + 24h));
    BOOST_TEST(delivered_user(w) == "orders-32606a5f-v2");
    BOOST_TEST(w.get("User", "orders-32606a5f-vhost-user-v1") != nullptr);
    BOOST_TEST(w.order.find_condition("Ready")->is_true());
  }

  w.now += 25h;
  w.converge();
  BOOST_TEST_CONTEXT("after the grace period the superseded generation is gone and previous* are cleared") {
    auto status = vhost::read_status(w.order);
    BOOST_TEST(status.previous_password_generation == 0);
    BOOST_TEST(!status.previous_password_delete_at);
    BOOST_TEST(w.get("User", "orders-32606a5f-vhost-user-v1") == nullptr);
    BOOST_TEST(w.get("Permission", "orders-32606a5f-vhost-permission-v1") == nullptr);
    BOOST_TEST(w.get("Secret", "orders-32606a5f-vhost-password-v1") == nullptr);
    BOOST_TEST(w.get("Secret", "orders-32606a5f-vhost-password-v2") != nullptr);
  }

  w.now += 720h;
  w.converge();
  BOOST_TEST_CONTEXT("the schedule rotates when it is due") {
    BOOST_TEST(vhost::read_status(w.order).password_generation == 3);
    BOOST_TEST(delivered_user(w) == "orders-32606a5f-v3");
  }
}

// The named timers are armed only while their time is ahead of the pass: a
// pass at or past it has seen it due (a rotation in flight then waits for its
// children's events, not for a timer firing every second).
BOOST_AUTO_TEST_CASE(a_timer_whose_time_the_pass_has_reached_is_not_armed_again) {
  fake_world w(spec);
  w.converge();
  const auto next = *vhost::read_status(w.order).next_rotation;
  struct row {
    time_point now;
    bool armed;
  };
  for (auto [now, armed] : {row{next - 1s, true}, row{next, false}, row{next + 5s, false}}) {
    w.now = now;
    auto plan = w.runner_plan();
    BOOST_TEST_CONTEXT("a pass " << (now - next).count() << " ns after nextRotation") {
      BOOST_TEST(plan.timers.count("rotation") == (armed ? 1U : 0U));
      if (armed) BOOST_TEST((plan.timers.at("rotation") == next));
    }
  }

  w.now = next - 1s;
  w.set_spec("passwordGeneration", 2);
  w.converge();
  const auto grace_ends = *vhost::read_status(w.order).previous_password_delete_at;
  w.now = grace_ends - 1s;
  BOOST_TEST(w.runner_plan().timers.count("grace") == 1U);
  w.now = grace_ends;
  BOOST_TEST(w.runner_plan().timers.count("grace") == 0U);
}

BOOST_AUTO_TEST_CASE(a_deleted_order_sweeps_everything_and_releases_its_finalizer) {
  fake_world w(spec);
  w.converge();
  BOOST_TEST(w.count("Secret") == 3u);  // password-v1, source, the delivered Secret
  w.order = terminating(w.order);
  auto plan = w.pass();
  BOOST_TEST((plan.stage == vhost::pass_stage::teardown));
  BOOST_TEST(!plan.release_finalizer);  // counted on the pass that issued the deletes
  auto next = w.pass();
  BOOST_TEST(next.writes.empty());
  BOOST_TEST(next.release_finalizer);
  for (auto kind : {"Vhost", "User", "Permission", "PushSecret", "Secret"}) {
    BOOST_TEST_CONTEXT(kind) { BOOST_TEST(w.count(kind) == 0u); }
  }
}

// The whole life of an order (converge, a declared generation, the grace
// period, a due rotation, deletion), returning the final order.
object whole_life(fake_world& w) {
  w.converge();
  w.now += 1h;
  w.set_spec("passwordGeneration", 2);
  w.converge();
  w.now += 25h;
  w.converge();
  w.now += 720h;
  w.converge();
  w.order = terminating(w.order);
  w.converge();
  return w.order;
}

BOOST_AUTO_TEST_CASE(the_projected_children_plan_as_the_whole_ones) {
  fake_world whole(spec);
  fake_world projected(spec);
  projected.projected = true;
  const object a = whole_life(whole);
  const object b = whole_life(projected);
  BOOST_TEST(whole.write_log.size() > 20u);
  BOOST_TEST_REQUIRE(projected.write_log.size() == whole.write_log.size());
  for (std::size_t i = 0; i < whole.write_log.size(); ++i)
    BOOST_TEST(projected.write_log[i] == whole.write_log[i], "write " << i);  // the same writes, in the same order
  BOOST_TEST(a.to_json() == b.to_json());
  for (auto kind : {"Vhost", "User", "Permission", "PushSecret", "Secret"}) {
    BOOST_TEST_CONTEXT(kind) { BOOST_TEST(projected.count(kind) == 0u); }
  }
  // The view really lacks what the projections drop.
  fake_world v(spec);
  v.projected = true;
  v.converge();
  BOOST_TEST_REQUIRE(v.get("PushSecret", "orders-32606a5f-vhost-backup") != nullptr);
  const object& push = *v.get("PushSecret", "orders-32606a5f-vhost-backup");
  BOOST_TEST(push.get({"status", "syncedPushSecrets"}) != nullptr);  // the store keeps it
  auto seen = k8s::project(push, *k8s::parse_field_paths(vhost::push_secret_drop()));
  BOOST_TEST(!seen.get({"status", "syncedPushSecrets"}));
  BOOST_TEST(!seen.has_finalizer("pushsecret.externalsecrets.io/finalizer"));
  BOOST_TEST(seen.conditions().front().last_transition_time.empty());
  BOOST_TEST(!seen.get_string({"status", "syncedResourceVersion"}).empty());
}

BOOST_AUTO_TEST_SUITE_END()
