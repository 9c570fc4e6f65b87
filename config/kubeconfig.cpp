#include "config/kubeconfig.hpp"

#include "config/base64.hpp"
#include "k8s/yaml.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace c5c3::config {

namespace fs = std::filesystem;
using k8s::get_bool;
using k8s::get_string;
using k8s::json_value;
using k8s::member;

namespace {

std::string resolve(const std::string& base_dir, std::string_view p) {
  if (p.empty()) return {};
  fs::path path{std::string(p)};
  if (path.is_absolute() || base_dir.empty()) return path.string();
  return (fs::path(base_dir) / path).lexically_normal().string();
}

// A *-data field: base64 text decoded; an error names the field, never the content.
expected<std::string> data_field(const json_value& v, std::string_view field, std::string_view where) {
  auto text = get_string(v, {field});
  if (text.empty()) return std::string();
  auto d = base64_decode(text);
  if (!d) return k8s::fail("invalid base64 in " + std::string(field) + " of " + std::string(where));
  return std::move(*d);
}

template <class F>
std::optional<std::string> for_each_named(const json_value& doc, std::string_view list, std::string_view inner, F f) {
  const json_value* arr = member(doc, list);
  if (!arr || arr->IsNull()) return std::nullopt;
  if (!arr->IsArray()) return std::string(list) + " must be a list";
  for (const auto& e : arr->GetArray()) {
    std::string name(get_string(e, {"name"}));
    if (name.empty()) return "an entry of " + std::string(list) + " has no name";
    const json_value* body = member(e, inner);
    static const json_value empty(rapidjson::kObjectType);
    if (auto err = f(name, body && body->IsObject() ? *body : empty)) return err;
  }
  return std::nullopt;
}

}  // namespace

expected<kubeconfig> parse_kubeconfig(std::string_view text, const std::string& base_dir) {
  std::string err;
  auto doc = k8s::yaml_to_json(text, &err);
  if (!doc) return "malformed kubeconfig: " + err;
  kubeconfig kc;
  if (doc->IsNull()) return kc;  // an empty file
  if (!doc->IsObject()) return std::string("malformed kubeconfig: not a mapping");
  kc.current_context = std::string(get_string(*doc, {"current-context"}));

  auto e1 = for_each_named(*doc, "clusters", "cluster", [&](const std::string& name, const json_value& c) -> std::optional<std::string> {
    cluster_entry ce;
    ce.server = std::string(get_string(c, {"server"}));
    ce.certificate_authority = resolve(base_dir, get_string(c, {"certificate-authority"}));
    auto ca = data_field(c, "certificate-authority-data", "cluster \"" + name + "\"");
    if (!ca.ok()) return ca.error();
    ce.certificate_authority_data = std::move(ca.value());
    ce.insecure_skip_tls_verify = get_bool(c, {"insecure-skip-tls-verify"}).value_or(false);
    ce.tls_server_name = std::string(get_string(c, {"tls-server-name"}));
    ce.proxy_url = std::string(get_string(c, {"proxy-url"}));
    kc.clusters.emplace(name, std::move(ce));
    return std::nullopt;
  });
  if (e1) return "malformed kubeconfig: " + *e1;

  auto e2 = for_each_named(*doc, "users", "user", [&](const std::string& name, const json_value& u) -> std::optional<std::string> {
    user_entry ue;
    std::string where = "user \"" + name + "\"";
    ue.token = std::string(get_string(u, {"token"}));
    ue.token_file = resolve(base_dir, get_string(u, {"tokenFile"}));
    ue.client_certificate = resolve(base_dir, get_string(u, {"client-certificate"}));
    ue.client_key = resolve(base_dir, get_string(u, {"client-key"}));
    auto cert = data_field(u, "client-certificate-data", where);
    if (!cert.ok()) return cert.error();
    ue.client_certificate_data = std::move(cert.value());
    auto key = data_field(u, "client-key-data", where);
    if (!key.ok()) return key.error();
    ue.client_key_data = std::move(key.value());
    ue.username = std::string(get_string(u, {"username"}));
    ue.password = std::string(get_string(u, {"password"}));
    ue.auth_provider = member(u, "auth-provider") && !member(u, "auth-provider")->IsNull();
    if (const json_value* ex = member(u, "exec"); ex && ex->IsObject()) {
      exec_config e;
      e.api_version = std::string(get_string(*ex, {"apiVersion"}));
      e.command = std::string(get_string(*ex, {"command"}));
      // A command with a path separator is relative to the kubeconfig file.
      if (e.command.find('/') != std::string::npos) e.command = resolve(base_dir, e.command);
      if (const json_value* args = member(*ex, "args"); args && args->IsArray())
        for (const auto& a : args->GetArray())
          if (a.IsString()) e.args.emplace_back(k8s::as_string_view(a));
      if (const json_value* env = member(*ex, "env"); env && env->IsArray())
        for (const auto& v : env->GetArray())
          e.env.emplace_back(std::string(get_string(v, {"name"})), std::string(get_string(v, {"value"})));
      e.interactive_mode = std::string(get_string(*ex, {"interactiveMode"}));
      e.provide_cluster_info = get_bool(*ex, {"provideClusterInfo"}).value_or(false);
      e.install_hint = std::string(get_string(*ex, {"installHint"}));
      ue.exec = std::move(e);
    }
    kc.users.emplace(name, std::move(ue));
    return std::nullopt;
  });
  if (e2) return "malformed kubeconfig: " + *e2;

  auto e3 = for_each_named(*doc, "contexts", "context", [&](const std::string& name, const json_value& c) -> std::optional<std::string> {
    context_entry ce;
    ce.cluster = std::string(get_string(c, {"cluster"}));
    ce.user = std::string(get_string(c, {"user"}));
    ce.namespace_ = std::string(get_string(c, {"namespace"}));
    kc.contexts.emplace(name, std::move(ce));
    return std::nullopt;
  });
  if (e3) return "malformed kubeconfig: " + *e3;
  return kc;
}

expected<kubeconfig> load_kubeconfig_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read kubeconfig " + path;
  std::stringstream ss;
  ss << in.rdbuf();
  auto dir = fs::absolute(fs::path(path)).parent_path().string();
  auto kc = parse_kubeconfig(ss.str(), dir);
  if (!kc.ok()) return kc.error() + " (in " + path + ")";
  return kc;
}

void merge_into(kubeconfig& into, const kubeconfig& later) {
  for (const auto& [k, v] : later.clusters) into.clusters.emplace(k, v);
  for (const auto& [k, v] : later.users) into.users.emplace(k, v);
  for (const auto& [k, v] : later.contexts) into.contexts.emplace(k, v);
  if (into.current_context.empty()) into.current_context = later.current_context;
}

std::vector<std::string> split_kubeconfig_paths(std::string_view value) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  while (true) {
    auto colon = value.find(':');
    std::string part(value.substr(0, colon));
    if (!part.empty() && seen.insert(part).second) out.push_back(part);
    if (colon == std::string_view::npos) break;
    value.remove_prefix(colon + 1);
  }
  return out;
}

expected<kubeconfig> load_kubeconfig_list(const std::vector<std::string>& paths) {
  kubeconfig merged;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) continue;
    auto kc = load_kubeconfig_file(p);
    if (!kc.ok()) return kc.error();
    merge_into(merged, kc.value());
  }
  return merged;
}

expected<selected_context> select_context(const kubeconfig& kc, const std::string& override_context) {
  selected_context s;
  s.name = override_context.empty() ? kc.current_context : override_context;
  if (s.name.empty()) return std::string("no context chosen: the kubeconfig has no current-context and none was given");
  auto c = kc.contexts.find(s.name);
  if (c == kc.contexts.end()) return "context \"" + s.name + "\" does not exist in the kubeconfig";
  s.context = c->second;
  auto cl = kc.clusters.find(s.context.cluster);
  if (cl == kc.clusters.end())
    return "cluster \"" + s.context.cluster + "\" of context \"" + s.name + "\" does not exist in the kubeconfig";
  s.cluster = cl->second;
  if (!s.context.user.empty()) {
    auto u = kc.users.find(s.context.user);
    if (u == kc.users.end())
      return "user \"" + s.context.user + "\" of context \"" + s.name + "\" does not exist in the kubeconfig";
    s.user = u->second;
  }
  return s;
}

}  // namespace c5c3::config
