// RBAC decisions as kube-apiserver makes them (see rbac.hpp).
#include "sim/apiserver/rbac.hpp"

#include "k8s/selector.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::sim::rbac {

namespace {

using k8s::json_value;
using validation::go_quote;

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return out;
  std::size_t i = 0;
  while (true) {
    auto j = path.find('/', i);
    out.push_back(path.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return out;
}

bool valid_path_segment_name(std::string_view n) {
  return n != "." && n != ".." && n.find('/') == std::string_view::npos &&
         n.find('%') == std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// Whether the JSON string array `list` holds `want`, or `*` when `star`.
bool any_of(const json_value& rule, std::string_view field, std::string_view want, bool star = true) {
  const json_value* list = k8s::member(rule, field);
  if (!list || !list->IsArray()) return false;
  for (const auto& v : list->GetArray()) {
    if (!v.IsString()) continue;
    auto s = k8s::as_string_view(v);
    if ((star && s == "*") || s == want) return true;
  }
  return false;
}

bool resource_matches(const json_value& rule, const std::string& combined, std::string_view sub) {
  const json_value* list = k8s::member(rule, "resources");
  if (!list || !list->IsArray()) return false;
  for (const auto& v : list->GetArray()) {
    if (!v.IsString()) continue;
    auto r = k8s::as_string_view(v);
    if (r == "*" || r == combined) return true;
    if (sub.empty()) continue;
    if (r.size() == sub.size() + 2 && r.substr(0, 2) == "*/" && r.substr(2) == sub) return true;
  }
  return false;
}

bool name_matches(const json_value& rule, std::string_view name) {
  const json_value* list = k8s::member(rule, "resourceNames");
  if (!list || !list->IsArray() || list->Empty()) return true;
  for (const auto& v : list->GetArray())
    if (v.IsString() && k8s::as_string_view(v) == name) return true;
  return false;
}

bool url_matches(const json_value& rule, std::string_view path) {
  const json_value* list = k8s::member(rule, "nonResourceURLs");
  if (!list || !list->IsArray()) return false;
  for (const auto& v : list->GetArray()) {
    if (!v.IsString()) continue;
    auto u = k8s::as_string_view(v);
    if (u == "*" || u == path) return true;
    if (!u.empty() && u.back() == '*') {
      auto prefix = u;
      while (!prefix.empty() && prefix.back() == '*') prefix.remove_suffix(1);
      if (path.substr(0, prefix.size()) == prefix) return true;
    }
  }
  return false;
}

bool has(const std::vector<std::string>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

bool applies_to_user(const user_info& u, const json_value& subject, std::string_view ns) {
  auto kind = k8s::get_string(subject, {"kind"});
  auto name = k8s::get_string(subject, {"name"});
  if (kind == "User") return u.name == name;
  if (kind == "Group") return has(u.groups, name);
  if (kind == "ServiceAccount") {
    std::string_view sa_ns = k8s::get_string(subject, {"namespace"});
    if (sa_ns.empty()) sa_ns = ns;
    return !sa_ns.empty() && u.name == service_account_user(sa_ns, name);
  }
  return false;
}

bool applies(const user_info& u, const k8s::object& binding, std::string_view ns) {
  const json_value* subjects = binding.get({"subjects"});
  if (!subjects || !subjects->IsArray()) return false;
  for (const auto& s : subjects->GetArray())
    if (s.IsObject() && applies_to_user(u, s, ns)) return true;
  return false;
}

std::string describe_subject(const json_value& s, std::string_view binding_ns) {
  auto kind = k8s::get_string(s, {"kind"});
  std::string name(k8s::get_string(s, {"name"}));
  if (kind == "ServiceAccount") {
    std::string_view ns = k8s::get_string(s, {"namespace"});
    return fmt::format("{} {}", kind, go_quote(name + "/" + std::string(ns.empty() ? binding_ns : ns)));
  }
  return fmt::format("{} {}", kind, go_quote(name));
}

const json_value* first_applying_subject(const user_info& u, const k8s::object& b, std::string_view ns) {
  for (const auto& s : b.get({"subjects"})->GetArray())
    if (s.IsObject() && applies_to_user(u, s, ns)) return &s;
  return nullptr;
}

// Visits the bindings of one scope; true once a rule allowed.
bool visit(const attributes& a, const policy& p, const std::map<k8s::object_key, k8s::object>& bindings,
           std::string_view ns, decision& d, std::vector<std::string>& errors) {
  auto it = ns.empty() ? bindings.begin() : bindings.lower_bound({std::string(ns), ""});
  for (; it != bindings.end() && it->first.namespace_ == ns; ++it) {
    const auto& b = it->second;
    if (!applies(a.user, b, ns)) continue;
    std::string error;
    const json_value* rules = role_reference_rules(p, b.json(), ns, error);
    if (!rules) {
      errors.push_back(std::move(error));
      continue;
    }
    for (const auto& rule : rules->GetArray()) {
      if (!rule.IsObject() || !rule_allows(a, rule)) continue;
      const json_value* subject = first_applying_subject(a.user, b, ns);
      auto ref = fmt::format("{} {}", b.get_string({"roleRef", "kind"}), go_quote(b.get_string({"roleRef", "name"})));
      d.allowed = true;
      d.reason = ns.empty() ? fmt::format("RBAC: allowed by ClusterRoleBinding {} of {} to {}", go_quote(b.name()), ref,
                                          describe_subject(*subject, ""))
                            : fmt::format("RBAC: allowed by RoleBinding {} of {} to {}",
                                          go_quote(std::string(b.name()) + "/" + std::string(ns)), ref,
                                          describe_subject(*subject, ns));
      return true;
    }
  }
  return false;
}

}  // namespace

const json_value* role_reference_rules(const policy& p, const json_value& binding, std::string_view ns,
                                       std::string& error) {
  auto kind = k8s::get_string(binding, {"roleRef", "kind"});
  std::string name(k8s::get_string(binding, {"roleRef", "name"}));
  const std::map<k8s::object_key, k8s::object>* from = nullptr;
  k8s::object_key key{"", name};
  std::string qualified;
  if (kind == "Role") {
    from = p.roles;
    key.namespace_ = ns;
    qualified = "role.rbac.authorization.k8s.io";
  } else if (kind == "ClusterRole") {
    from = p.cluster_roles;
    qualified = "clusterrole.rbac.authorization.k8s.io";
  } else {
    error = fmt::format("unsupported role reference kind: {}", go_quote(kind));
    return nullptr;
  }
  if (from) {
    if (auto it = from->find(key); it != from->end()) {
      const json_value* rules = it->second.get({"rules"});
      static const json_value none(rapidjson::kArrayType);
      return rules && rules->IsArray() ? rules : &none;
    }
  }
  error = fmt::format("{} {} not found", qualified, go_quote(name));
  return nullptr;
}

std::string service_account_user(std::string_view ns, std::string_view name) {
  return fmt::format("system:serviceaccount:{}:{}", ns, name);
}

std::vector<std::string> service_account_groups(std::string_view ns) {
  return {"system:serviceaccounts", fmt::format("system:serviceaccounts:{}", ns)};
}

attributes request_attributes(std::string_view method, std::string_view path,
                              const std::optional<std::string>& watch,
                              const std::optional<std::string>& field_selector) {
  attributes a;
  a.path = std::string(path);
  a.verb = lower(method);
  auto parts = split(path);
  // /api/VERSION/... or /apis/GROUP/VERSION/...: at least one part after the version.
  std::size_t at = parts.empty() ? 0 : parts[0] == "api" ? 1 : parts[0] == "apis" ? 2 : 0;
  if (at == 0 || parts.size() < at + 2) return a;
  bool special = parts[at + 1] == "watch" || parts[at + 1] == "proxy";
  if (special && parts.size() < at + 3) return a;  // kube refuses `/api/v1/watch` alone
  if (at == 2) a.group = std::string(parts[1]);
  a.resource_request = true;
  a.version = std::string(parts[at++]);
  if (special) {
    a.verb = std::string(parts[at++]);
  } else if (method == "POST") {
    a.verb = "create";
  } else if (method == "GET" || method == "HEAD") {
    a.verb = "get";
  } else if (method == "PUT") {
    a.verb = "update";
  } else if (method == "PATCH") {
    a.verb = "patch";
  } else if (method == "DELETE") {
    a.verb = "delete";
  } else {
    a.verb.clear();
  }
  std::vector<std::string_view> rest(parts.begin() + static_cast<long>(at), parts.end());
  if (rest[0] == "namespaces" && rest.size() > 1) {
    a.namespace_ = std::string(rest[1]);
    if (rest.size() > 2 && rest[2] != "status" && rest[2] != "finalize")
      rest.erase(rest.begin(), rest.begin() + 2);
  }
  if (rest.size() >= 3 && a.verb != "proxy") a.subresource = std::string(rest[2]);
  if (rest.size() >= 2) a.name = std::string(rest[1]);
  a.resource = std::string(rest[0]);
  if (a.name.empty() && a.verb == "get") {
    a.verb = watch && lower(*watch) != "false" && *watch != "0" ? "watch" : "list";
    if (field_selector) {
      if (auto fs = k8s::field_selector::parse(*field_selector)) {
        for (const auto& r : fs->requirements())
          if (r.field == "metadata.name" && !r.negated) {
            if (valid_path_segment_name(r.value)) a.name = r.value;
            break;
          }
      }
    }
  }
  if (a.name.empty() && a.verb == "delete") a.verb = "deletecollection";
  return a;
}

bool rule_allows(const attributes& a, const json_value& rule) {
  if (!any_of(rule, "verbs", a.verb)) return false;
  if (!a.resource_request) return url_matches(rule, a.path);
  std::string combined = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
  return any_of(rule, "apiGroups", a.group) && resource_matches(rule, combined, a.subresource) &&
         name_matches(rule, a.name);
}

decision authorize(const attributes& a, const policy& p) {
  decision d;
  if (has(a.user.groups, "system:masters")) {
    d.allowed = true;
    return d;
  }
  std::vector<std::string> errors;
  if (p.cluster_role_bindings && visit(a, p, *p.cluster_role_bindings, "", d, errors)) return d;
  if (!a.namespace_.empty() && p.role_bindings && visit(a, p, *p.role_bindings, a.namespace_, d, errors))
    return d;
  if (errors.size() == 1) d.reason = "RBAC: " + errors[0];
  if (errors.size() > 1) {
    // utilerrors.Aggregate: "[e1, e2]".
    std::string joined;
    for (const auto& e : errors) joined += (joined.empty() ? "" : ", ") + e;
    d.reason = "RBAC: [" + joined + "]";
  }
  return d;
}

k8s::api_error forbidden(const attributes& a, std::string_view reason) {
  std::string msg;
  if (!a.resource_request) {
    msg = fmt::format("User {} cannot {} path {}", go_quote(a.user.name), a.verb, go_quote(a.path));
  } else {
    std::string resource = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
    msg = a.namespace_.empty()
              ? fmt::format("User {} cannot {} resource {} in API group {} at the cluster scope",
                            go_quote(a.user.name), a.verb, go_quote(resource), go_quote(a.group))
              : fmt::format("User {} cannot {} resource {} in API group {} in the namespace {}",
                            go_quote(a.user.name), a.verb, go_quote(resource), go_quote(a.group),
                            go_quote(a.namespace_));
  }
  // kube's responsewriters escape what could read as HTML.
  std::string safe;
  for (char c : msg) {
    if (c == '&') safe += "&amp;";
    else if (c == '<') safe += "&lt;";
    else if (c == '>') safe += "&gt;";
    else safe.push_back(c);
  }
  if (!reason.empty()) safe += fmt::format(": {}", reason);
  k8s::api_error e = k8s::make_forbidden("");
  if (a.resource.empty())
    e.message = "forbidden: " + safe;
  else if (a.name.empty())
    e.message = fmt::format("{} is forbidden: {}", k8s::qualified_resource(a.group, a.resource), safe);
  else
    e.message = fmt::format("{} {} is forbidden: {}", k8s::qualified_resource(a.group, a.resource),
                            go_quote(a.name), safe);
  e.group = a.group;
  e.kind = a.resource;
  e.name = a.name;
  return e;
}

}  // namespace c5c3::sim::rbac
