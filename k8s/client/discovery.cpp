#include "k8s/client/discovery.hpp"
#include "k8s/json_answer.hpp"

namespace c5c3::k8s {

std::optional<std::vector<api_resource>> parse_api_resource_list(std::string_view body, std::string* error) {
  std::string perr;
  auto doc = parse_answer_json(body, &perr);
  if (!doc || !doc->IsObject()) {
    if (error) *error = "malformed APIResourceList: " + perr;
    return std::nullopt;
  }
  auto gv = std::string(get_string(*doc, {"groupVersion"}));
  std::string group, version = gv;
  if (auto slash = gv.find('/'); slash != std::string::npos) {
    group = gv.substr(0, slash);
    version = gv.substr(slash + 1);
  }
  std::vector<api_resource> out;
  std::vector<std::pair<std::string, std::string>> subs;
  const json_value* list = member(*doc, "resources");
  if (list && list->IsArray()) {
    for (const auto& r : list->GetArray()) {
      std::string name(get_string(r, {"name"}));
      if (auto slash = name.find('/'); slash != std::string::npos) {
        subs.emplace_back(name.substr(0, slash), name.substr(slash + 1));
        continue;
      }
      api_resource a;
      a.group = std::string(get_string(r, {"group"}, group));
      a.version = std::string(get_string(r, {"version"}, version));
      a.kind = std::string(get_string(r, {"kind"}));
      a.plural = name;
      a.singular = std::string(get_string(r, {"singularName"}));
      a.namespaced = get_bool(r, {"namespaced"}).value_or(false);
      a.list_kind = a.kind + "List";
      auto strings = [&](std::string_view field) {
        std::vector<std::string> v;
        if (const json_value* arr = member(r, field); arr && arr->IsArray())
          for (const auto& s : arr->GetArray())
            if (s.IsString()) v.emplace_back(as_string_view(s));
        return v;
      };
      a.verbs = strings("verbs");
      a.short_names = strings("shortNames");
      a.categories = strings("categories");
      out.push_back(std::move(a));
    }
  }
  for (const auto& [res, sub] : subs)
    for (auto& a : out)
      if (a.plural == res) {
        if (sub == "status") a.status_subresource = true;
        if (sub == "scale") a.scale_subresource = true;
      }
  return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_group_versions(std::string_view body,
                                                                                     std::string* error) {
  std::string perr;
  auto doc = parse_answer_json(body, &perr);
  if (!doc || !doc->IsObject()) {
    if (error) *error = "malformed discovery document: " + perr;
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> out;
  if (const json_value* versions = member(*doc, "versions"); versions && versions->IsArray() &&
                                                                 get_string(*doc, {"kind"}) == "APIVersions") {
    for (const auto& v : versions->GetArray())
      if (v.IsString()) out.emplace_back("", std::string(as_string_view(v)));
    return out;
  }
  if (const json_value* groups = member(*doc, "groups"); groups && groups->IsArray()) {
    for (const auto& g : groups->GetArray()) {
      std::string name(get_string(g, {"name"}));
      if (const json_value* vs = member(g, "versions"); vs && vs->IsArray())
        for (const auto& v : vs->GetArray()) out.emplace_back(name, std::string(get_string(v, {"version"})));
    }
  }
  return out;
}

std::optional<api_resource> rest_mapper::find(const gvk& k) const {
  std::lock_guard lock(mu_);
  auto it = by_gv_.find({k.group, k.version});
  if (it == by_gv_.end()) return std::nullopt;
  for (const auto& r : it->second)
    if (r.kind == k.kind) return r;
  return std::nullopt;
}

void rest_mapper::set_group_version(const std::string& group, const std::string& version,
                                    std::vector<api_resource> resources) {
  std::lock_guard lock(mu_);
  by_gv_[{group, version}] = std::move(resources);
}

std::vector<api_resource> rest_mapper::all() const {
  std::lock_guard lock(mu_);
  std::vector<api_resource> out;
  for (const auto& [gv, rs] : by_gv_) out.insert(out.end(), rs.begin(), rs.end());
  return out;
}

}  // namespace c5c3::k8s
