// Lifecycle of the emulator: certificates and tokens, persisted state,
// manifests at start, the admin endpoints and the public API.
#include "sim/apiserver/apiserver.hpp"

#include "k8s/yaml.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/apiserver/faults_codec.hpp"
#include "sim/apiserver/kind_rules.hpp"
#include "sim/apiserver/service_account_token.hpp"
#include "sim/apiserver/write_log_codec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace c5c3::sim {

namespace fs = std::filesystem;
using k8s::json_document;
using k8s::json_value;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const fs::path& p, const std::string& text, bool secret) {
  auto tmp = p;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << text;
  }
  if (secret) fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write);
  fs::rename(tmp, p);
}

namespace {

std::string indent_b64(const std::string& pem) { return base64_encode(pem); }

}  // namespace

apiserver::impl::impl(apiserver_options o) : opts_(std::move(o)) {
  for (const auto& r : builtin_kinds()) register_kind_locked(r);
}

apiserver::impl::~impl() { stop(); }

void apiserver::impl::load_pki_and_token() {
  if (ca_.cert_pem.empty()) ca_ = make_ca("c5c3-sim-ca");
  if (serving_.cert_pem.empty())
    serving_ = make_signed(ca_, "c5c3-sim-apiserver", {}, true, {"localhost", "kubernetes", "kubernetes.default"},
                           {"127.0.0.1"});
  if (token_.empty()) token_ = random_hex(24);
  sa_key_ = service_account_signing_key(token_);
}

void apiserver::impl::load_token_file() {
  if (opts_.token_file.empty()) return;
  std::istringstream in(read_file(opts_.token_file));
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    // token,user,uid,"group1,group2"
    std::vector<std::string> fields;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields.push_back(cur);
        cur.clear();
      } else {
        cur.push_back(c);
      }
    }
    fields.push_back(cur);
    identity id;
    id.token = fields[0];
    id.user = fields.size() > 1 && !fields[1].empty() ? fields[1] : "token-user";
    if (fields.size() > 3) {
      std::string g;
      std::istringstream gs(fields[3]);
      while (std::getline(gs, g, ','))
        if (!g.empty()) id.groups.push_back(g);
    }
    id.groups.push_back("system:authenticated");
    tokens_[id.token] = id;
  }
}

void apiserver::impl::load_manifests(const std::string& dir) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(dir)) {
    files.push_back(dir);
  } else {
    if (!fs::is_directory(dir)) throw std::runtime_error("no such CRD directory: " + dir);
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      auto ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<json_document> docs;
  for (auto& f : files) {
    std::string err;
    auto ds = k8s::read_yaml_file(f.string(), &err);
    if (!ds) throw std::runtime_error(f.string() + ": " + err);
    for (auto& d : *ds)
      if (d.IsObject()) docs.push_back(std::move(d));
  }
  std::stable_sort(docs.begin(), docs.end(), [](const json_document& x, const json_document& y) {
    auto rank = [](const json_document& d) {
      auto k = k8s::get_string(d, {"kind"});
      return k == "CustomResourceDefinition" ? 0 : k == "Namespace" ? 1 : 2;
    };
    return rank(x) < rank(y);
  });
  std::lock_guard lock(mu_);
  for (auto& d : docs) {
    auto gvk = k8s::gvk::from_api_version(k8s::get_string(d, {"apiVersion"}), k8s::get_string(d, {"kind"}));
    const k8s::api_resource* kind = nullptr;
    for (auto& [key, r] : served_)
      if (r.group == gvk.group && r.version == gvk.version && r.kind == gvk.kind) kind = &r;
    if (!kind)
      throw std::runtime_error(fmt::format("manifest of unknown kind {} {}", gvk.api_version(), gvk.kind));
    k8s::api_resource copy = *kind;
    request_info ri = own_create(copy);
    if (copy.namespaced) {
      ri.namespace_ = k8s::get_string(d, {"metadata", "namespace"});
      if (ri.namespace_.empty()) ri.namespace_ = "default";
    }
    write_context ctx{"c5c3-sim", copy.api_version(), "", copy.status_subresource, false, &copy};
    try {
      create_locked(ri, std::move(d), false, &ctx);
    } catch (const api_failure& f) {
      if (!f.err.already_exists()) throw std::runtime_error("manifest rejected: " + f.err.message);
    }
  }
}

void apiserver::impl::start() {
  if (opts_.authorization_mode != "AlwaysAllow" && opts_.authorization_mode != "RBAC")
    throw std::runtime_error("unsupported authorization mode " + opts_.authorization_mode +
                             " (AlwaysAllow or RBAC)");
  for (const auto& p : opts_.admission_plugins)
    if (p != "OwnerReferencesPermissionEnforcement")
      throw std::runtime_error("unsupported admission plugin " + p + " (OwnerReferencesPermissionEnforcement)");
  {
    std::lock_guard lock(mu_);
    load_state();
    load_pki_and_token();
    load_token_file();
    for (const char* ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
      auto& sr = resource_locked(*find_kind_locked("", "v1", "namespaces"));
      if (sr.objects.count({"", ns})) continue;
      k8s::api_resource copy = sr.storage;
      request_info ri;
      ri.verb = "create";
      ri.version = "v1";
      ri.plural = "namespaces";
      ri.kind = &copy;
      json_document d;
      d.Parse(fmt::format(R"({{"metadata":{{"name":"{}"}}}})", ns).c_str());
      create_locked(ri, std::move(d), false, nullptr);
    }
    sync_local_apiservices_locked();
    ensure_bootstrap_policy_locked();
  }
  for (auto& dir : opts_.crd_dirs) load_manifests(dir);
  if (!opts_.faults_file.empty()) load_faults_file(opts_.faults_file);
  {
    std::lock_guard lock(mu_);
    save_state_locked();
    stopping_ = false;
  }
  std::optional<k8s::tls_config> tls;
  if (!opts_.plain_http) tls = k8s::tls_config{serving_.cert_pem, serving_.key_pem, ca_.cert_pem};
  server_ = std::make_unique<k8s::http_server>(
      opts_.listen, tls, [this](const k8s::http_request& req, k8s::http_responder& res) { handle(req, res); });
  server_->start();
}

void apiserver::impl::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& [resource, wake] : watch_wakes_) wake.notify_all();
  }
  if (server_) server_->stop();
  std::lock_guard lock(mu_);
  if (server_) {
    try {
      save_state_locked();
    } catch (...) {
    }
  }
}

void apiserver::impl::serve_admin(const k8s::http_request& req, k8s::http_responder& res) {
  auto send = [&](int code, const json_value& v) {
    res.send({code, {{"Content-Type", "application/json"}}, k8s::to_json(v)});
  };
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  if (req.path == "/sim/writelog" && req.method == "GET") {
    d.SetArray();
    // ?since=SEQ: only the writes after SEQ (a reader that keeps its place).
    std::uint64_t since = 0;
    if (auto s = req.param("since")) {
      try {
        since = std::stoull(*s);
      } catch (const std::exception&) {
        fail(k8s::make_bad_request("since: not a sequence number: " + *s));
      }
    }
    std::lock_guard lock(log_mu_);
    for (auto& w : write_log_)
      if (w.seq > since) d.PushBack(write_record_to_json(w, a), a);
    send(200, d);
    return;
  }
  if (req.path == "/sim/doublewriters" && req.method == "GET") {
    std::lock_guard lock(log_mu_);
    json_value writes(rapidjson::kArrayType);
    for (const auto& w : double_writes_) {
      json_value v(rapidjson::kObjectType);
      v.AddMember("replica", k8s::make_string(w.replica, a), a);
      v.AddMember("holder", k8s::make_string(w.holder, a), a);
      v.AddMember("verb", k8s::make_string(w.verb, a), a);
      v.AddMember("resource", k8s::make_string(w.resource, a), a);
      v.AddMember("namespace", k8s::make_string(w.namespace_, a), a);
      v.AddMember("name", k8s::make_string(w.name, a), a);
      v.AddMember("order", k8s::make_string(w.order, a), a);
      writes.PushBack(std::move(v), a);
    }
    d.AddMember("count", json_value(static_cast<std::uint64_t>(double_writes_.size())), a);
    d.AddMember("writes", std::move(writes), a);
    send(200, d);
    return;
  }
  if (req.path == "/sim/doublewriters" && req.method == "DELETE") {
    std::lock_guard lock(log_mu_);
    double_writes_.clear();
    send(200, d);
    return;
  }
  if (req.path == "/sim/writelog" && req.method == "DELETE") {
    std::lock_guard lock(log_mu_);
    write_log_.clear();
    send(200, d);
    return;
  }
  if (req.path == "/sim/faults" && req.method == "GET") {
    std::lock_guard lock(faults_mu_);
    json_value rules(rapidjson::kArrayType);
    for (auto& f : faults_) rules.PushBack(fault_to_json(f, a), a);
    json_value counts(rapidjson::kObjectType);
    for (auto& [id, n] : counters_.by_rule)
      counts.AddMember(k8s::make_string(id, a), json_value(static_cast<std::uint64_t>(n)), a);
    d.AddMember("rules", std::move(rules), a);
    d.AddMember("counters", std::move(counts), a);
    d.AddMember("total", json_value(static_cast<std::uint64_t>(counters_.total)), a);
    send(200, d);
    return;
  }
  if (req.path == "/sim/faults" && req.method == "POST") {
    std::vector<fault_rule> rules;
    try {
      rules = faults_from_yaml(req.body);
    } catch (const std::exception& e) {
      fail(k8s::make_bad_request(e.what()));
    }
    json_value ids(rapidjson::kArrayType);
    for (auto& r : rules) ids.PushBack(k8s::make_string(add_fault_rule(std::move(r)), a), a);
    d.AddMember("ids", std::move(ids), a);
    send(201, d);
    return;
  }
  if (req.path == "/sim/faults" && req.method == "DELETE") {
    clear_fault_rules();
    send(200, d);
    return;
  }
  if (req.path.rfind("/sim/faults/", 0) == 0 && req.method == "DELETE") {
    std::string id = req.path.substr(12);
    if (!remove_fault_rule(id)) {
      k8s::api_error e;
      e.code = 404;
      e.reason = k8s::reasons::not_found;
      e.message = "fault rule \"" + id + "\" not found";
      fail(e);
    }
    send(200, d);
    return;
  }
  fail(not_found_path());
}

// ---- public API ----

apiserver::apiserver(apiserver_options opts) : impl_(std::make_unique<impl>(std::move(opts))) {}
apiserver::~apiserver() = default;
void apiserver::start() { impl_->start(); }
void apiserver::stop() { impl_->stop(); }

std::uint16_t apiserver::port() const { return impl_->server_ ? impl_->server_->port() : 0; }
std::string apiserver::url() const {
  std::string host = impl_->server_ ? impl_->server_->host() : "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return fmt::format("{}://{}:{}", impl_->opts_.plain_http ? "http" : "https", host, port());
}
std::string apiserver::ca_pem() const { return impl_->ca_.cert_pem; }
std::string apiserver::token() const { return impl_->token_; }

std::string apiserver::service_account_token(const std::string& namespace_, const std::string& name,
                                             std::chrono::seconds ttl) const {
  std::lock_guard lock(impl_->mu_);
  try {
    return impl_->issue_token_locked(namespace_, name, ttl.count(), {std::string(service_account_issuer)});
  } catch (const api_failure& f) {
    throw std::runtime_error(f.err.message);
  }
}

std::string apiserver::kubeconfig_yaml() const {
  std::string cluster = impl_->opts_.plain_http
                            ? fmt::format("    server: {}\n", url())
                            : fmt::format("    server: {}\n    certificate-authority-data: {}\n", url(),
                                          indent_b64(ca_pem()));
  return fmt::format(
      "apiVersion: v1\nkind: Config\nclusters:\n- name: c5c3-sim\n  cluster:\n{}"
      "users:\n- name: c5c3-sim-admin\n  user:\n    token: {}\n"
      "contexts:\n- name: c5c3-sim\n  context:\n    cluster: c5c3-sim\n    user: c5c3-sim-admin\n"
      "    namespace: default\ncurrent-context: c5c3-sim\npreferences: {{}}\n",
      cluster, token());
}

void apiserver::write_kubeconfig(const std::string& path) const {
  write_file_atomic(path, kubeconfig_yaml(), true);
}

client_certificate apiserver::issue_client_certificate(const std::string& cn,
                                                       const std::vector<std::string>& groups) const {
  auto kp = make_signed(impl_->ca_, cn, groups, false);
  return {kp.cert_pem, kp.key_pem};
}

std::string apiserver::add_fault(fault_rule rule) { return impl_->add_fault_rule(std::move(rule)); }
bool apiserver::remove_fault(const std::string& id) { return impl_->remove_fault_rule(id); }
void apiserver::clear_faults() { impl_->clear_fault_rules(); }
std::vector<fault_rule> apiserver::faults() const {
  std::lock_guard lock(impl_->faults_mu_);
  return impl_->faults_;
}
fault_counters apiserver::fault_counts() const {
  std::lock_guard lock(impl_->faults_mu_);
  return impl_->counters_;
}

std::uint64_t apiserver::connections_accepted() const {
  return impl_->server_ ? impl_->server_->connections_accepted() : 0;
}

std::vector<write_record> apiserver::write_log() const {
  std::lock_guard lock(impl_->log_mu_);
  return impl_->write_log_;
}
std::vector<double_write> apiserver::double_writes() const {
  std::lock_guard lock(impl_->log_mu_);
  return impl_->double_writes_;
}
void apiserver::clear_double_writes() {
  std::lock_guard lock(impl_->log_mu_);
  impl_->double_writes_.clear();
}
void apiserver::clear_write_log() {
  std::lock_guard lock(impl_->log_mu_);
  impl_->write_log_.clear();
}

k8s::object apiserver::get_object(const std::string& resource, const std::string& namespace_,
                                  const std::string& name) const {
  std::lock_guard lock(impl_->mu_);
  auto it = impl_->resources_.find(resource);
  if (it == impl_->resources_.end()) return {};
  auto o = it->second.objects.find({namespace_, name});
  return o == it->second.objects.end() ? k8s::object{} : o->second;
}

std::vector<k8s::object> apiserver::list_objects(const std::string& resource,
                                                 const std::string& namespace_) const {
  std::lock_guard lock(impl_->mu_);
  std::vector<k8s::object> out;
  auto it = impl_->resources_.find(resource);
  if (it == impl_->resources_.end()) return out;
  for (auto& [k, o] : it->second.objects)
    if (namespace_.empty() || k.namespace_ == namespace_) out.push_back(o);
  return out;
}

std::int64_t apiserver::current_resource_version() const {
  std::lock_guard lock(impl_->mu_);
  return impl_->rv_;
}

}  // namespace c5c3::sim
