// generate_plans and sample_plans from hand-made write and watch logs.
#include "tests/faults/plans.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::testing::faults;

namespace {

sim::write_record write(std::uint64_t seq, std::string client, std::string verb, std::string group,
                        std::string resource, std::string name, int code = 201, bool dry_run = false) {
  sim::write_record w;
  w.seq = seq;
  w.client = std::move(client);
  w.verb = std::move(verb);
  w.group = std::move(group);
  w.resource = std::move(resource);
  w.namespace_ = "openstack";
  w.name = std::move(name);
  w.code = code;
  w.dry_run = dry_run;
  return w;
}

sim::watch_record event(std::string client, std::string type, std::string name, std::uint64_t after_write) {
  sim::watch_record e;
  e.client = std::move(client);
  e.group = "rabbitmq.com";
  e.resource = "users";
  e.type = std::move(type);
  e.namespace_ = "openstack";
  e.name = std::move(name);
  e.after_write = after_write;
  return e;
}

const generate_options opts{"op", "op-token", 2, 3, ""};

std::vector<plan> reference_plans() {
  std::vector<sim::write_record> writes{
      write(1, "admin", "create", "", "namespaces", "openstack"),
      write(2, "op", "create", "", "secrets", "o0-password-v1"),
      write(3, "op", "create", "rabbitmq.com", "users", "o0-user", 409),     // refused: not a point
      write(4, "op", "create", "rabbitmq.com", "users", "o0-user", 201, true),  // dry run
      write(5, "op", "create", "rabbitmq.com", "users", "o0-user"),
      write(6, "op", "update", "c5c3.io", "rabbitmqvhosts/status", "o0", 200),
  };
  std::vector<sim::watch_record> events{
      event("op", "ADDED", "o0-user", 5),
      event("op", "MODIFIED", "o0-user", 5),
      event("op", "MODIFIED", "o0-user", 5),      // the same point: one plan
      event("op", "MODIFIED", "o0-user", 6),
      event("admin", "MODIFIED", "o0-user", 6),   // not the operator's stream
  };
  return generate_plans(writes, events, opts);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans)

BOOST_AUTO_TEST_CASE(every_write_gets_a_crash_a_stale_view_and_a_watch_restart) {
  auto plans = reference_plans();
  std::vector<std::string> names;
  for (auto& p : plans) names.push_back(p.name);
  BOOST_TEST(names == (std::vector<std::string>{"crash@1", "stale@1", "expire@1", "crash@2", "stale@2", "expire@2",
                                                "crash@3", "stale@3", "expire@3",
                                                "drop@2:users.rabbitmq.com/openstack/o0-user",
                                                "drop@3:users.rabbitmq.com/openstack/o0-user"}));
}

BOOST_AUTO_TEST_CASE(the_rules_of_each_kind) {
  auto plans = reference_plans();
  auto crash = find_plan(plans, "crash@2");
  BOOST_TEST_REQUIRE(crash.has_value());
  BOOST_TEST(crash->about == "create users.rabbitmq.com openstack/o0-user");
  BOOST_TEST(crash->restart);
  BOOST_TEST_REQUIRE(crash->rules.size() == 1u);
  BOOST_TEST(crash->rules[0].client == "op-token");
  BOOST_TEST(crash->rules[0].after_writes == 2);
  BOOST_TEST(crash->rules[0].reset_connection);

  auto stale = find_plan(plans, "stale@3");
  BOOST_TEST_REQUIRE(stale.has_value());
  BOOST_TEST(!stale->restart);
  BOOST_TEST(stale->release_after_writes == 3);
  BOOST_TEST(stale->rules[0].verb == "watch");
  BOOST_TEST(stale->rules[0].resource == "rabbitmqvhosts.c5c3.io");  // the parent of the status write
  BOOST_TEST(stale->rules[0].hold_watch_events == 2);
  BOOST_TEST(stale->rules[0].after_writes == 3);

  auto expire = find_plan(plans, "expire@1");
  BOOST_TEST_REQUIRE(expire.has_value());
  BOOST_TEST(expire->rules[0].expire_watches);
  BOOST_TEST(expire->rules[0].resource.empty());  // every informer

  auto drop = find_plan(plans, "drop@2:users.rabbitmq.com/openstack/o0-user");
  BOOST_TEST_REQUIRE(drop.has_value());
  BOOST_TEST(drop->about == "MODIFIED users.rabbitmq.com openstack/o0-user");
  auto& r = drop->rules[0];
  BOOST_TEST(r.coalesce_modified);
  BOOST_TEST(r.times == 1);
  BOOST_TEST(r.after_writes == 2);
  BOOST_TEST(r.namespace_ == "openstack");
  BOOST_TEST(r.name == "o0-user");
  BOOST_TEST(!find_plan(plans, "crash@4").has_value());
}

// With the order kind named, a crash between two child writes of one order
// (its own write not between) is an intermediate-state restart.
BOOST_AUTO_TEST_CASE(a_crash_inside_a_pass_is_a_midpass_plan) {
  std::vector<sim::write_record> writes{
      write(1, "op", "patch", "c5c3.io", "rabbitmqvhosts", "o0", 200),     // the finalizer
      write(2, "op", "create", "", "secrets", "o0-password-v1"),           // then the User: inside the pass
      write(3, "op", "create", "", "secrets", "o1-password-v1"),           // o1's next is its status
      write(4, "op", "create", "rabbitmq.com", "users", "o0-user"),        // o0's next is its status
      write(5, "op", "update", "c5c3.io", "rabbitmqvhosts/status", "o1", 200),
      write(6, "op", "update", "c5c3.io", "rabbitmqvhosts/status", "o0", 200),
  };
  auto o = opts;
  o.order_resource = "rabbitmqvhosts.c5c3.io";
  std::vector<std::string> restarts;
  for (auto& p : generate_plans(writes, {}, o))
    if (p.restart) restarts.push_back(p.name);
  BOOST_TEST(restarts ==
             (std::vector<std::string>{"crash@1", "midpass@2", "crash@3", "crash@4", "crash@5", "crash@6"}));
  auto mid = find_plan(generate_plans(writes, {}, o), "midpass@2");
  BOOST_TEST_REQUIRE(mid.has_value());
  BOOST_TEST((mid->kind == plan_kind::intermediate_restart));
  BOOST_TEST(mid->rules[0].reset_connection);
  BOOST_TEST(mid->rules[0].after_writes == 2);
  BOOST_TEST(order_of(writes[1], o.order_resource) == "o0");
  BOOST_TEST(order_of(writes[4], o.order_resource) == "o1");
  // Without the order kind, no midpass plans.
  for (auto& p : generate_plans(writes, {}, opts)) BOOST_TEST(p.name.rfind("midpass", 0) != 0u);
  // A sample reaches the midpass kind too.
  bool sampled = false;
  for (auto& p : sample_plans(generate_plans(writes, {}, o), 4)) sampled |= p.kind == plan_kind::intermediate_restart;
  BOOST_TEST(sampled);
}

BOOST_AUTO_TEST_CASE(a_sample_spreads_over_every_kind) {
  auto plans = reference_plans();
  auto names = [](const std::vector<plan>& ps) {
    std::vector<std::string> out;
    for (auto& p : ps) out.push_back(p.name);
    return out;
  };
  BOOST_TEST(names(sample_plans(plans, 4)) ==
             (std::vector<std::string>{"crash@2", "stale@2", "drop@3:users.rabbitmq.com/openstack/o0-user",
                                       "expire@2"}));
  BOOST_TEST(names(sample_plans(plans, 6)) ==
             (std::vector<std::string>{"crash@1", "crash@3", "stale@1", "stale@3",
                                       "drop@3:users.rabbitmq.com/openstack/o0-user", "expire@2"}));
  BOOST_TEST(sample_plans(plans, 100).size() == plans.size());
  BOOST_TEST(sample_plans({}, 4).empty());
}

BOOST_AUTO_TEST_SUITE_END()
