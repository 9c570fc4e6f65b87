// A whole kind on the order runner, as a new kind is written: its constants,
// its sense declaration and its pure plan; nothing else (the runner does
// every request). A Widget (test.c5c3.io/v1, namespaced, no ControlPlane)
// owns one ConfigMap `<name>-map` holding spec.size, labelled with the three
// ownership labels; status.conditions[Ready] says Mapped, or Refused when a
// ConfigMap of that name is somebody else's. Deleting it deletes the map,
// then releases the finalizer. Test knobs: spec.failOpen (the teardown passes
// over failed deletes), spec.unsettled (every plan writes data.tick = the
// pass's clock, so the plan never settles), spec.timerSeconds (a timer),
// spec.callUrl (the plan asks the "echo" service for that URL and keeps the
// answer in data.answer), spec.failWith (the pass fails with that text after
// its writes), spec.selfLabel (the plan patches the Widget's own label
// test.c5c3.io/self to it, and plans on from the answer), spec.countSecrets
// (data.secrets = the Secrets of the namespace, read from the API server: an
// uncached slot).
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "k8s/time.hpp"

#include <memory>

namespace c5c3::testing::widget {

namespace rt = ::c5c3::runtime;

// The constants.
inline const k8s::gvk gvk{"test.c5c3.io", "v1", "Widget"};
inline const k8s::gvk configmap{"", "v1", "ConfigMap"};
inline const rt::ownership_keys keys{"test.c5c3.io/widget-name", "test.c5c3.io/widget-namespace",
                                     "test.c5c3.io/widget-cluster"};
inline const std::string finalizer = "test.c5c3.io/widget-teardown";

inline std::string map_name(const rt::sense_snapshot& s) { return s.key.name + "-map"; }

inline k8s::object desired_map(const rt::sense_snapshot& s) {
  k8s::object_builder b("v1", "ConfigMap", s.key.namespace_, map_name(s));
  b.set_label(keys.name, s.key.name).set_label(keys.namespace_, s.key.namespace_).set_label(keys.cluster, s.key.cluster);
  b.set_string({"data", "size"}, s.order.get_string({"spec", "size"}));
  if (const auto* a = s.answer("echo"))
    b.set_string({"data", "answer"}, a->answered() ? std::to_string(a->status) + " " + a->body : "error: " + a->error);
  if (const auto* c = s.order.get({"spec", "countSecrets"}); c && c->IsTrue())
    b.set_string({"data", "secrets"}, std::to_string(s.list("secrets").size()));
  if (const auto* u = s.order.get({"spec", "unsettled"}); u && u->IsTrue())
    b.set_string({"data", "tick"}, std::to_string(s.now.time_since_epoch().count()));
  return std::move(b).freeze();
}

inline bool spec_true(const k8s::object& o, std::string_view field) {
  const auto* v = o.get({"spec", field});
  return v && v->IsTrue();
}

// The pure plan.
inline rt::order_plan plan(const rt::sense_snapshot& s) {
  rt::order_plan p;
  const auto& maps = s.list("maps");
  if (s.order.terminating()) {
    for (const auto& m : maps) p.writes.push_back(rt::make_delete(m));
    p.replan_after_writes = false;
    p.fail_open = spec_true(s.order, "failOpen");
    p.finalizer = rt::finalizer_op::release;
    p.stage = "teardown";
    return p;
  }
  if (!s.order.has_finalizer(finalizer)) {
    p.finalizer = rt::finalizer_op::add;
    return p;
  }
  // A service outside Kubernetes: asked once a pass, its answer planned on.
  if (auto url = s.order.get_string({"spec", "callUrl"}); !url.empty() && !s.answer("echo")) {
    rt::service_call c;
    c.id = "echo";
    c.service = "echo";
    c.request.method = "POST";
    c.request.url = std::string(url);
    c.request.body = R"({"widget":")" + s.key.name + R"("})";
    c.request.authorization = "Bearer widget-token";
    p.calls.push_back(std::move(c));
    return p;
  }
  // A write to the order itself: the runner plans on from its answer.
  if (auto self = s.order.get_string({"spec", "selfLabel"});
      !self.empty() && s.order.label("test.c5c3.io/self").value_or("") != self) {
    k8s::object_builder patch{"test.c5c3.io/v1", "Widget", s.key.namespace_, s.key.name};
    patch.set_label("test.c5c3.io/self", self);
    p.writes.push_back(rt::make_merge_patch(std::move(patch).freeze()));
    return p;
  }
  k8s::condition ready{"Ready", "True", "Mapped", "ConfigMap " + map_name(s) + " holds the size", "", s.order.generation()};
  auto want = desired_map(s);
  const k8s::object* live = maps.empty() ? nullptr : &maps.front();
  bool foreign = false;
  for (const auto& o : s.read_by_name) foreign = foreign || (o.kind() == "ConfigMap" && o.name() == map_name(s));
  if (foreign) {
    ready = {"Ready", "False", "Refused", "ConfigMap " + s.key.namespace_ + "/" + map_name(s) +
             " exists and is not owned by this Widget", "", s.order.generation()};
  } else if (!live) {
    p.writes.push_back(rt::make_create(want));
  } else if (live->get_string({"data", "size"}) != want.get_string({"data", "size"}) ||
             live->get_string({"data", "tick"}) != want.get_string({"data", "tick"}) ||
             live->get_string({"data", "answer"}) != want.get_string({"data", "answer"}) ||
             live->get_string({"data", "secrets"}) != want.get_string({"data", "secrets"})) {
    p.writes.push_back(rt::make_apply(want, rt::write_cluster::management, true));
  }
  auto conds = s.order.conditions();
  k8s::set_condition(conds, ready, s.now);
  if (conds != s.order.conditions()) {
    auto b = s.order.edit();
    k8s::write_conditions(b, conds);
    p.status = std::move(b).freeze();
  }
  if (const auto* t = s.order.get({"spec", "timerSeconds"}); t && t->IsInt())
    p.timers["tick"] = s.now + std::chrono::seconds(t->GetInt());
  p.instrument = {ready};
  p.stage = "legs";
  p.error = std::string(s.order.get_string({"spec", "failWith"}));
  return p;
}

// The sense declaration and the constants, as the runner takes them.
inline std::shared_ptr<const rt::kind_declaration> declaration() {
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "widget";
  k->gvk = gvk;
  k->keys = keys;
  k->finalizer = finalizer;
  k->admission = false;
  k->reads = {rt::children("maps", configmap, keys, false)};
  k->reads.front().ns = rt::namespace_role::order;
  auto secrets = rt::listed("secrets", {"", "v1", "Secret"}, "", rt::namespace_role::order);
  secrets.uncached = true;
  k->reads.push_back(secrets);
  k->plan = plan;
  k->instrumenter = {{"WidgetProvision", "Ready"}};
  return k;
}


}  // namespace c5c3::testing::widget
