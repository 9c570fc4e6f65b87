#include "actors/c5c3/korc/probe.hpp"

#include "actors/c5c3/scaffold/ensure_child.hpp"

namespace c5c3::c5c3::korc {
namespace {

const k8s::object* by_name(const std::vector<k8s::object>& objs, const k8s::object& want) {
  for (auto& o : objs)
    if (o.kind() == want.kind() && o.name() == want.name()) return &o;
  return nullptr;
}

void drop(probe_gate_result& r, const order_ref& o, const k8s::object* probe) {
  if (probe && *probe && owns_order_child(*probe, o) && !probe->terminating()) r.writes.push_back(make_delete(*probe));
}

}  // namespace

probe_gate_result probe_gate(const probe_gate_input& in) {
  const order_ref& o = *in.order;
  probe_gate_result r;
  if (in.managed && *in.managed) {
    // Already ours: settled, whatever is in Keystone.
    r.proceed = true;
    r.verdict = probe_verdict::absent;
    if (in.drop_probe_on_owned) drop(r, o, in.probe);
    return r;
  }
  const k8s::object* live = in.probe ? in.probe : by_name(in.read_by_name, in.desired_probe);
  auto ensured = ensure_order_child(o, in.desired_probe, live);
  if (ensured.refused()) {
    r.refusal = ensured.refusal;
    return r;
  }
  if (ensured.write) {
    r.writes.push_back(*ensured.write);
    return r;  // pending: its answer is read on the next plan
  }
  r.probe = live;
  r.verdict = interpret_probe(*live);
  if (r.verdict == probe_verdict::absent) {
    r.proceed = true;
    drop(r, o, live);
  }
  return r;
}

}  // namespace c5c3::c5c3::korc
