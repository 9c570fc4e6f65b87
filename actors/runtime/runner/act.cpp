// The runner's act step: the plan, its writes in order with every answer
// interpreted here, the live reads before writes, the finalizer, the status,
// and the pass result.
#include "actors/runtime/runner/fold.hpp"
#include "actors/runtime/runner/run_state.hpp"
#include "protocol/api_error.hpp"
#include "actors/runtime/event_recorder.hpp"
#include "actors/runtime/shard/lease_state.hpp"
#include "protocol/cluster_io.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace c5c3::runtime::detail {

namespace proto = ::c5c3::protocol;

// The options of a write of this pass: the field manager and the write's
// deadline (runner.hpp write_deadline, capped by the ring's write fence).
proto::write_options write_opts(const run_ptr& r) {
  std::optional<std::chrono::nanoseconds> left;
  if (r->deps->fence) {
    auto until = r->deps->fence->held_until();
    left = until == k8s::time_point::min()
               ? std::chrono::nanoseconds(0)
               : std::chrono::duration_cast<std::chrono::nanoseconds>(until - r->ctx.wall_now());
  }
  return {r->deps->field_manager, false,
          proto::deadline_at(write_deadline(std::chrono::steady_clock::now(), r->timeout(), left))};
}

namespace {

// The resourceVersion of `w`'s object as the pass sees it ("" when absent).
std::string seen_version(const run_ptr& r, const child_write& w) {
  if (w.verb == write_verb::delete_ || w.verb == write_verb::update) return std::string(w.body.resource_version());
  // The order itself (a label or data patch): the version the plan saw. As
  // "" the memo took the write for a create, which no cached version of the
  // order chains from.
  const auto& o = r->snap.order;
  const auto& k = r->snap.key;
  if (o && r->cluster_name(w.cluster) == k.cluster && w.kind() == r->kind->gvk.kind &&
      w.body.gvk().group == r->kind->gvk.group && w.name() == k.name && w.body.namespace_() == k.namespace_)
    return std::string(o.resource_version());
  for (const auto& slot : r->kind->reads) {
    auto it = r->snap.slots.find(slot.id);
    if (it == r->snap.slots.end() || slot.cluster != w.cluster) continue;
    for (const auto& o : it->second.items)
      if (o.name() == w.name() && o.namespace_() == w.body.namespace_() && slot.gvk.kind == w.kind())
        return std::string(o.resource_version());
  }
  return {};
}

// Sharded: a write of one of the order's children (not its status, not a
// delete) carries this replica's stamp, which the replicas' scoped children
// watches select on (shard/scope.hpp).
child_write stamped(const run_ptr& r, const child_write& w) {
  const auto& me = r->deps->shard_name;
  if (me.empty() || w.verb == write_verb::delete_ || !w.subresource.empty()) return w;
  if (!labelled_for(w.body, r->kind->keys, r->snap.key) || w.body.label(shard::claim_label).value_or("") == me)
    return w;
  child_write out = w;
  auto b = w.body.edit();
  b.set_label(shard::claim_label, me);
  out.body = std::move(b).freeze();
  return out;
}

void issue(const run_ptr& r, const child_write& original, answer_fn ok, error_fn err) {
  const auto w = stamped(r, original);
  const auto& cluster = r->cluster_of(w.cluster);
  auto opts = write_opts(r);
  switch (w.verb) {
    case write_verb::create:
      return send_write(r, cluster, proto::create_request{w.body, opts}, std::move(ok), std::move(err));
    case write_verb::apply:
      return send_write(r, cluster, proto::apply_request{w.body, w.subresource, w.force, opts}, std::move(ok),
                        std::move(err));
    case write_verb::update:
      return send_write(r, cluster, proto::update_request{w.body, w.subresource, opts}, std::move(ok),
                        std::move(err));
    case write_verb::merge_patch:
      return send_write(r, cluster,
                        proto::patch_request{proto::ref_of(w.body), proto::patch_type::merge, w.body.to_json(),
                                             w.subresource, opts},
                        std::move(ok), std::move(err));
    case write_verb::delete_: {
      proto::delete_request d{proto::ref_of(w.body), std::string(w.body.uid()), "", proto::propagation::background,
                              opts.deadline};
      return send_write(r, cluster, std::move(d), ok, [ok, err](const caf::error& e) {
        if (proto::is_not_found(e)) return ok(k8s::object{});  // already gone: success
        err(e);
      });
    }
  }
}

void settle(const run_ptr& r, std::shared_ptr<const order_plan> plan);

// Issues plan.writes[i..] in order, then `done`.
void issue_from(const run_ptr& r, std::shared_ptr<const order_plan> plan, std::size_t i, std::function<void()> done) {
  if (!r->ctx.open()) return;
  if (i == plan->writes.size()) return done();
  const auto& w = plan->writes[i];
  auto before = seen_version(r, w);
  issue(
      r, w,
      [r, plan, i, done, before](const k8s::object& answer) {
        const auto& w = plan->writes[i];
        auto key = memo_key_of(r->cluster_name(w.cluster), w.body);
        if (w.verb == write_verb::delete_)
          r->memo->deleted(key, before, std::string(w.body.uid()), answer, r->ctx.now());
        else
          r->memo->wrote(key, before, answer, r->ctx.now());
        r->answers[key] = answer;
        fold_answer(r->snap, r->kind->reads, r->kind->keys, w, answer);
        // A write to the order itself (a label or spec patch): the plan goes
        // on from what it answered.
        if (answer && key == memo_key_of(r->snap.key.cluster, r->snap.order)) r->snap.order = answer;
        issue_from(r, plan, i + 1, done);
      },
      [r, plan, i, done](const caf::error& e) {
        const auto& w = plan->writes[i];
        if (w.verb == write_verb::create && proto::api_errc_of(e) == proto::api_errc::already_exists) {
          // Somebody else's object: read it by name and plan again; the plan refuses it.
          // Or a child the cache does not show (stamped by a holder whose
          // children this replica does not watch): the next pass reads the
          // children from the API server and restamps them.
          if (r->restamp) *r->restamp = restamp_read::from_server;
          r->self()
              ->request(r->cluster_of(w.cluster), r->timeout(),
                        proto::get_request{proto::ref_of(w.body), proto::read_from::server})
              .then(
                  [r](k8s::object& o) {
                    if (!r->ctx.open()) return;
                    r->snap.read_by_name.push_back(std::move(o));
                    plan_and_act(r);
                  },
                  [r](const caf::error& e2) {
                    if (r->ctx.open()) fail(r, e2);
                  });
          return;
        }
        if (w.report_failure) {
          // The plan reports it (and asks for it no more): recorded, logged
          // (a plan that goes on without it, as upstream ignores the error,
          // must not hide a refusal), the rest of this plan dropped, planned
          // again.
          r->log().warn("Write failed; the plan goes on without it",
                        {{"write", w.describe()}, {"error", proto::describe(e)}});
          r->snap.write_failures.push_back({w.cluster, std::string(w.kind()), std::string(w.body.namespace_()),
                                            std::string(w.name()), w.subresource, proto::api_errc_of(e),
                                            proto::describe(e)});
          return plan_and_act(r);
        }
        if (plan->fail_open) {
          // The teardown with the ControlPlane gone: logged, passed over.
          r->log().warn("teardown write failed; the ControlPlane is gone, so the finalizer is released anyway",
                        {{"write", w.describe()}, {"error", proto::describe(e)}});
          return issue_from(r, plan, i + 1, done);
        }
        fail(r, e);
      });
}

// Issues plan.calls[i..] in order, each answer into the snapshot, then `done`.
void call_from(const run_ptr& r, std::shared_ptr<const order_plan> plan, std::size_t i, std::function<void()> done) {
  if (!r->ctx.open()) return;
  if (i == plan->calls.size()) return done();
  const auto& c = plan->calls[i];
  auto next = [r, plan, i, done] { call_from(r, plan, i + 1, done); };
  auto it = r->deps->services.find(c.service);
  if (it == r->deps->services.end()) {
    r->snap.answers[c.id] = service_answer{0, {}, "no service named \"" + c.service + "\""};
    return next();
  }
  const auto timeout = std::chrono::duration_cast<caf::timespan>(c.request.timeout) + std::chrono::seconds(5);
  r->self()
      ->request(it->second, timeout, c.request)
      .then(
          [r, plan, i, next](protocol::service_response& res) {
            if (!r->ctx.open()) return;
            r->snap.answers[plan->calls[i].id] = service_answer{res.status, std::move(res.body), {}};
            next();
          },
          [r, plan, i, next](const caf::error& e) {
            if (!r->ctx.open()) return;
            r->snap.answers[plan->calls[i].id] = service_answer{0, {}, proto::describe(e)};
            next();
          });
}

// A write of the plan that targets a named slot read live before writing,
// not read live yet this pass.
const read_slot* needs_live_read(const run_ptr& r, const order_plan& plan) {
  for (const auto& w : plan.writes) {
    for (const auto& slot : r->kind->reads) {
      if (!slot.live_before_write || slot.mode != read_mode::named || slot.cluster != w.cluster) continue;
      if (r->read_live.contains(slot.id) || slot.gvk.kind != w.kind()) continue;
      const auto* res = r->snap.slot(slot.id);
      if (res && res->read && res->name == w.name() && res->namespace_ == w.body.namespace_()) return &slot;
    }
  }
  return nullptr;
}

void read_live(const run_ptr& r, const read_slot& slot) {
  r->read_live.insert(slot.id);
  auto& res = r->snap.slots[slot.id];
  r->self()
      ->request(r->cluster_of(slot.cluster), r->timeout(),
                proto::get_request{{slot.gvk, res.namespace_, res.name}, proto::read_from::server})
      .then(
          [r, &res](k8s::object& o) {
            if (!r->ctx.open()) return;
            res.items = {std::move(o)};
            res.live = true;
            plan_and_act(r);
          },
          [r, &res](const caf::error& e) {
            if (!r->ctx.open()) return;
            if (!proto::is_not_found(e)) return fail(r, e);
            res.items.clear();
            res.live = true;
            plan_and_act(r);
          });
}

// The JSON patch that sets metadata.finalizers, guarded by the order's resourceVersion.
std::string finalizer_patch(const k8s::object& order, const std::vector<std::string>& finalizers) {
  std::string list = "[";
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    if (i) list += ",";
    list += "\"" + finalizers[i] + "\"";
  }
  list += "]";
  return R"([{"op":"test","path":"/metadata/resourceVersion","value":")" + std::string(order.resource_version()) +
         R"("},{"op":"add","path":"/metadata/finalizers","value":)" + list + "}]";
}

// Writes the order (its finalizers, its status) through the order's cluster;
// the answer is remembered and becomes the snapshot's order.
void wrote_order(const run_ptr& r, const k8s::object& answer) {
  r->memo->wrote(memo_key_of(r->snap.key.cluster, r->snap.order), std::string(r->snap.order.resource_version()),
                 answer, r->ctx.now());
  if (answer) r->snap.order = answer;
}

void patch_finalizers(const run_ptr& r, std::vector<std::string> finalizers, std::function<void()> then) {
  send_write(r, r->order_cluster,
             proto::patch_request{proto::ref_of(r->snap.order), proto::patch_type::json,
                                  finalizer_patch(r->snap.order, finalizers), "", write_opts(r)},
             [r, then](const k8s::object& o) {
               wrote_order(r, o);
               then();
             },
             [r](const caf::error& e) {
               // A failed test op is the JSON-patch form of a conflict.
               auto code = proto::api_errc_of(e);
               if (code == proto::api_errc::invalid || code == proto::api_errc::conflict)
                 return finish(r, pass_result::requeue());
               fail(r, e);
             });
}

std::string condition_text(const k8s::condition& c) {
  return c.type + "=" + c.status + " " + c.reason + (c.message.empty() ? "" : ": " + c.message);
}

// What the pass leaves for explain: the stage, the order's Ready condition,
// the child it waits for and that child's own condition.
protocol::pass_report report_of(const run_ptr& r, const order_plan& plan) {
  protocol::pass_report rep;
  rep.stage = plan.stage;
  const auto& order = plan.status ? *plan.status : r->snap.order;
  if (auto c = order.find_condition("Ready")) rep.ready = c->status + " " + c->reason + ": " + c->message;
  for (const auto& c : order.conditions())
    if (c.type != "Ready" && !c.is_true()) {
      rep.blocked_by = condition_text(c);
      break;
    }
  if (plan.waiting_slot.empty()) return rep;
  const auto* slot = r->snap.slot(plan.waiting_slot);
  const auto decl = std::find_if(r->kind->reads.begin(), r->kind->reads.end(),
                                 [&](const read_slot& s) { return s.id == plan.waiting_slot; });
  if (!slot || decl == r->kind->reads.end()) return rep;
  const k8s::object* child = nullptr;
  for (const auto& o : slot->items)
    if (plan.waiting_name.empty() || o.name() == plan.waiting_name) {
      child = &o;
      break;
    }
  const std::string name = child ? std::string(child->name()) : plan.waiting_name;
  rep.waiting_for = decl->gvk.kind + " " + (slot->namespace_.empty() ? name : slot->namespace_ + "/" + name);
  if (!child) {
    rep.waiting_condition = "not there yet";
  } else if (auto c = child->find_condition("Ready")) {
    rep.waiting_condition = condition_text(*c);
  } else if (auto all = child->conditions(); !all.empty()) {
    rep.waiting_condition = condition_text(all.front());
  } else {
    rep.waiting_condition = "no condition yet";
  }
  return rep;
}

pass_result result_of(const run_ptr& r, const order_plan& plan) {
  if (!plan.error.empty()) {
    auto res = pass_result::failed(r->who() + ": " + plan.error);
    res.report = report_of(r, plan);
    res.report.result = "error";
    return res;
  }
  auto requeue = plan.requeue;
  // A pass that saw its own writes through the memo comes back once the
  // caches must have caught up.
  if (r->memo->used() || r->order_ahead) {
    auto h = r->memo->horizon();
    requeue = requeue ? std::min(*requeue, h) : h;
  }
  pass_result res = requeue ? pass_result::requeue_after(std::chrono::duration_cast<caf::timespan>(*requeue))
                            : pass_result::converged();
  const auto now = r->ctx.wall_now();
  for (const auto& [name, at] : plan.timers) {
    // Status times are whole seconds: a second after the time, at least a second from now.
    auto d = std::chrono::duration_cast<caf::timespan>(at - now) + std::chrono::seconds(1);
    res.arm(name, std::max<caf::timespan>(d, std::chrono::seconds(1)));
  }
  res.report = report_of(r, plan);
  res.report.result = requeue ? "requeue after " + k8s::format_go_duration(*requeue) : "converged";
  return res;
}

// The plan asked for no write (or its writes end the pass): finalizer,
// status, result.
void settle(const run_ptr& r, std::shared_ptr<const order_plan> plan) {
  if (!r->ctx.open()) return;
  const auto& fin = r->kind->finalizer;
  if (r->deps->events && plan->finalizer != finalizer_op::add)
    for (const auto& e : plan->events) caf::anon_send(r->deps->events, recorded_event{r->snap.order, e, r->order_cluster});
  if (plan->finalizer == finalizer_op::add && !r->snap.order.has_finalizer(fin)) {
    auto f = r->snap.order.finalizers();
    f.push_back(fin);
    return patch_finalizers(r, std::move(f), [r] { plan_and_act(r); });
  }
  if (plan->finalizer == finalizer_op::release && r->snap.order.has_finalizer(fin)) {
    auto f = r->snap.order.finalizers();
    std::erase(f, fin);
    return patch_finalizers(r, std::move(f), [r, plan] { finish(r, result_of(r, *plan)); });
  }
  if (!plan->instrument.empty() && r->deps->instrumenter) r->deps->instrumenter->record(plan->instrument);
  if (!plan->status) return finish(r, result_of(r, *plan));
  auto b = plan->status->edit();
  b.set_resource_version(r->snap.order.resource_version());
  send_write(
      r, r->order_cluster, proto::update_status(std::move(b).freeze(), write_opts(r)),
      [r, plan](const k8s::object& o) {
        wrote_order(r, o);
        finish(r, result_of(r, *plan));
      },
      [r](const caf::error& e) { fail(r, e); });
}

// A plan still writing after max_rounds: the object and the field it keeps
// writing.
std::string not_settling(const run_ptr& r, const order_plan& plan) {
  if (plan.writes.empty())
    return r->who() + ": the plan did not settle within " + std::to_string(r->kind->max_rounds) +
           " rounds; it still calls " + plan.calls.front().service + " (" + plan.calls.front().request.method + ")";
  const auto& w = plan.writes.front();
  auto msg = r->who() + ": the plan did not settle within " + std::to_string(r->kind->max_rounds) +
             " rounds; it still asks to " + w.describe();
  auto it = r->answers.find(memo_key_of(r->cluster_name(w.cluster), w.body));
  if (it != r->answers.end() && w.verb != write_verb::delete_) {
    auto field = first_unapplied_field(w.body, it->second);
    if (!field.empty()) msg += " (" + field + " is not what the API server stored)";
  }
  return msg;
}

}  // namespace

void plan_and_act(const run_ptr& r) {
  if (!r->ctx.open()) return;
  ++r->rounds;
  r->snap.now = r->ctx.wall_now();
  auto plan = std::make_shared<const order_plan>(r->kind->plan(r->snap));
  if (plan->writes.empty() && plan->calls.empty()) return settle(r, plan);
  if (r->rounds > r->kind->max_rounds) return finish(r, pass_result::failed(not_settling(r, *plan)));
  if (const auto* slot = needs_live_read(r, *plan)) return read_live(r, *slot);
  issue_from(r, plan, 0, [r, plan] {
    call_from(r, plan, 0, [r, plan] {
      if (plan->replan_after_writes || !plan->calls.empty()) return plan_and_act(r);
      settle(r, plan);
    });
  });
}

}  // namespace c5c3::runtime::detail
