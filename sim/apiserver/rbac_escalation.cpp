#include "sim/apiserver/rbac_escalation.hpp"

#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace c5c3::sim::rbac {

using k8s::json_document;
using k8s::json_value;
using validation::go_quote;

namespace {

constexpr std::string_view rbac_group = "rbac.authorization.k8s.io";

std::vector<std::string> strings(const json_value& rule, const char* field) {
  std::vector<std::string> out;
  if (const auto* v = k8s::find(rule, {field}); v && v->IsArray())
    for (const auto& s : v->GetArray())
      if (s.IsString()) out.emplace_back(k8s::as_string_view(s));
  return out;
}

// Go's %q of a []string: ["a" "b"].
std::string quoted_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + go_quote(v[i]);
  return out + "]";
}

// One missing right with its verbs, keyed as CompactRules merges them.
struct right {
  std::string group, resource, name, url;
  bool operator<(const right& o) const {
    return std::tie(group, resource, name, url) < std::tie(o.group, o.resource, o.name, o.url);
  }
};

std::string compact(const right& r, const std::vector<std::string>& verbs) {
  std::vector<std::string> parts;
  if (r.url.empty()) {
    parts.push_back("APIGroups:" + quoted_list({r.group}));
    parts.push_back("Resources:" + quoted_list({r.resource}));
    if (!r.name.empty()) parts.push_back("ResourceNames:" + quoted_list({r.name}));
  } else {
    parts.push_back("NonResourceURLs:" + quoted_list({r.url}));
  }
  parts.push_back("Verbs:" + quoted_list(verbs));
  return "{" + fmt::format("{}", fmt::join(parts, ", ")) + "}";
}

bool has(const std::vector<std::string>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// kube's IsOnlyMutatingGCFields: `next` is `old` but for its owners,
// finalizers and what the store sets itself.
bool only_gc_fields_differ(const json_value& old, const json_value& next) {
  auto stripped = [](const json_value& v) {
    json_document d;
    d.CopyFrom(v, d.GetAllocator());
    if (!d.IsObject()) return d;
    if (auto md = d.FindMember("metadata"); md != d.MemberEnd() && md->value.IsObject())
      for (const char* f : {"ownerReferences", "finalizers", "selfLink", "resourceVersion", "managedFields",
                            "generation", "creationTimestamp", "uid"})
        md->value.RemoveMember(f);
    return d;
  };
  return k8s::json_equal(stripped(old), stripped(next));
}

k8s::api_error refusal(std::string_view plural, std::string_view name, const std::string& why) {
  k8s::api_error e = k8s::make_forbidden(
      fmt::format("{} {} is forbidden: {}", k8s::qualified_resource(rbac_group, plural), go_quote(name), why));
  e.group = std::string(rbac_group);
  e.kind = std::string(plural);
  e.name = std::string(name);
  return e;
}

std::string grant_refused(const user_info& user, const std::vector<std::string>& missing) {
  return fmt::format("user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
                     go_quote(user.name), quoted_list(user.groups), fmt::join(missing, "\n"));
}

}  // namespace

std::vector<std::string> missing_rights(const user_info& user, const std::string& ns, const json_value& rules,
                                        const policy& p) {
  std::map<right, std::vector<std::string>> missing;
  auto check = [&](const right& r, const std::string& verb) {
    attributes a;
    a.user = user;
    a.verb = verb;
    a.namespace_ = ns;
    if (r.url.empty()) {
      a.resource_request = true;
      a.group = r.group;
      auto slash = r.resource.find('/');
      a.resource = r.resource.substr(0, slash);
      if (slash != std::string::npos) a.subresource = r.resource.substr(slash + 1);
      a.name = r.name;
    } else {
      a.path = r.url;
    }
    if (!authorize(a, p).allowed) {
      auto& verbs = missing[r];
      if (!has(verbs, verb)) verbs.push_back(verb);
    }
  };
  if (rules.IsArray())
    for (const auto& rule : rules.GetArray()) {
      if (!rule.IsObject()) continue;
      auto names = strings(rule, "resourceNames");
      if (names.empty()) names.emplace_back();
      for (const auto& verb : strings(rule, "verbs")) {
        for (const auto& g : strings(rule, "apiGroups"))
          for (const auto& res : strings(rule, "resources"))
            for (const auto& n : names) check({g, res, n, ""}, verb);
        for (const auto& url : strings(rule, "nonResourceURLs")) check({"", "", "", url}, verb);
      }
    }
  std::vector<std::string> out;
  for (const auto& [r, verbs] : missing) out.push_back(compact(r, verbs));
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<k8s::api_error> check_grant(const user_info& user, std::string_view plural, const std::string& ns,
                                          const json_value* old, const json_value& next, const policy& p) {
  if (has(user.groups, "system:masters")) return std::nullopt;
  if (old && only_gc_fields_differ(*old, next)) return std::nullopt;
  const std::string name(k8s::get_string(next, {"metadata", "name"}));
  attributes a;
  a.user = user;
  a.resource_request = true;
  a.group = std::string(rbac_group);
  a.namespace_ = ns;
  static const json_value no_rules(rapidjson::kArrayType);
  if (plural == "roles" || plural == "clusterroles") {
    a.verb = "escalate";
    a.resource = std::string(plural);
    a.name = name;
    if (authorize(a, p).allowed) return std::nullopt;
    const json_value* rules = k8s::find(next, {"rules"});
    auto missing = missing_rights(user, ns, rules ? *rules : no_rules, p);
    if (!missing.empty()) return refusal(plural, name, grant_refused(user, missing));
    if (const auto* agg = k8s::find(next, {"aggregationRule"}); plural == "clusterroles" && agg && agg->IsObject()) {
      json_document all;
      all.Parse(R"([{"apiGroups":["*"],"resources":["*"],"verbs":["*"]},{"nonResourceURLs":["*"],"verbs":["*"]}])");
      if (!missing_rights(user, "", all, p).empty())
        return refusal(plural, name, "must have cluster-admin privileges to use the aggregationRule");
    }
    return std::nullopt;
  }
  if (plural != "rolebindings" && plural != "clusterrolebindings") return std::nullopt;
  a.verb = "bind";
  a.resource = k8s::get_string(next, {"roleRef", "kind"}) == "ClusterRole" ? "clusterroles" : "roles";
  a.name = std::string(k8s::get_string(next, {"roleRef", "name"}));
  if (authorize(a, p).allowed) return std::nullopt;
  std::string error;
  const json_value* rules = role_reference_rules(p, next, ns, error);
  // kube answers a missing role with 404, naming the role as if it were a
  // binding: `rolebindings.rbac.authorization.k8s.io "nope" not found`.
  if (!rules) return k8s::make_not_found(rbac_group, plural, a.name);
  auto missing = missing_rights(user, ns, *rules, p);
  if (!missing.empty()) return refusal(plural, name, grant_refused(user, missing));
  return std::nullopt;
}

}  // namespace c5c3::sim::rbac
