#include "actors/c5c3/controlplane/control_plane_actor.hpp"

#include "actors/c5c3/controlplane/endpoints.hpp"
#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/c5c3/scaffold/messaging.hpp"
#include "actors/c5c3/scaffold/reasons.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/order.hpp"
#include "protocol/subscription.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/response_promise.hpp>
#include <caf/stateful_actor.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace c5c3::c5c3::controlplane {

k8s::gvk control_plane_gvk() { return {"c5c3.io", "v1alpha1", "ControlPlane"}; }
k8s::gvk rabbitmq_cluster_gvk() { return {"rabbitmq.com", "v1beta1", "RabbitmqCluster"}; }
k8s::gvk secret_gvk() { return {"", "v1", "Secret"}; }

namespace {

struct cp_state {
  control_plane_config cfg;
  protocol::subscription_id subscription;
  bool synced = false;
  bool gone = false;
  caf::error failure;  // the subscription was refused: every request gets it
  k8s::object cp;  // empty while absent
  std::set<protocol::order_key> orders;
  std::vector<caf::actor> hosts;
  std::size_t fan_outs = 0;
  std::vector<std::pair<protocol::admission_request, caf::response_promise>> pending_admissions;
  std::vector<std::pair<protocol::endpoints_request, caf::response_promise>> pending_endpoints;
};

using cp_actor = caf::stateful_actor<cp_state>;

k8s::object_key cp_key(const cp_state& st) { return {st.cfg.ref.namespace_, st.cfg.ref.name}; }

protocol::namespace_assignment to_protocol(const namespace_assignment& a) {
  return {a.namespace_, a.target_cluster_name(), a.allowed_roles, a.allow_catalog_entries};
}

protocol::admission_verdict verdict_of(const admission_result& r) {
  if (r.admitted()) return protocol::admission_verdict::admitted;
  if (r.gate.reason == reason_cluster_name_too_long) return protocol::admission_verdict::cluster_name_too_long;
  if (r.gate.reason == reason_control_plane_not_found)
    return protocol::admission_verdict::control_plane_not_found;
  return protocol::admission_verdict::namespace_not_assigned;
}

protocol::admission_answer admit(cp_state& st, const protocol::admission_request& req) {
  st.orders.insert(req.order);
  order_ref o;
  o.name = req.order.name;
  o.namespace_ = req.order.namespace_;
  o.cluster = req.order.cluster;
  admission_input in;
  in.order = &o;
  in.control_plane_key = cp_key(st);
  in.control_plane_present = static_cast<bool>(st.cp);
  if (st.cp) in.assignments = namespace_assignments_of(st.cp);
  auto r = order_admission(in);
  protocol::admission_answer out;
  out.verdict = verdict_of(r);
  out.message = r.gate.message;
  if (r.entry) out.assignment = to_protocol(*r.entry);
  // The freeze: a refused order learns nothing of the ControlPlane.
  if (st.cp && r.admitted()) {
    auto c = st.cp.find_condition(condition_type_admin_credential_ready);
    out.admin_credential_ready = c && c->is_true();
    out.control_plane = st.cp;
  }
  return out;
}

caf::error not_found(const cp_state& st) {
  return protocol::make_error(protocol::api_errc::not_found,
                              fmt::format("ControlPlane {} not found", cp_key(st).to_string()));
}

// The broker on the management cluster: the RabbitmqCluster, then its
// default-user Secret, both from the cluster actor's cache.
void resolve_in_cluster(cp_actor* self, k8s::object cp, protocol::control_plane_endpoints out,
                        caf::response_promise rp) {
  auto cluster_key = messaging_cluster_key(cp);
  if (!cluster_key) {
    in_cluster_messaging_endpoint(cp, nullptr, nullptr, out);
    rp.deliver(std::move(out));
    return;
  }
  auto shared = std::make_shared<std::pair<protocol::control_plane_endpoints, caf::response_promise>>(
      std::move(out), std::move(rp));
  auto fail = [shared](const caf::error& e) {
    shared->first.messaging_problem = protocol::describe(e);
    shared->second.deliver(std::move(shared->first));
  };
  auto& st = self->state;
  self->request(st.cfg.management_cluster, st.cfg.read_timeout,
                protocol::get_request{{rabbitmq_cluster_gvk(), cluster_key->namespace_, cluster_key->name}})
      .then(
          [self, cp, shared, fail](const k8s::object& rmq) {
            auto secret_key = default_user_secret_key(rmq);
            if (!secret_key) {
              in_cluster_messaging_endpoint(cp, &rmq, nullptr, shared->first);
              shared->second.deliver(std::move(shared->first));
              return;
            }
            self->request(self->state.cfg.management_cluster, self->state.cfg.read_timeout,
                          protocol::get_request{{secret_gvk(), secret_key->namespace_, secret_key->name}})
                .then(
                    [cp, rmq, shared](const k8s::object& secret) {
                      in_cluster_messaging_endpoint(cp, &rmq, &secret, shared->first);
                      shared->second.deliver(std::move(shared->first));
                    },
                    [cp, rmq, shared, fail](const caf::error& e) {
                      if (!protocol::is_not_found(e)) return fail(e);
                      in_cluster_messaging_endpoint(cp, &rmq, nullptr, shared->first);
                      shared->second.deliver(std::move(shared->first));
                    });
          },
          [cp, shared, fail](const caf::error& e) {
            if (!protocol::is_not_found(e)) return fail(e);
            in_cluster_messaging_endpoint(cp, nullptr, nullptr, shared->first);
            shared->second.deliver(std::move(shared->first));
          });
}

void answer_endpoints(cp_actor* self, const protocol::endpoints_request& req, caf::response_promise rp) {
  auto& st = self->state;
  if (!st.cp) {
    rp.deliver(not_found(st));
    return;
  }
  auto out = keystone_endpoints(st.cp, req.order_cluster);
  if (!req.order_cluster.empty()) {
    published_messaging_endpoint(st.cp, req.order_cluster, out);
    rp.deliver(std::move(out));
    return;
  }
  resolve_in_cluster(self, st.cp, std::move(out), std::move(rp));
}

void fan_out(cp_actor* self) {
  auto& st = self->state;
  if (st.orders.empty() || st.hosts.empty()) return;
  protocol::control_plane_changed msg{st.cfg.ref, {st.orders.begin(), st.orders.end()}};
  ++st.fan_outs;
  for (auto& h : st.hosts) self->send(h, msg);
}

void flush_pending(cp_actor* self) {
  auto& st = self->state;
  auto admissions = std::move(st.pending_admissions);
  st.pending_admissions.clear();
  for (auto& [req, rp] : admissions) rp.deliver(admit(st, req));
  auto endpoints = std::move(st.pending_endpoints);
  st.pending_endpoints.clear();
  for (auto& [req, rp] : endpoints) answer_endpoints(self, req, std::move(rp));
}

void on_event(cp_actor* self, const protocol::object_event& ev) {
  auto& st = self->state;
  // Matched by identity, not by subscription id: events may arrive before
  // the subscription's answer does.
  if (ev.obj.kind() != control_plane_gvk().kind || ev.obj.name() != st.cfg.ref.name ||
      ev.obj.namespace_() != st.cfg.ref.namespace_)
    return;
  switch (ev.type) {
    case protocol::event_type::added: {
      bool was_absent = !st.cp;
      st.cp = ev.obj;
      st.gone = false;
      if (was_absent && st.synced) fan_out(self);  // it (re)appeared
      break;
    }
    case protocol::event_type::modified: {
      k8s::object old = ev.old ? ev.old : st.cp;
      st.cp = ev.obj;
      st.gone = false;
      if (!old || order_control_plane_predicate(old, ev.obj)) fan_out(self);
      break;
    }
    case protocol::event_type::deleted:
      st.cp = k8s::object{};
      st.gone = true;
      fan_out(self);
      break;
  }
}

// The subscription was refused: every request gets the error.
void fail(cp_actor* self, const caf::error& e) {
  auto& st = self->state;
  st.failure = e;
  for (auto& p : st.pending_admissions) p.second.deliver(e);
  for (auto& p : st.pending_endpoints) p.second.deliver(e);
  st.pending_admissions.clear();
  st.pending_endpoints.clear();
}

caf::behavior control_plane_actor(cp_actor* self, control_plane_config cfg) {
  self->state.cfg = std::move(cfg);
  auto& st = self->state;
  if (st.cfg.subscribe)
    self->request(st.cfg.management_cluster, caf::infinite,
                  protocol::subscribe_request{control_plane_gvk(), st.cfg.ref.namespace_, "",
                                              caf::actor_cast<caf::actor>(self), false})
        .then([self](const protocol::subscription_id& id) { self->state.subscription = id; },
              [self](const caf::error& e) { fail(self, e); });
  return {
      [self](const protocol::admission_request& req) {
        auto rp = self->make_response_promise();
        if (self->state.failure) {
          rp.deliver(self->state.failure);
          return;
        }
        if (!self->state.synced) {
          self->state.pending_admissions.emplace_back(req, std::move(rp));
          return;
        }
        rp.deliver(admit(self->state, req));
      },
      [self](const protocol::endpoints_request& req) {
        auto rp = self->make_response_promise();
        if (self->state.failure) {
          rp.deliver(self->state.failure);
          return;
        }
        if (!self->state.synced) {
          self->state.pending_endpoints.emplace_back(req, std::move(rp));
          return;
        }
        answer_endpoints(self, req, std::move(rp));
      },
      [self](const protocol::object_event& ev) { on_event(self, ev); },
      [self](const protocol::informer_synced& s) {
        if (s.gvk != control_plane_gvk() || !s.cluster.empty()) return;
        self->state.synced = true;
        flush_pending(self);
      },
      [self](cp_host_atom, const caf::actor& host) {
        auto& hosts = self->state.hosts;
        if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
        return protocol::ok_atom::value;
      },
      [self](cp_failed_atom, const caf::error& e) { fail(self, e); },
      [self](cp_forget_atom, const protocol::order_key& order) { self->state.orders.erase(order); },
      [self](protocol::retire_atom) { self->quit(); },
      [self](protocol::probe_atom) {
        auto& s = self->state;
        return control_plane_probe{s.synced, static_cast<bool>(s.cp), s.gone,
                                   {s.orders.begin(), s.orders.end()}, s.hosts.size(), s.fan_outs};
      },
  };
}

}  // namespace

caf::actor spawn_control_plane(caf::actor_system& sys, control_plane_config cfg) {
  return sys.spawn(control_plane_actor, std::move(cfg));
}

}  // namespace c5c3::c5c3::controlplane
