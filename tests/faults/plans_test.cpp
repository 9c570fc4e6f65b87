// generate_plans and sample_plans from hand-made write and watch logs.
#include "tests/faults/plans.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

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
  const std::string secret = "create:secrets:openstack/o0-password-v1#1", user = "create:users.rabbitmq.com:openstack/o0-user#1",
                    status = "update:rabbitmqvhosts.c5c3.io/status:openstack/o0#1";
  BOOST_TEST(names == (std::vector<std::string>{"crash@" + secret, "stale@" + secret, "expire@" + secret,
                                                "crash@" + user, "stale@" + user, "expire@" + user,
                                                "crash@" + status, "stale@" + status, "expire@" + status,
                                                "drop@" + user + ":users.rabbitmq.com/openstack/o0-user",
                                                "drop@" + status + ":users.rabbitmq.com/openstack/o0-user"}));
}

BOOST_AUTO_TEST_CASE(the_rules_of_each_kind) {
  auto plans = reference_plans();
  auto crash = find_plan(plans, "crash@2");
  BOOST_TEST_REQUIRE(crash.has_value());
  BOOST_TEST(crash->about == "create users.rabbitmq.com openstack/o0-user");
  BOOST_TEST(crash->restart);
  BOOST_TEST_REQUIRE(crash->rules.size() == 1u);
  BOOST_TEST(crash->rules[0].client == "op-token");
  // Right after the operator's first create of that User, however many other writes came before.
  BOOST_TEST(crash->rules[0].after_writes == 1);
  const auto& of = crash->rules[0].after_writes_of;
  BOOST_TEST(of.verb == "create");
  BOOST_TEST(of.group == "rabbitmq.com");
  BOOST_TEST(of.resource == "users");
  BOOST_TEST(of.namespace_ == "openstack");
  BOOST_TEST(of.name == "o0-user");
  BOOST_TEST(crash->rules[0].reset_connection);
  BOOST_TEST(crash->name == find_plan(plans, crash->name)->name);

  auto stale = find_plan(plans, "stale@3");
  BOOST_TEST_REQUIRE(stale.has_value());
  BOOST_TEST(!stale->restart);
  BOOST_TEST(stale->release_after_writes == 3);
  BOOST_TEST(stale->rules[0].verb == "watch");
  BOOST_TEST(stale->rules[0].resource == "rabbitmqvhosts.c5c3.io");  // the parent of the status write
  BOOST_TEST(stale->rules[0].hold_watch_events == 2);
  BOOST_TEST(stale->rules[0].after_writes == 1);
  BOOST_TEST(stale->rules[0].after_writes_of.resource == "rabbitmqvhosts/status");

  auto expire = find_plan(plans, "expire@1");
  BOOST_TEST_REQUIRE(expire.has_value());
  BOOST_TEST(expire->rules[0].expire_watches);
  BOOST_TEST(expire->rules[0].resource.empty());  // every informer

  auto drop = find_plan(plans, "drop@2:users.rabbitmq.com/openstack/o0-user");
  BOOST_TEST_REQUIRE(drop.has_value());
  BOOST_TEST(drop->name == "drop@create:users.rabbitmq.com:openstack/o0-user#1:users.rabbitmq.com/openstack/o0-user");
  BOOST_TEST(!find_plan(plans, "drop@2:users.rabbitmq.com/openstack/o1-user").has_value());
  BOOST_TEST(drop->about == "MODIFIED users.rabbitmq.com openstack/o0-user");
  auto& r = drop->rules[0];
  BOOST_TEST(r.coalesce_modified);
  BOOST_TEST(r.times == 1);
  BOOST_TEST(r.after_writes == 1);
  BOOST_TEST(r.after_writes_of.name == "o0-user");
  BOOST_TEST(r.namespace_ == "openstack");
  BOOST_TEST(r.name == "o0-user");
  BOOST_TEST(!find_plan(plans, "crash@4").has_value());
  BOOST_TEST(!find_plan(plans, "crash@").has_value());
  BOOST_TEST(!find_plan(plans, "crash@create:secrets:openstack/o0-password-v1#2").has_value());
}

// A seed names a write by its object and its ordinal among the writes of that
// object with that verb: the same plan, with the same rule, when the writes of
// another order come before it in one run and after it in the next.
BOOST_AUTO_TEST_CASE(a_seed_does_not_move_when_other_orders_interleave_differently) {
  auto status = [](std::uint64_t seq, std::string order) {
    return write(seq, "op", "patch", "c5c3.io", "rabbitmqvhosts/status", std::move(order), 200);
  };
  const std::vector<sim::write_record> one{status(1, "o0"), status(2, "o1"), status(3, "o0")},
      other{status(1, "o1"), status(2, "o0"), status(3, "o0")};
  const std::string seed = "crash@patch:rabbitmqvhosts.c5c3.io/status:openstack/o0#2";
  auto a = find_plan(generate_plans(one, {}, opts), seed), b = find_plan(generate_plans(other, {}, opts), seed);
  BOOST_TEST_REQUIRE(a.has_value());
  BOOST_TEST_REQUIRE(b.has_value());
  BOOST_TEST(a->point == 3);
  BOOST_TEST(b->point == 3);
  BOOST_TEST(a->rules[0].after_writes == 2);
  BOOST_TEST(b->rules[0].after_writes == 2);
  BOOST_TEST(a->rules[0].after_writes_of.name == "o0");
  // The first write of o0: the 1st write of one run, the 2nd of the other, one seed.
  auto first = "crash@patch:rabbitmqvhosts.c5c3.io/status:openstack/o0#1";
  BOOST_TEST(find_plan(generate_plans(one, {}, opts), first)->point == 1);
  BOOST_TEST(find_plan(generate_plans(other, {}, opts), first)->point == 2);
  // An event before the operator's first write: a drop plan armed from the start.
  auto early = generate_plans(one, {event("op", "MODIFIED", "o0-user", 0)}, opts);
  auto drop = find_plan(early, "drop@start:users.rabbitmq.com/openstack/o0-user");
  BOOST_TEST_REQUIRE(drop.has_value());
  BOOST_TEST(drop->rules[0].after_writes == 0);
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
  BOOST_TEST(restarts == (std::vector<std::string>{
                             "crash@patch:rabbitmqvhosts.c5c3.io:openstack/o0#1",
                             "midpass@create:secrets:openstack/o0-password-v1#1",
                             "crash@create:secrets:openstack/o1-password-v1#1",
                             "crash@create:users.rabbitmq.com:openstack/o0-user#1",
                             "crash@update:rabbitmqvhosts.c5c3.io/status:openstack/o1#1",
                             "crash@update:rabbitmqvhosts.c5c3.io/status:openstack/o0#1"}));
  auto mid = find_plan(generate_plans(writes, {}, o), "midpass@2");
  BOOST_TEST_REQUIRE(mid.has_value());
  BOOST_TEST((mid->kind == plan_kind::intermediate_restart));
  BOOST_TEST(mid->rules[0].reset_connection);
  BOOST_TEST(mid->rules[0].after_writes == 1);
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
  // As "kind@point" (find_plan's short form): which writes the sample spreads over.
  auto points = [](const std::vector<plan>& ps) {
    std::vector<std::string> out;
    for (auto& p : ps) out.push_back(fmt::format("{}@{}", kind_name(p.kind), p.point));
    return out;
  };
  BOOST_TEST(points(sample_plans(plans, 4)) == (std::vector<std::string>{"crash@2", "stale@2", "drop@3", "expire@2"}));
  BOOST_TEST(points(sample_plans(plans, 6)) ==
             (std::vector<std::string>{"crash@1", "crash@3", "stale@1", "stale@3", "drop@3", "expire@2"}));
  BOOST_TEST(names(sample_plans(plans, 1)) == (std::vector<std::string>{"crash@create:users.rabbitmq.com:openstack/o0-user#1"}));
  // Rotated, a sample smaller than the kinds starts at another kind.
  BOOST_TEST(points(sample_plans(plans, 2, 2)) == (std::vector<std::string>{"drop@3", "expire@2"}));
  BOOST_TEST(points(sample_plans(plans, 2, 6)) == (std::vector<std::string>{"drop@3", "expire@2"}));
  BOOST_TEST(points(sample_plans(plans, 4, 1)) == (std::vector<std::string>{"stale@2", "drop@3", "expire@2", "crash@2"}));
  BOOST_TEST(sample_rotation("rabbitmqvhosts.c5c3.io") == sample_rotation("rabbitmqvhosts.c5c3.io"));
  BOOST_TEST(sample_rotation("a") != sample_rotation("b"));
  BOOST_TEST(sample_plans(plans, 100).size() == plans.size());
  BOOST_TEST(sample_plans({}, 4).empty());
}

BOOST_AUTO_TEST_SUITE_END()
