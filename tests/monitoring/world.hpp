// A pure stand-in for the runner and the API server, for the monitoring
// plans' table tests: a list of objects, a declaration's slots read from it
// in dependency order (as runner/sense.cpp reads the caches), and the plan
// made again and again with its writes applied to the list (creates, merge
// patches, applies, deletes; the answers folded as runner/act.cpp folds them,
// a write to the order itself becoming the snapshot's order), its calls
// answered by `services`, the finalizer added or released, until a plan asks
// for nothing. Every write and call is logged as "create Secret ns/name",
// "call backend POST https://.../register".
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/fold.hpp"
#include "k8s/patch.hpp"
#include "k8s/selector.hpp"
#include "tests/monitoring/snapshot.hpp"

#include <functional>
#include <optional>
#include <set>

namespace c5c3::testing::mon {

struct world {
  std::vector<k8s::object> objects;
  // The services' answers (the detectors included); unset: a transport error.
  std::function<std::optional<rt::service_answer>(const rt::service_call&)> services;
  // A write that fails: its error text (nullopt: it succeeds).
  std::function<std::optional<std::string>(const rt::child_write&)> fails;
  std::vector<std::string> log;
  std::uint64_t next_rv = 100;
  // Runs once converge() has read the slots: another pass's writes its
  // snapshot does not show (a create of such an object meets AlreadyExists).
  std::function<void(world&)> after_sense;

  const k8s::object* find(std::string_view kind, std::string_view ns, std::string_view name) const {
    for (const auto& o : objects)
      if (o.kind() == kind && o.namespace_() == ns && o.name() == name) return &o;
    return nullptr;
  }

  // Stores `o` (replacing the object of that kind and key), with a uid and a resourceVersion.
  const k8s::object& put(k8s::object o) {
    auto b = o.edit();
    if (o.uid().empty()) b.set_string({"metadata", "uid"}, std::string(o.name()) + "-uid");
    b.set_resource_version(std::to_string(++next_rv));
    auto stored = std::move(b).freeze();
    for (auto& x : objects)
      if (x.kind() == stored.kind() && x.namespace_() == stored.namespace_() && x.name() == stored.name())
        return x = stored;
    objects.push_back(stored);
    return objects.back();
  }

  void remove(std::string_view kind, std::string_view ns, std::string_view name) {
    std::erase_if(objects, [&](const k8s::object& o) { return o.kind() == kind && o.namespace_() == ns && o.name() == name; });
  }

  rt::sense_snapshot sense(const rt::kind_declaration& k, const k8s::object& order) const {
    rt::sense_snapshot s;
    s.order = order;
    s.key = {"", std::string(order.namespace_()), std::string(order.name())};
    s.sensed = true;
    s.home_namespace = s.key.namespace_;
    s.now = k8s::clock::now();
    std::set<std::string> done;
    while (done.size() < k.reads.size()) {
      std::vector<const rt::read_slot*> wave;
      for (const auto& r : k.reads)
        if (!done.contains(r.id) &&
            std::all_of(r.after.begin(), r.after.end(), [&](const std::string& a) { return done.contains(a); }))
          wave.push_back(&r);
      BOOST_TEST_REQUIRE(!wave.empty(), "the slots' `after` form a cycle");
      for (const auto* r : wave) read(*r, s);
      for (const auto* r : wave) done.insert(r->id);
    }
    return s;
  }

  void read(const rt::read_slot& r, rt::sense_snapshot& s) const {
    auto& out = s.slots[r.id];
    out = rt::slot_result{};
    const std::string role_ns = r.ns == rt::namespace_role::all ? std::string() : s.key.namespace_;
    auto same_kind = [&](const k8s::object& o) { return o.kind() == r.gvk.kind && o.gvk().group == r.gvk.group; };
    if (r.mode == rt::read_mode::named) {
      auto loc = r.locate ? r.locate(s) : std::nullopt;
      if (!loc || loc->name.empty()) return;
      out.read = true;
      out.namespace_ = loc->namespace_.value_or(role_ns);
      out.name = loc->name;
      for (const auto& o : objects)
        if (same_kind(o) && o.namespace_() == out.namespace_ && o.name() == out.name) out.items = {o};
      return;
    }
    if (r.mode == rt::read_mode::listed) {
      auto loc = r.locate ? r.locate(s) : std::optional<rt::locator>(rt::locator{});
      if (!loc) return;
      out.read = true;
      out.namespace_ = loc->namespace_.value_or(role_ns);
      auto sel = k8s::label_selector::parse(r.selector);
      for (const auto& o : objects)
        if (same_kind(o) && (out.namespace_.empty() || o.namespace_() == out.namespace_) && sel && sel->matches(o))
          out.items.push_back(o);
    }
  }

  std::string call_line(const rt::service_call& c) {
    return "call " + c.service + " " + c.request.method + " " + c.request.url;
  }

  // The object a write leaves (empty: gone), or an error.
  std::optional<k8s::object> apply(const rt::child_write& w, rt::sense_snapshot& s, std::string& error) {
    const auto* live = find(w.kind(), w.body.namespace_(), w.name());
    switch (w.verb) {
      case rt::write_verb::create:
        if (live) {
          s.read_by_name.push_back(*live);
          return std::nullopt;  // AlreadyExists: read by name, plan again
        }
        return put(w.body);
      case rt::write_verb::merge_patch: {
        if (!live) {
          error = "not found";
          return std::nullopt;
        }
        auto doc = k8s::merge_patched(live->json(), w.body.json());
        return put(k8s::object(std::move(doc)));
      }
      case rt::write_verb::apply: {
        if (!live) return put(w.body);
        auto doc = k8s::merge_patched(live->json(), w.body.json());
        return put(k8s::object(std::move(doc)));
      }
      case rt::write_verb::update:
        return put(w.body);
      case rt::write_verb::delete_:
        remove(w.kind(), w.body.namespace_(), w.name());
        return k8s::object{};
    }
    return std::nullopt;
  }

  // Plans until a plan asks for nothing (or `max` rounds); the last plan.
  rt::order_plan converge(const rt::kind_declaration& k, std::string_view ns, std::string_view name, int max = 40) {
    auto s = sense(k, *find(k.gvk.kind, ns, name));
    if (after_sense) after_sense(*this);
    for (int round = 0; round < max; ++round) {
      auto p = k.plan(s);
      if (p.writes.empty() && p.calls.empty()) {
        if (p.finalizer == rt::finalizer_op::add && !s.order.has_finalizer(k.finalizer)) {
          auto b = s.order.edit();
          b.add_finalizer(k.finalizer);
          s.order = put(std::move(b).freeze());
          log.push_back("finalizer add");
          continue;
        }
        if (p.finalizer == rt::finalizer_op::release && s.order.has_finalizer(k.finalizer)) {
          auto b = s.order.edit();
          b.remove_finalizer(k.finalizer);
          s.order = put(std::move(b).freeze());
          log.push_back("finalizer release");
        }
        if (p.status) s.order = put(*p.status);
        return p;
      }
      bool replanned = false;
      for (const auto& w : p.writes) {
        log.push_back(w.describe());
        if (auto e = fails ? fails(w) : std::nullopt) {
          BOOST_TEST_REQUIRE(w.report_failure, "an unreported write failed: " + w.describe());
          s.write_failures.push_back({w.cluster, std::string(w.kind()), std::string(w.body.namespace_()),
                                      std::string(w.name()), w.subresource, std::nullopt, *e});
          replanned = true;
          break;
        }
        std::string error;
        auto answer = apply(w, s, error);
        BOOST_TEST_REQUIRE(error.empty(), w.describe() + ": " + error);
        if (!answer) {
          replanned = true;
          break;
        }
        rt::fold_answer(s, k.reads, k.keys, w, *answer);
        if (*answer && answer->kind() == s.order.kind() && answer->name() == s.order.name() &&
            answer->namespace_() == s.order.namespace_())
          s.order = *answer;
      }
      if (!replanned)
        for (const auto& c : p.calls) {
          log.push_back(call_line(c));
          auto a = services ? services(c) : std::nullopt;
          s.answers[c.id] = a ? *a : rt::service_answer{0, {}, "no service " + c.service};
        }
      if (!replanned && !p.replan_after_writes && p.calls.empty()) return p;
    }
    BOOST_FAIL("the plan did not settle within " << max << " rounds");
    return {};
  }
};

// The world's log without the detectors' calls (what a row asserts on).
inline std::vector<std::string> writes_of(const world& w) {
  std::vector<std::string> out;
  for (const auto& l : w.log)
    if (l.find("detector") == std::string::npos) out.push_back(l);
  return out;
}

// Lines, one a line (a failed row's message).
inline std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace c5c3::testing::mon
