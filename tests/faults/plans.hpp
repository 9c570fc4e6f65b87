// Perturbation plans generated from a fault-free reference run (issue 18),
// as Sieve and Acto generate them for Go controllers: from the operator's
// writes and the watch events it was delivered (the emulator's write log
// and watch log), one plan per point of the run and kind of perturbation:
//
//   crash@N    the operator stopped right after its Nth write (every later
//              request of it reset, then its actors stopped and started
//              again with empty caches)
//   midpass@N  the same crash where the Nth write is a child write whose
//              order's next write is a child write too (no write of the
//              order itself between: one pass, or passes that left its
//              status alone): the intermediate-state restart
//   stale@N    from its Nth write on, the operator's informer of the kind
//              it just wrote held `hold` events behind while the others
//              move on (a stale view at that decision point)
//   drop@N:R/NS/NAME
//              the first MODIFIED of that object after the operator's Nth
//              write coalesced into its successor (the event is lost, as
//              the watch contract allows)
//   expire@N   every open watch of the operator ended with 410 Expired
//              right after its Nth write (the informers relist)
//
// A plan's name is its seed: find_plan(plans, name) gives it back. Pure.
#pragma once

#include "sim/apiserver/apiserver.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::testing::faults {

enum class plan_kind { crash, intermediate_restart, stale_view, dropped_event, watch_restart };

struct plan {
  plan_kind kind = plan_kind::crash;
  std::string name;  // the seed: "crash@3", "drop@5:users.rabbitmq.com/openstack/o0-user"
  int point = 0;     // fires after the operator's `point`th successful write
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

// `n` plans spread evenly over each kind (in plan_kind's order) (every kind gets n / kinds, the
// first kinds one more), the same ones for the same `plans`.
std::vector<plan> sample_plans(const std::vector<plan>& plans, std::size_t n);

std::optional<plan> find_plan(const std::vector<plan>& plans, const std::string& name);

const char* kind_name(plan_kind k);

}  // namespace c5c3::testing::faults
