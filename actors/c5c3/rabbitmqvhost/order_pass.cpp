#include "actors/c5c3/rabbitmqvhost/order_pass.hpp"

#include "actors/c5c3/controlplane/control_plane_actor.hpp"
#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"
#include "actors/c5c3/rabbitmqvhost/pass.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"

#include <caf/event_based_actor.hpp>

#include <algorithm>
#include <deque>
#include <functional>

namespace c5c3::c5c3::rabbitmqvhost {

namespace proto = ::c5c3::protocol;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", "RabbitMQVhost"}; }
k8s::gvk vhost_gvk() { return {"rabbitmq.com", "v1beta1", "Vhost"}; }
k8s::gvk user_gvk() { return {"rabbitmq.com", "v1beta1", "User"}; }
k8s::gvk permission_gvk() { return {"rabbitmq.com", "v1beta1", "Permission"}; }
k8s::gvk push_secret_gvk() { return {"external-secrets.io", "v1alpha1", "PushSecret"}; }
k8s::gvk secret_store_gvk(std::string_view kind) { return {"external-secrets.io", "v1", std::string(kind)}; }
k8s::gvk rabbitmq_cluster_gvk() { return {"rabbitmq.com", "v1beta1", "RabbitmqCluster"}; }
k8s::gvk secret_gvk() { return {"", "v1", "Secret"}; }
std::string child_selector() { return std::string(label_name); }
std::string order_selector(const order_ref& ref) {
  return std::string(label_name) + "=" + ref.name + "," + std::string(label_namespace) + "=" + ref.namespace_;
}
std::string rabbitmq_secret_selector() { return "app.kubernetes.io/part-of=rabbitmq"; }

store_ref control_plane_store_ref(const k8s::object& cp) {
  store_ref r;
  auto kind = cp.get_string({"spec", "secretStoreRef", "kind"});
  auto name = cp.get_string({"spec", "secretStoreRef", "name"});
  if (!name.empty()) {
    r.name = std::string(name);
    r.kind = kind == "ClusterSecretStore" ? "ClusterSecretStore" : "SecretStore";
  }
  return r;
}

bool secret_store_ready(const k8s::object& store) {
  auto c = store.find_condition("Ready");
  return c && c->is_true();
}

rotation_timers timers_from_status(const k8s::object& order, k8s::time_point now, caf::timespan min_delay) {
  rotation_timers t;
  auto st = read_status(order);
  auto delay = [&](k8s::time_point at) {
    auto d = std::chrono::duration_cast<caf::timespan>(at - now) + std::chrono::seconds(1);
    return d < min_delay ? min_delay : d;
  };
  if (st.next_rotation) t.rotation = delay(*st.next_rotation);
  if (st.previous_password_delete_at && st.previous_password_generation > 0)
    t.grace = delay(*st.previous_password_delete_at);
  return t;
}

namespace {

using runtime::pass_result;

// The order objects this actor's own writes made, keyed by the
// resourceVersion each write replaced: a pass that starts on a cache older
// than its last write continues from what that write answered instead of
// meeting a Conflict. resourceVersions are only compared for equality.
struct order_memo {
  static constexpr std::size_t capacity = 8;
  std::deque<std::pair<std::string, k8s::object>> newer;

  void wrote(const k8s::object& before, const k8s::object& after) {
    newer.emplace_back(std::string(before.resource_version()), after);
    if (newer.size() > capacity) newer.pop_front();
  }
  // The newest version the memo knows of `o`, the cached order. The cache
  // only moves forward, so the entries written before the version it holds
  // are spent and dropped (all of them once the cache has caught up): a
  // converged order keeps at most its last pass's answers.
  k8s::object latest(k8s::object o) {
    newer.erase(newer.begin(), std::find_if(newer.begin(), newer.end(), [&](const auto& e) {
                  return e.first == o.resource_version();
                }));
    for (std::size_t hops = 0; hops < capacity; ++hops) {
      auto it = std::find_if(newer.begin(), newer.end(),
                             [&](const auto& e) { return e.first == o.resource_version(); });
      if (it == newer.end()) break;
      o = it->second;
    }
    return o;
  }
};

// One pass in flight: what it has read, and the plan loop's state.
struct run_state {
  runtime::pass_context ctx;
  std::shared_ptr<const pass_deps> deps;
  std::shared_ptr<order_memo> memo;
  k8s::object order;
  caf::actor management;
  caf::actor order_cluster;
  k8s::object control_plane;  // empty: absent
  k8s::object rabbitmq_cluster;
  k8s::object default_user;
  secret_store_state store;
  topology_kinds_served served;
  std::vector<k8s::object> vhosts, users, permissions, secrets, push_secrets;
  k8s::object delivered;
  bool delivered_live = false;
  std::vector<k8s::object> read_by_name;
  std::string read_error;  // the first read that failed
  int rounds = 0;

  explicit run_state(runtime::pass_context c) : ctx(std::move(c)) {}
  caf::event_based_actor* self() const { return ctx.self(); }
  caf::timespan timeout() const { return deps->timeout; }
  vhost_order vo() const { return make_vhost_order(order, ctx.key().cluster); }
  std::string credentials_name() const { return std::string(order.name()) + std::string(credentials_secret_suffix); }
  const caf::actor& cluster_of(write_cluster c) const {
    return c == write_cluster::order ? order_cluster : management;
  }
};
using run_ptr = std::shared_ptr<run_state>;

// Continues once every request counted in `pending` has answered.
struct join {
  int pending = 1;  // the issuer's own hold, released by release()
  std::function<void()> then;
  void done() {
    if (--pending == 0) then();
  }
};
using join_ptr = std::shared_ptr<join>;

void finish(const run_ptr& r, pass_result res) { r->ctx.finish(std::move(res)); }

void fail(const run_ptr& r, const caf::error& e) {
  if (proto::is_conflict(e)) {
    finish(r, pass_result::requeue());
  } else {
    finish(r, pass_result::failed(proto::describe(e)));
  }
}

bool labelled_for(const k8s::object& o, const order_ref& ref) {
  auto n = o.label(label_name);
  auto ns = o.label(label_namespace);
  auto c = o.label(label_cluster);
  return n && *n == ref.name && ns && *ns == ref.namespace_ && c.value_or("") == ref.cluster;
}

void note_error(const run_ptr& r, const caf::error& e) {
  if (r->read_error.empty()) r->read_error = proto::describe(e);
}

// Lists `gvk` in `ns` on `cluster` from the cache by the order's selector and
// keeps the order's own; `served` turns false on no_match.
void list_children(const run_ptr& r, const join_ptr& j, const caf::actor& cluster, const k8s::gvk& gvk,
                   const std::string& ns, std::vector<k8s::object>* out, bool* served) {
  ++j->pending;
  auto ref = r->vo().ref;
  r->self()
      ->request(cluster, r->timeout(),
                proto::list_request{gvk, ns, order_selector(ref), "", proto::read_from::cache})
      .then(
          [r, j, out, ref](proto::object_list& l) {
            for (auto& o : l.items)
              if (labelled_for(o, ref)) out->push_back(std::move(o));
            j->done();
          },
          [r, j, served](const caf::error& e) {
            if (proto::is_no_match(e)) {
              if (served) *served = false;
            } else {
              note_error(r, e);
            }
            j->done();
          });
}

// A get from the cache; NotFound and no_match leave `out` empty.
void get_cached(const run_ptr& r, const join_ptr& j, const caf::actor& cluster, proto::resource_ref ref,
                k8s::object* out, std::function<void()> after = {}) {
  ++j->pending;
  r->self()
      ->request(cluster, r->timeout(), proto::get_request{std::move(ref), proto::read_from::cache})
      .then(
          [j, out, after](k8s::object& o) {
            *out = std::move(o);
            if (after) after();
            j->done();
          },
          [r, j](const caf::error& e) {
            if (!proto::is_not_found(e) && !proto::is_no_match(e)) note_error(r, e);
            j->done();
          });
}

void plan_and_act(const run_ptr& r);

// The reads past admission (or of a deleting order), all from the caches.
void sense_children(const run_ptr& r) {
  auto j = std::make_shared<join>();
  j->then = [r] {
    if (!r->read_error.empty()) return finish(r, pass_result::failed(r->read_error));
    plan_and_act(r);
  };
  const auto vo = r->vo();
  const std::string ns = r->control_plane ? std::string(r->control_plane.namespace_()) : vo.control_plane_key.namespace_;
  list_children(r, j, r->management, vhost_gvk(), ns, &r->vhosts, &r->served.vhost);
  list_children(r, j, r->management, user_gvk(), ns, &r->users, &r->served.user);
  list_children(r, j, r->management, permission_gvk(), ns, &r->permissions, &r->served.permission);
  list_children(r, j, r->management, push_secret_gvk(), ns, &r->push_secrets, nullptr);
  list_children(r, j, r->management, secret_gvk(), ns, &r->secrets, nullptr);
  // The delivered Secret beside the order carries the name and namespace
  // labels (no cluster label): listed by the child selector, found by name.
  ++j->pending;
  r->self()
      ->request(r->order_cluster, r->timeout(),
                proto::list_request{secret_gvk(), std::string(r->order.namespace_()), order_selector(r->vo().ref),
                                    "", proto::read_from::cache})
      .then(
          [r, j](proto::object_list& l) {
            for (auto& o : l.items)
              if (o.name() == r->credentials_name()) r->delivered = std::move(o);
            j->done();
          },
          [r, j](const caf::error& e) {
            note_error(r, e);
            j->done();
          });
  if (!r->order.terminating() && r->control_plane) {
    const auto& cp = r->control_plane;
    if (auto key = messaging_cluster_key(cp)) {
      get_cached(r, j, r->management, {rabbitmq_cluster_gvk(), key->namespace_, key->name}, &r->rabbitmq_cluster,
                 [r, j] {
                   auto sk = default_user_secret_key(r->rabbitmq_cluster);
                   if (!sk) return;
                   // The cluster operator's Secrets are watched by its part-of
                   // label; a get (cache, or the server) only when not there.
                   ++j->pending;
                   r->self()
                       ->request(r->management, r->timeout(),
                                 proto::list_request{secret_gvk(), sk->namespace_, rabbitmq_secret_selector(), "",
                                                     proto::read_from::cache})
                       .then(
                           [r, j, sk](proto::object_list& l) {
                             for (auto& o : l.items)
                               if (o.name() == sk->name) r->default_user = std::move(o);
                             if (!r->default_user)
                               get_cached(r, j, r->management, {secret_gvk(), sk->namespace_, sk->name},
                                          &r->default_user);
                             j->done();
                           },
                           [r, j](const caf::error& e) {
                             note_error(r, e);
                             j->done();
                           });
                 });
    }
    auto sref = control_plane_store_ref(cp);
    r->store.kind = sref.kind;
    r->store.name = sref.name;
    ++j->pending;
    const std::string store_ns = sref.kind == "ClusterSecretStore" ? "" : std::string(cp.namespace_());
    r->self()
        ->request(r->management, r->timeout(),
                  proto::get_request{{secret_store_gvk(sref.kind), store_ns, sref.name}, proto::read_from::cache})
        .then(
            [r, j](const k8s::object& o) {
              r->store.ready = secret_store_ready(o);
              j->done();
            },
            [r, j](const caf::error& e) {
              if (!proto::is_not_found(e) && !proto::is_no_match(e)) note_error(r, e);
              j->done();
            });
  }
  j->done();
}

void admit(const run_ptr& r) {
  const auto vo = r->vo();
  proto::control_plane_ref cp_ref{vo.control_plane_key.namespace_, vo.control_plane_key.name};
  r->self()
      ->request(r->deps->control_planes, r->timeout(), proto::admission_request{r->ctx.key(), cp_ref})
      .then(
          [r, cp_ref](proto::admission_answer& a) {
            const bool admitted = a.verdict == proto::admission_verdict::admitted;
            auto next = [r, admitted] {
              if (admitted || r->order.terminating()) return sense_children(r);
              plan_and_act(r);  // the freeze: nothing in the ControlPlane's namespace is read
            };
            if (a.control_plane) {
              r->control_plane = std::move(a.control_plane);
              return next();
            }
            // A refused order learns nothing from the answer; the plan redoes
            // the admission on the cached ControlPlane for its condition.
            auto j = std::make_shared<join>();
            j->then = [r, next] {
              if (!r->read_error.empty()) return finish(r, pass_result::failed(r->read_error));
              next();
            };
            get_cached(r, j, r->management, {controlplane::control_plane_gvk(), cp_ref.namespace_, cp_ref.name},
                       &r->control_plane);
            j->done();
          },
          [r](const caf::error& e) { fail(r, e); });
}

// --- act -------------------------------------------------------------------

std::vector<k8s::object>* list_for(const run_ptr& r, const child_write& w) {
  auto kind = w.kind();
  if (kind == "Vhost") return &r->vhosts;
  if (kind == "User") return &r->users;
  if (kind == "Permission") return &r->permissions;
  if (kind == "PushSecret") return &r->push_secrets;
  if (kind == "Secret") return &r->secrets;
  return nullptr;
}

bool is_delivered(const run_ptr& r, const child_write& w) {
  return w.cluster == write_cluster::order && w.kind() == "Secret" && w.name() == r->credentials_name();
}

// Folds a write's answer into the snapshot.
void fold(const run_ptr& r, const child_write& w, const k8s::object& answer) {
  const bool gone = w.verb == write_verb::delete_ && (!answer || !answer.terminating());
  if (is_delivered(r, w)) {
    r->delivered = gone ? k8s::object{} : answer;
    return;
  }
  auto* list = list_for(r, w);
  if (!list) return;
  std::erase_if(*list, [&](const k8s::object& o) { return o.name() == w.name(); });
  if (!gone && answer) list->push_back(answer);
}

void issue(const run_ptr& r, const child_write& w, std::function<void(const k8s::object&)> ok,
           std::function<void(const caf::error&)> err) {
  const auto& cluster = r->cluster_of(w.cluster);
  proto::write_options opts{r->deps->field_manager, false};
  auto on_error = [err](const caf::error& e) { err(e); };
  auto on_ok = [ok](const k8s::object& o) { ok(o); };
  auto* self = r->self();
  switch (w.verb) {
    case write_verb::create:
      self->request(cluster, r->timeout(), proto::create_request{w.body, opts}).then(on_ok, on_error);
      return;
    case write_verb::apply:
      self->request(cluster, r->timeout(), proto::apply_request{w.body, "", w.force, opts}).then(on_ok, on_error);
      return;
    case write_verb::update:
      self->request(cluster, r->timeout(), proto::update_request{w.body, "", opts}).then(on_ok, on_error);
      return;
    case write_verb::merge_patch:
      self->request(cluster, r->timeout(),
                    proto::patch_request{proto::ref_of(w.body), proto::patch_type::merge, w.body.to_json(), "", opts})
          .then(on_ok, on_error);
      return;
    case write_verb::delete_: {
      proto::delete_request d{proto::ref_of(w.body), std::string(w.body.uid()), "", proto::propagation::background};
      self->request(cluster, r->timeout(), d)
          .then(on_ok, [ok, err](const caf::error& e) {
            if (proto::is_not_found(e)) return ok(k8s::object{});
            err(e);
          });
      return;
    }
  }
}

// Issues plan.writes[i..] in order, then `done`.
void issue_from(const run_ptr& r, std::shared_ptr<const pass_plan> plan, std::size_t i, std::function<void()> done) {
  if (!r->ctx.open()) return;
  if (i == plan->writes.size()) return done();
  const auto& w = plan->writes[i];
  issue(
      r, w,
      [r, plan, i, done](const k8s::object& answer) {
        fold(r, plan->writes[i], answer);
        issue_from(r, plan, i + 1, done);
      },
      [r, plan, i](const caf::error& e) {
        const auto& w = plan->writes[i];
        if (w.verb == write_verb::create && proto::api_errc_of(e) == proto::api_errc::already_exists) {
          // Somebody else's object: read it by name and plan again; the plan refuses it.
          r->self()
              ->request(r->cluster_of(w.cluster), r->timeout(),
                        proto::get_request{proto::ref_of(w.body), proto::read_from::server})
              .then(
                  [r](k8s::object& o) {
                    r->read_by_name.push_back(std::move(o));
                    plan_and_act(r);
                  },
                  [r](const caf::error& e2) { fail(r, e2); });
          return;
        }
        fail(r, e);
      });
}

// The JSON patch that sets metadata.finalizers to `finalizers`, guarded by the
// order's resourceVersion.
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

void patch_finalizers(const run_ptr& r, std::vector<std::string> finalizers,
                      std::function<void(k8s::object&)> ok) {
  r->self()
      ->request(r->order_cluster, r->timeout(),
                proto::patch_request{proto::ref_of(r->order), proto::patch_type::json,
                                     finalizer_patch(r->order, finalizers), "",
                                     proto::write_options{r->deps->field_manager, false}})
      .then([r, ok](k8s::object& o) {
              r->memo->wrote(r->order, o);
              ok(o);
            },
            [r](const caf::error& e) {
              // A failed test op is the JSON-patch form of a conflict.
              auto code = proto::api_errc_of(e);
              if (code == proto::api_errc::invalid || code == proto::api_errc::conflict) {
                finish(r, pass_result::requeue());
                return;
              }
              fail(r, e);
            });
}

pass_result result_of(const run_ptr& r, const pass_plan& plan) {
  pass_result res = plan.requeue ? pass_result::requeue_after(std::chrono::duration_cast<caf::timespan>(*plan.requeue))
                                 : pass_result::converged();
  if (!r->order.terminating()) {
    auto t = timers_from_status(r->order, r->ctx.wall_now());
    if (t.rotation) res.arm("rotation", *t.rotation);
    if (t.grace) res.arm("grace", *t.grace);
  }
  return res;
}

// The plan asked for no write: finalizer, status, result.
void settle(const run_ptr& r, std::shared_ptr<const pass_plan> plan) {
  if (plan->add_finalizer) {
    auto f = r->order.finalizers();
    f.emplace_back(finalizer);
    return patch_finalizers(r, std::move(f), [r](k8s::object& o) {
      r->order = std::move(o);
      plan_and_act(r);
    });
  }
  if (plan->release_finalizer) {
    auto f = r->order.finalizers();
    std::erase(f, std::string(finalizer));
    return patch_finalizers(r, std::move(f), [r](k8s::object&) { finish(r, pass_result::converged()); });
  }
  if (plan->stage == pass_stage::legs && r->deps->instrumenter) r->deps->instrumenter->record(plan->conditions);
  if (!plan->status_changed) return finish(r, result_of(r, *plan));
  auto b = r->order.edit();
  write_status(b, plan->status);
  k8s::write_conditions(b, plan->conditions);
  r->self()
      ->request(r->order_cluster, r->timeout(),
                proto::update_status(std::move(b).freeze(), proto::write_options{r->deps->field_manager, false}))
      .then(
          [r, plan](k8s::object& o) {
            r->memo->wrote(r->order, o);
            r->order = std::move(o);
            finish(r, result_of(r, *plan));
          },
          [r](const caf::error& e) { fail(r, e); });
}

void plan_and_act(const run_ptr& r) {
  if (!r->ctx.open()) return;
  if (++r->rounds > r->deps->max_rounds) return finish(r, pass_result::requeue());
  pass_snapshot s;
  s.order = &r->order;
  s.cluster = r->ctx.key().cluster;
  s.control_plane = r->control_plane ? &r->control_plane : nullptr;
  s.rabbitmq_cluster = r->rabbitmq_cluster ? &r->rabbitmq_cluster : nullptr;
  s.default_user_secret = r->default_user ? &r->default_user : nullptr;
  s.store = r->store;
  s.served = r->served;
  s.vhosts = r->vhosts;
  s.users = r->users;
  s.permissions = r->permissions;
  s.secrets = r->secrets;
  s.push_secrets = r->push_secrets;
  s.delivered_secret = r->delivered ? &r->delivered : nullptr;
  s.read_by_name = r->read_by_name;
  s.now = r->ctx.wall_now();
  s.random = r->deps->random;
  auto plan = std::make_shared<const pass_plan>(plan_pass(s));

  if (plan->writes.empty()) return settle(r, plan);
  // A write to the delivered Secret: read it live first (a foreign Secret
  // is refused, and the cache holds only labelled ones).
  if (!r->delivered_live) {
    for (const auto& w : plan->writes) {
      if (!is_delivered(r, w)) continue;
      r->delivered_live = true;
      r->self()
          ->request(r->order_cluster, r->timeout(),
                    proto::get_request{{secret_gvk(), std::string(r->order.namespace_()), r->credentials_name()},
                                       proto::read_from::server})
          .then(
              [r](k8s::object& o) {
                r->delivered = std::move(o);
                plan_and_act(r);
              },
              [r](const caf::error& e) {
                if (!proto::is_not_found(e)) return fail(r, e);
                r->delivered = k8s::object{};
                plan_and_act(r);
              });
      return;
    }
  }
  issue_from(r, plan, 0, [r, plan] {
    if (plan->stage == pass_stage::teardown) {
      // Deletes take effect through the controllers; the next pass counts
      // what is left, unless the ControlPlane is gone (release at once).
      if (plan->release_finalizer) return settle(r, plan);
      return finish(r, result_of(r, *plan));
    }
    plan_and_act(r);
  });
}

void start(const run_ptr& r) {
  if (!r->order) return finish(r, pass_result::converged());
  auto lookup = [r](std::string name, std::function<void(caf::actor)> then) {
    r->self()
        ->request(r->deps->clusters, r->timeout(), proto::lookup_cluster_atom::value, name)
        .then([then](caf::actor a) { then(std::move(a)); },
              [r](const caf::error& e) {
                // The order's cluster does not resolve: no requeue (its
                // engagement brings the order back).
                if (proto::is_not_found(e)) return finish(r, pass_result::converged());
                fail(r, e);
              });
  };
  lookup("", [r, lookup](caf::actor m) {
    r->management = std::move(m);
    if (r->ctx.key().cluster.empty()) {
      r->order_cluster = r->management;
      return admit(r);
    }
    lookup(r->ctx.key().cluster, [r](caf::actor c) {
      r->order_cluster = std::move(c);
      admit(r);
    });
  });
}

}  // namespace

runtime::pass_fn make_order_pass(pass_deps deps) {
  if (!deps.random) deps.random = system_random();
  auto shared = std::make_shared<const pass_deps>(std::move(deps));
  auto memo = std::make_shared<order_memo>();
  return [shared, memo](runtime::pass_context ctx) {
    auto r = std::make_shared<run_state>(std::move(ctx));
    r->deps = shared;
    r->memo = memo;
    r->order = r->ctx.order() ? memo->latest(r->ctx.order()) : r->ctx.order();
    start(r);
  };
}

}  // namespace c5c3::c5c3::rabbitmqvhost
