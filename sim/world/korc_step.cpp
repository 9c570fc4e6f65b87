// reconcile_korc: K-ORC's reconcileNormal (GetOrCreateOSResource, the
// actuators' create and update) and reconcileDelete (DeleteResource) as one
// pure step. settle_korc is in korc_settle.cpp.
#include "sim/world/korc_step.hpp"

#include "sim/world/base64.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

using intent = korc_plan::intent;

k8s::object with_finalizer(const k8s::object& o, std::string_view f) {
  auto b = o.edit();
  b.add_finalizer(f);
  return std::move(b).freeze();
}

std::string secret_value(const k8s::object& secret, std::string_view key, bool* present = nullptr) {
  const auto* v = secret.get({"data", key});
  if (present) *present = v != nullptr;
  auto d = base64_decode(secret.get_string({"data", key}));
  return d ? *d : std::string();
}

const k8s::object& ref(const korc_snapshot& s, std::string_view kind, std::string_view name) {
  static const k8s::object none;
  auto it = s.refs.find(korc_ref_key(kind, name));
  return it == s.refs.end() ? none : it->second;
}

bool dep_ready(const k8s::object& dep) {
  auto info = korc_kind_of(dep.kind());
  return dep && korc_available(dep) && (!info || !info->has_id || !dep.get_string({"status", "id"}).empty());
}

// The value a ready reference resolves to (its id; a Service's type for an access rule).
std::string resolved_value(const korc_ref& r, const k8s::object& dep) {
  if (r.field == "accessRules") return std::string(dep.get_string({"status", "resource", "type"}));
  return std::string(dep.get_string({"status", "id"}));
}

// Resolves `refs` of kind K-ORC (not Secrets) into plan.resolved; waits on the
// missing and unready ones; with `guard`, holds each ready one with a deletion guard.
bool resolve(const korc_snapshot& s, const std::vector<korc_ref>& refs, korc_plan& plan, bool guard,
             const std::string& finalizer) {
  bool all = true;
  for (const auto& r : refs) {
    if (r.kind == "Secret") continue;
    const auto& dep = ref(s, r.kind, r.name);
    if (!dep) {
      plan.progress.wait(korc_waiting_on(r.kind, r.name, "created"));
      all = false;
    } else if (!dep_ready(dep)) {
      plan.progress.wait(korc_waiting_on(r.kind, r.name, "ready"));
      all = false;
    } else {
      plan.resolved[r.field].push_back(resolved_value(r, dep));
      if (guard && r.guard && !dep.has_finalizer(finalizer)) plan.before.push_back({write_verb::update, with_finalizer(dep, finalizer)});
    }
  }
  return all;
}

// What the references resolve to where they are ready, without waiting or guarding.
void resolve_quietly(const korc_snapshot& s, const std::vector<korc_ref>& refs, korc_resolved& out) {
  for (const auto& r : refs) {
    if (r.kind == "Secret") continue;
    const auto& dep = ref(s, r.kind, r.name);
    if (dep_ready(dep)) out[r.field].push_back(resolved_value(r, dep));
  }
}

// The credentials: the guard on the Secret and the cloud; false when it cannot go on.
bool credentials(const korc_snapshot& s, korc_plan& plan, const std::string& finalizer) {
  const auto& o = s.subject;
  auto name = o.get_string({"spec", "cloudCredentialsRef", "secretName"});
  const auto& secret = ref(s, "Secret", name);
  if (!secret) {
    plan.progress.wait(korc_waiting_on("Secret", name, "created"));
    return false;
  }
  if (!secret.has_finalizer(finalizer)) plan.before.push_back({write_verb::update, with_finalizer(secret, finalizer)});
  auto cloud = parse_clouds_yaml(secret_value(secret, "clouds.yaml"),
                                 o.get_string({"spec", "cloudCredentialsRef", "cloudName"}));
  if (!cloud) {
    plan.progress.error = fmt::format("Secret {}/{}: {}", o.namespace_(), name, cloud.error());
    return false;
  }
  plan.cloud = *cloud;
  return true;
}

bool managed(const k8s::object& o) { return o.get_string({"spec", "managementPolicy"}, "managed") != "unmanaged"; }

// An ApplicationCredential is read below its user: without the user's id there
// is no URL to ask (Keystone answers an empty id with a 500), so it waits.
bool user_known(const k8s::object& o, const korc_kind_info& info, korc_plan& plan) {
  if (info.kind != korc_kind::application_credential) return true;
  auto has = [&](const char* k) { return plan.resolved.contains(k) && !plan.resolved[k].empty(); };
  if (has("userRef") || has("filter.userRef")) return true;
  auto user = o.get_string({"spec", "resource", "userRef"});
  plan.progress.wait(korc_waiting_on("User", user.empty() ? o.get_string({"spec", "import", "filter", "userRef"}) : user, "ready"));
  return false;
}

// The RoleAssignment's components in status.resource, as a lookup (none: not all there).
std::optional<korc_lookup> components_lookup(const k8s::object& o) {
  auto c = [&](std::string_view f) { return std::string(o.get_string({"status", "resource", f})); };
  if (c("roleID").empty() || (c("userID").empty() && c("groupID").empty()) || (c("projectID").empty() && c("domainID").empty()))
    return std::nullopt;
  korc_resolved r{{"filter.roleRef", {c("roleID")}},       {"filter.userRef", {c("userID")}},
                  {"filter.groupRef", {c("groupID")}},     {"filter.projectRef", {c("projectID")}},
                  {"filter.domainRef", {c("domainID")}}};
  return korc_import_lookup(o, r);
}

// The single record a lookup answer names; `several` is the terminal message for more.
std::optional<k8s::object> at_most_one(korc_kind k, const identity_answer& a, const korc_lookup& l, korc_plan& plan,
                                       std::string_view several) {
  // K-ORC's list clients swallow errors: a failed list is an empty one.
  auto found = a ? korc_matches(k, a.body, l) : std::vector<k8s::object>{};
  if (found.size() > 1) {
    plan.progress.fail_terminal(korc_reason::invalid_configuration, std::string(several));
    return std::nullopt;
  }
  return found.empty() ? k8s::object() : found.front();
}

// The managed reconcilers once the resource is known: the password, then the attributes.
void reconcile_resource(const korc_snapshot& s, const korc_kind_info& info, korc_plan& plan) {
  const auto& o = s.subject;
  if (info.kind == korc_kind::user) {
    auto current = std::string(o.get_string({"spec", "resource", "passwordRef"}));
    auto applied = std::string(o.get_string({"status", "resource", "appliedPasswordRef"}));
    if (!current.empty() && current != applied) {
      const auto& secret = ref(s, "Secret", current);
      bool present = false;
      auto password = secret ? secret_value(secret, "password", &present) : std::string();
      if (!secret) {
        plan.progress.wait(korc_waiting_on("Secret", current, "created"));
      } else if (!present) {
        plan.progress.wait("Password secret does not contain \"password\" key");
      } else if (applied.empty()) {
        plan.applied_password = current;  // the password given at creation
      } else {
        k8s::object_builder b;
        b.set_string({"user", "password"}, password);
        plan.calls.push_back({"PATCH", "/v3/users/" + percent_encode(korc_record_id(info.kind, plan.record)),
                              k8s::to_json(b.doc())});
        plan.password_call = current;
      }
    }
  }
  if (auto u = korc_update_call(o, plan.record)) plan.calls.push_back(std::move(*u));
  if (!plan.calls.empty()) plan.what = intent::update;
}

void create(const korc_snapshot& s, const korc_kind_info& info, korc_plan& plan, const std::string& finalizer) {
  const auto& o = s.subject;
  plan.resolved.clear();
  bool ready = resolve(s, resource_refs(o), plan, true, finalizer);
  std::string secret;
  for (auto [field, key, missing] :
       {std::tuple{"passwordRef", "password", "Password secret does not contain \"password\" key"},
        {"secretRef", "value", "Application credential secret does not contain \"value\" key"}}) {
    auto name = o.get_string({"spec", "resource", field});
    if (name.empty() || (info.kind == korc_kind::user) != (std::string_view(field) == "passwordRef")) continue;
    const auto& sec = ref(s, "Secret", name);
    bool present = false;
    if (sec) secret = secret_value(sec, key, &present);
    if (!sec) {
      plan.progress.wait(korc_waiting_on("Secret", name, "created"));
      ready = false;
    } else if (!present) {
      plan.progress.wait(missing);
      ready = false;
    }
  }
  if (!ready) return;
  plan.calls.push_back(korc_create_call(o, plan.resolved, secret));
  plan.what = intent::create;
}

korc_plan reconcile_live(const korc_snapshot& s, const korc_kind_info& info) {
  korc_plan plan;
  const auto& o = s.subject;
  std::optional<std::chrono::nanoseconds> remaining;
  if (!korc_should_reconcile(o, s.now, &remaining)) {
    plan.skip = true;
    plan.progress.requeue = remaining;
    return plan;
  }
  const auto finalizer = korc_finalizer(info.kind);
  if (!o.has_finalizer(finalizer)) plan.before.push_back({write_verb::update, with_finalizer(o, finalizer)});
  if (!credentials(s, plan, finalizer)) return plan;
  const auto id = std::string(o.get_string({"status", "id"}));
  const auto import_id = std::string(o.get_string({"spec", "import", "id"}));
  const bool has_filter = o.get({"spec", "import", "filter"}) != nullptr;

  // The resource by status.id (a RoleAssignment: by the components it recorded).
  std::optional<korc_lookup> components = info.has_id ? std::nullopt : components_lookup(o);
  bool adopt = true;
  if (components) {
    resolve_quietly(s, all_refs(o), plan.resolved);
    if (!s.observed) return plan.read = components->call, plan;
    auto found = at_most_one(info.kind, *s.observed, *components, plan,
                             "found more than one matching role assignment for the same (role, actor, scope) tuple");
    if (!found) return plan;
    plan.record = *found;
    if (!plan.record && !managed(o)) {
      plan.progress.fail_terminal(korc_reason::unrecoverable_error, "role assignment has been deleted from OpenStack");
      return plan;
    }
    adopt = false;  // the components lookup was the adoption lookup: what is missing is created again
  } else if (info.has_id && !id.empty()) {
    resolve_quietly(s, all_refs(o), plan.resolved);
    if (!user_known(o, info, plan)) return plan;
    if (!s.observed) return plan.read = korc_get_call(info.kind, id, plan.resolved), plan;
    const auto& a = *s.observed;
    if (a.error && a.error->not_found()) {
      if (!managed(o)) {
        plan.progress.fail_terminal(korc_reason::unrecoverable_error, std::string(korc_message::gone_from_openstack));
      } else {
        plan.clear_id = true;
        plan.progress.wait(std::string(korc_message::deleted_externally));
      }
      return plan;
    }
    if (a.error) {
      plan.progress.error = a.error->message;
      return plan;
    }
    plan.record = korc_record(info.kind, a.body);
  }

  if (!plan.record) {
    if (!import_id.empty()) {
      resolve_quietly(s, all_refs(o), plan.resolved);
      if (!user_known(o, info, plan)) return plan;
      if (!s.observed) return plan.read = korc_get_call(info.kind, import_id, plan.resolved), plan;
      const auto& a = *s.observed;
      if (a.error) {
        if (a.error->not_found()) {
          plan.progress.fail_terminal(korc_reason::unrecoverable_error, std::string(korc_message::import_id_missing));
        } else {
          plan.progress.error = a.error->message;
        }
        return plan;
      }
      plan.record = korc_record(info.kind, a.body);
    } else if (has_filter) {
      if (!resolve(s, filter_refs(o), plan, false, finalizer)) return plan;
      auto lookup = korc_import_lookup(o, plan.resolved);
      if (!s.observed) return plan.read = lookup.call, plan;
      auto found = at_most_one(info.kind, *s.observed, lookup, plan, korc_message::several_on_import);
      if (!found) return plan;
      if (!*found) {
        plan.progress.wait(std::string(korc_message::waiting_external), s.timing.external_poll);
        return plan;
      }
      plan.record = *found;
    } else if (!managed(o)) {
      plan.progress.fail_terminal(korc_reason::invalid_configuration, std::string(korc_message::not_creating_unmanaged));
      return plan;
    } else {
      korc_resolved quiet;
      resolve_quietly(s, resource_refs(o), quiet);
      auto adoption = adopt ? korc_adoption_lookup(o, quiet) : std::nullopt;
      if (adoption && !s.observed) return plan.read = adoption->call, plan;
      if (adoption) {
        auto found = at_most_one(info.kind, *s.observed, *adoption, plan, korc_message::several_on_adoption);
        if (!found) return plan;
        plan.record = *found;
      }
      if (!plan.record) {
        create(s, info, plan, finalizer);
        return plan;
      }
      plan.resolved = quiet;
    }
  }
  if (info.has_id && id.empty()) plan.set_id = korc_record_id(info.kind, plan.record);
  if (managed(o)) reconcile_resource(s, info, plan);
  return plan;
}

korc_plan reconcile_delete(const korc_snapshot& s, const korc_kind_info& info) {
  korc_plan plan;
  const auto& o = s.subject;
  const auto finalizer = korc_finalizer(info.kind);
  if (!o.has_finalizer(finalizer)) {
    plan.skip = true;
    return plan;
  }
  if (!credentials(s, plan, finalizer)) return plan;
  resolve_quietly(s, all_refs(o), plan.resolved);
  const auto id = std::string(o.get_string({"status", "id"}));
  std::optional<korc_lookup> components = info.has_id ? std::nullopt : components_lookup(o);
  if ((info.has_id && !id.empty()) || components) {
    if (!components && !user_known(o, info, plan)) return plan;
    if (!s.observed) return plan.read = components ? components->call : korc_get_call(info.kind, id, plan.resolved), plan;
    const auto& a = *s.observed;
    if (components) {
      auto found = at_most_one(info.kind, a, *components, plan, korc_message::several_on_adoption);
      if (!found) return plan;
      plan.record = *found;
    } else if (a.error && !a.error->not_found()) {
      plan.progress.error = a.error->message;
      return plan;
    } else if (!a.error) {
      plan.record = korc_record(info.kind, a.body);
    }
  }
  for (const auto& f : o.finalizers())
    if (f != finalizer) plan.progress.wait(korc_waiting_on_finalizer(f));
  if (plan.progress.needs_reschedule()) return plan;
  const bool detach = o.get_string({"spec", "managedOptions", "onDelete"}, "delete") == "detach";
  if (!managed(o) || detach) {
    plan.release = true;
    return plan;
  }
  if (!plan.record && id.empty() && !components) {
    if (auto adoption = korc_adoption_lookup(o, plan.resolved)) {
      if (!s.observed) return plan.read = adoption->call, plan;
      auto found = at_most_one(info.kind, *s.observed, *adoption, plan, korc_message::several_on_adoption);
      if (!found) return plan;
      plan.record = *found;
    }
  }
  if (!plan.record) {
    plan.release = true;
    return plan;
  }
  if (plan.record.get_string({"user_id"}).empty() && !user_known(o, info, plan)) return plan;
  plan.calls = korc_delete_calls(info.kind, plan.record, plan.resolved);
  plan.what = intent::remove;
  return plan;
}

}  // namespace

std::string korc_ref_key(std::string_view kind, std::string_view name) { return fmt::format("{}/{}", kind, name); }

bool korc_should_reconcile(const k8s::object& o, k8s::time_point now, std::optional<std::chrono::nanoseconds>* remaining) {
  auto p = o.find_condition("Progressing");
  if (!p || p->status == "True" || p->observed_generation != o.generation()) return true;
  auto period = k8s::parse_go_duration(o.get_string({"spec", "resyncPeriod"})).value_or(std::chrono::nanoseconds(0));
  if (period <= std::chrono::nanoseconds(0)) return false;
  auto last = k8s::parse_rfc3339(o.get_string({"status", "lastSyncTime"}));
  if (!last) return true;
  auto due = *last + std::chrono::duration_cast<k8s::clock::duration>(period);
  if (now >= due) return true;
  if (remaining) *remaining = due - now;
  return false;
}

korc_plan reconcile_korc(const korc_snapshot& s) {
  auto info = korc_kind_of(s.subject.kind());
  if (!s.subject || !info || s.subject.gvk().group != korc_group) {
    korc_plan p;
    p.skip = true;
    return p;
  }
  return s.subject.terminating() ? reconcile_delete(s, *info) : reconcile_live(s, *info);
}

}  // namespace c5c3::sim::world
