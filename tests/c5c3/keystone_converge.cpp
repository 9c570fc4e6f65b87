#include "tests/c5c3/keystone_converge.hpp"

#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "k8s/patch.hpp"

namespace c5c3::test {

namespace korc = ::c5c3::c5c3::korc;

void keystone_world::put(object o) {
  auto b = o.edit();
  b.set_resource_version(std::to_string(++rv));
  if (o.uid().empty()) b.set_string({"metadata", "uid"}, "uid-" + std::string(o.name()));
  if (o.generation() == 0) b.set_int({"metadata", "generation"}, 1);
  auto stored = std::move(b).freeze();
  objects[{std::string(stored.kind()), std::string(stored.namespace_()), std::string(stored.name())}] = stored;
}

const object* keystone_world::get(std::string_view kind, std::string_view ns, std::string_view name) const {
  auto it = objects.find({std::string(kind), std::string(ns), std::string(name)});
  return it == objects.end() ? nullptr : &it->second;
}

std::vector<object> keystone_world::labelled(std::string_view kind, std::string_view ns,
                                             std::string_view label) const {
  std::vector<object> out;
  for (auto& [k, o] : objects)
    if (std::get<0>(k) == kind && std::get<1>(k) == ns && o.label(label)) out.push_back(o);
  return out;
}

std::vector<object> keystone_world::of_kind(std::string_view kind, std::string_view ns) const {
  std::vector<object> out;
  for (auto& [k, o] : objects)
    if (std::get<0>(k) == kind && std::get<1>(k) == ns) out.push_back(o);
  return out;
}

object keystone_world::apply(const orders::child_write& w) {
  const auto* live = get(w.kind(), w.body.namespace_(), w.name());
  switch (w.verb) {
    case orders::write_verb::delete_:
      objects.erase({std::string(w.kind()), std::string(w.body.namespace_()), std::string(w.name())});
      return {};
    case orders::write_verb::merge_patch: {
      auto doc = k8s::merge_patched(live->json(), w.body.json());
      put(object(std::move(doc)));
      break;
    }
    default: {
      if (!live) ++creates;
      auto b = w.body.edit();
      if (live) {
        if (const auto* st = live->get({"status"})) b.set({"status"}, k8s::copy_json(*st, b.alloc()));
        b.set_string({"metadata", "uid"}, live->uid());
      }
      put(std::move(b).freeze());
    }
  }
  return *get(w.kind(), w.body.namespace_(), w.name());
}

std::optional<object> keystone_world::catalog_step(const object& o) const {
  const std::string kind(o.kind());
  const bool managed = o.get_string({"spec", "managementPolicy"}) == "managed";
  auto filter = [&](std::string_view f) { return std::string(o.get_string({"spec", "import", "filter", f})); };
  auto resource = [&](std::string_view f) { return std::string(o.get_string({"spec", "resource", f})); };
  auto ready_id = [&](std::string_view ref_kind, const std::string& name) -> std::string {
    const auto* r = get(ref_kind, o.namespace_(), name);
    return r && korc::available_up_to_date(*r) ? korc::status_id(*r) : "";
  };
  if (!managed) {
    bool held = false;
    std::string id;
    if (kind == "Role") held = keystone_roles.contains(filter("name")), id = "id-role-" + filter("name");
    if (kind == "Region") held = keystone_regions.contains(filter("name")), id = filter("name");
    if (kind == "Service")
      held = keystone_services.contains({filter("name"), filter("type")}), id = "id-svc-" + filter("name");
    return held ? korc_available(o, id) : korc_created_externally(o);
  }
  if (kind == "Service") return korc_available(o, "id-svc-" + resource("name"), o.generation());
  if (kind == "Endpoint") {
    auto svc = ready_id("Service", resource("serviceRef"));
    auto region = ready_id("Region", resource("regionRef"));
    if (svc.empty() || region.empty()) return korc_pending(o, "Waiting for Service and Region to be ready");
    return korc_available(o, "id-ep-" + resource("interface") + "-" + svc, o.generation());
  }
  if (kind == "RoleAssignment") {
    auto role = ready_id("Role", resource("roleRef"));
    auto user = ready_id("User", resource("userRef"));
    auto project = ready_id("Project", resource("projectRef"));
    if (role.empty() || user.empty() || project.empty())
      return korc_pending(o, "Waiting for Role, User and Project to be ready");
    auto next = korc_available(o, "", o.generation());
    next = korc_resource(next, "roleID", role);
    next = korc_resource(next, "userID", user);
    return korc_resource(next, "projectID", project);
  }
  return std::nullopt;
}

void keystone_world::controllers_step() {
  std::vector<object> changed;
  for (auto& [k, o] : objects) {
    const auto& kind = std::get<0>(k);
    if (kind == "User" || kind == "Project") {
      const bool managed = o.get_string({"spec", "managementPolicy"}) == "managed";
      auto& names = kind == "User" ? keystone_users : keystone_projects;
      if (managed) {
        auto name = std::string(o.get_string({"spec", "resource", "name"}));
        names.insert(name);
        auto next = korc_available(o, "id-" + name, o.generation());
        if (kind == "User") next = korc_resource(next, "appliedPasswordRef", o.get_string({"spec", "resource", "passwordRef"}));
        if (k8s::to_json(*next.get({"status"})) != (o.get({"status"}) ? k8s::to_json(*o.get({"status"})) : ""))
          changed.push_back(next);
      } else if (!o.get({"status"})) {
        auto name = std::string(o.get_string({"spec", "import", "filter", "name"}));
        changed.push_back(names.contains(name) ? korc_available(o, "id-" + name) : korc_created_externally(o));
      }
    } else if (kind == "ApplicationCredential") {
      // Minted at once: Available with an id and the expiry Keystone holds.
      if (!o.get({"status"})) {
        auto next = korc_available(o, "ac-" + std::string(o.name()), o.generation());
        if (auto e = o.get_string({"spec", "resource", "expiresAt"}); !e.empty()) next = korc_resource(next, "expiresAt", e);
        changed.push_back(next);
      }
    } else if (kind == "Role" || kind == "Region" || kind == "Service" || kind == "Endpoint" ||
               kind == "RoleAssignment") {
      if (auto next = catalog_step(o); next && (!o.get({"status"}) || k8s::to_json(*next->get({"status"})) !=
                                                                           k8s::to_json(*o.get({"status"}))))
        changed.push_back(*next);
    } else if (kind == "PushSecret") {
      std::optional<std::string> hash;
      for (const auto& [key, value] : o.annotations())
        if (key.ends_with("-push-hash")) hash = value;
      if (hash && o.get_string({"status", "syncedResourceVersion"}) != "pushed-" + std::string(*hash)) {
        auto b = with_condition(o, "Ready", true).edit();
        b.set_string({"status", "syncedResourceVersion"}, "pushed-" + std::string(*hash));
        changed.push_back(std::move(b).freeze());
      }
    }
  }
  for (auto& o : changed) put(o);
}

int drive(keystone_world& w, object& order, std::string_view finalizer,
          const std::function<::c5c3::c5c3::korc::order_pass_plan(const object&)>& plan, int max) {
  for (int i = 0; i < max; ++i) {
    auto p = plan(order);
    bool moved = !p.writes.empty() || p.status || p.add_finalizer || p.release_finalizer;
    for (auto& wr : p.writes) w.apply(wr);
    if (p.status) order = *p.status;
    if (p.add_finalizer || p.release_finalizer) {
      auto b = order.edit();
      if (p.add_finalizer) b.add_finalizer(finalizer);
      if (p.release_finalizer) b.remove_finalizer(finalizer);
      order = std::move(b).freeze();
    }
    w.controllers_step();
    if (!moved) return i;
  }
  return -1;
}

}  // namespace c5c3::test
