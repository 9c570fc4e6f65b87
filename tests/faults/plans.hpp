// Perturbation plans generated from a fault-free reference run (issue 18),
// as Sieve and Acto generate them for Go controllers: from the operator's
// writes and the watch events it was delivered (the emulator's write log
// and watch log), one plan per point of the run and kind of perturbation:
//
//   crash@W    the operator stopped right after its write W (every later
//              request of it reset, then its actors stopped and started
//              again with empty caches)
//   midpass@W  the same crash where W is a child write whose order's next
//              write is a child write too (no write of the order itself
//              between: one pass, or passes that left its status alone):
//              the intermediate-state restart
//   stale@W    from its write W on, the operator's informer of the kind it
//              just wrote held `hold` events behind while the others move
//              on (a stale view at that decision point)
//   drop@W:R/NS/NAME
//              the first MODIFIED of that object after the operator's write
//              W coalesced into its successor (the event is lost, as the
//              watch contract allows); W is "start" before its first write
//   expire@W   every open watch of the operator ended with 410 Expired
//              right after its write W (the informers relist)
//
// W names a write by its object and its ordinal among the operator's writes
// of that object with that verb: "patch:rabbitmqvhosts.c5c3.io/status:
// openstack/o0#2". The rules arm right after that write (the emulator's
// afterWritesOf), so a plan's point does not move when the writes of other
// orders interleave differently from one run to the next.
//
// A plan's name is its seed: find_plan(plans, name) gives it back. So does
// "crash@7", the plan of that kind at the reference run's 7th write (which can
// move between reference runs). Pure.
#pragma once

#include "sim/apiserver/apiserver.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::testing::faults {

enum class plan_kind { crash, intermediate_restart, stale_view, dropped_event, watch_restart };

struct plan {
  plan_kind kind = plan_kind::crash;
  // the seed: "crash@create:users.rabbitmq.com:openstack/o0-user#1",
  // "drop@create:secrets:openstack/o0-password-v1#1:users.rabbitmq.com/openstack/o0-user"
  std::string name;
  int point = 0;     // in the reference run: after the operator's `point`th successful write
  std::string about; // what the reference run did there ("create secrets openstack/o0-password-v1")
  std::vector<sim::fault_rule> rules;
  // crash: once the rules fired, stop the operator, remove them, start it.
  bool restart = false;
  // stale_view: the rules are removed once the operator made this many
  // more writes (or went quiet).
  int release_after_writes = 0;
};

struct generate_options {
  std::string user;   // the operator's user name in the logs
  std::string token;  // its bearer token (the rules match it)
  int hold = 2;       // events a stale informer is held behind
  int release_after_writes = 2;
  // The order kind ("rabbitmqvhosts.c5c3.io"): a write of it is the order's
  // own (status, finalizer); any other write is a child's, of the order its
  // name starts with (up to the first '-'). Empty: no midpass plans.
  std::string order_resource;
};

// The order a write belongs to (see generate_options::order_resource).
std::string order_of(const sim::write_record& w, const std::string& order_resource);

// The writes of `user` that landed (2xx, not dry-run), in order.
std::vector<sim::write_record> operator_writes(const std::vector<sim::write_record>& log, const std::string& user);

// "users.rabbitmq.com" for group rabbitmq.com, "secrets" for the core group;
// a subresource write names its parent resource.
std::string qualified_resource(const std::string& group, const std::string& resource);

std::vector<plan> generate_plans(const std::vector<sim::write_record>& writes,
                                 const std::vector<sim::watch_record>& events, const generate_options& o);

// `n` plans spread evenly over each kind (in plan_kind's order, rotated by
// `rotation`: the kinds that have plans from the (rotation mod their count)th
// on) (every kind gets n / kinds, the first kinds one more), the same ones for
// the same `plans`. With fewer plans than kinds, the rotation decides which
// kinds a sample runs: each test passes its own (sample_rotation of its order
// kind), so that CI's small samples reach every kind across the tests.
std::vector<plan> sample_plans(const std::vector<plan>& plans, std::size_t n, std::size_t rotation = 0);

// A rotation for sample_plans from a test's key (its order kind).
std::size_t sample_rotation(std::string_view key);

std::optional<plan> find_plan(const std::vector<plan>& plans, const std::string& name);

const char* kind_name(plan_kind k);

}  // namespace c5c3::testing::faults
