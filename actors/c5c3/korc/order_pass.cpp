#include "actors/c5c3/korc/order_pass.hpp"

#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"

namespace c5c3::c5c3::korc {

order_identity identity_of(const k8s::object& order, std::string_view cluster, std::string_view segment,
                           const order_label_keys& keys) {
  order_identity id;
  id.ref = {std::string(order.name()), std::string(order.namespace_()), std::string(cluster), std::string(segment),
            keys};
  id.owner.uid = std::string(order.uid());
  id.generation = order.generation();
  id.control_plane_key = order_control_plane_key(order.get_string({"spec", "controlPlaneRef", "namespace"}),
                                                 order.get_string({"spec", "controlPlaneRef", "name"}),
                                                 order.namespace_());
  return id;
}

std::optional<gate_stop> order_gates(const order_identity& id, const k8s::object& order,
                                     const k8s::object* cp, std::string_view finalizer,
                                     const consent_check& consent) {
  admission_input in{&id.ref, id.control_plane_key, cp != nullptr,
                     cp ? namespace_assignments_of(*cp) : std::vector<namespace_assignment>{}};
  auto admitted = order_admission(in);
  if (!admitted.admitted())
    return gate_stop{pass_stage::refused_admission, admitted.gate.reason, admitted.gate.message,
                     admitted.gate.requeue};
  if (consent && admitted.entry)
    if (auto refused = consent(*admitted.entry)) return refused;
  if (!order.has_finalizer(finalizer)) return gate_stop{pass_stage::add_finalizer, {}, {}, std::nullopt};
  if (auto g = order_admin_credential_gate(*cp); !g.passed)
    return gate_stop{pass_stage::refused_gate, g.reason, g.message, g.requeue};
  return std::nullopt;
}

std::vector<k8s::condition> merged_conditions(const k8s::object& order, const std::vector<k8s::condition>& set,
                                              std::span<const std::string_view> sub_types,
                                              std::int64_t generation, k8s::time_point now) {
  std::vector<k8s::condition> conds = order.conditions();
  for (auto& c : set) k8s::set_condition(conds, c, now);
  k8s::set_condition(conds, aggregate_ready(conds, sub_types, generation), now);
  return conds;
}

std::vector<k8s::condition> gate_conditions(std::span<const std::string_view> sub_types, std::string_view reason,
                                            std::string_view message, std::int64_t generation) {
  std::vector<k8s::condition> out;
  for (auto type : sub_types) out.push_back(make_condition(type, false, reason, message, generation));
  return out;
}

runtime::order_plan runner_plan(const order_pass_plan& p) {
  runtime::order_plan out;
  out.writes = p.writes;
  const bool teardown = p.stage == pass_stage::teardown;
  out.replan_after_writes = !teardown;
  out.fail_open = teardown && p.release_finalizer;
  if (p.add_finalizer) out.finalizer = runtime::finalizer_op::add;
  if (p.release_finalizer) out.finalizer = runtime::finalizer_op::release;
  out.status = p.status;
  out.requeue = p.requeue;
  out.instrument = p.instrument;
  out.timers = p.timers;
  out.waiting_slot = p.waiting_slot;
  out.waiting_name = p.waiting_name;
  switch (p.stage) {
    case pass_stage::refused_admission: out.stage = "admission"; break;
    case pass_stage::add_finalizer: out.stage = "finalizer"; break;
    case pass_stage::refused_gate: out.stage = "admin credential"; break;
    case pass_stage::refused_reference: out.stage = "references"; break;
    case pass_stage::legs: out.stage = "legs"; break;
    case pass_stage::hold: out.stage = "hold"; break;
    case pass_stage::teardown: out.stage = "teardown"; break;
  }
  return out;
}

k8s::time_point pass_clock(k8s::time_point now) { return std::chrono::floor<std::chrono::seconds>(now); }

}  // namespace c5c3::c5c3::korc
