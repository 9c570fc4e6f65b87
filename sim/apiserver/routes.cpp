// The HTTP front of the emulator: authentication, paths to resources, verbs,
// content negotiation, faults and the write log.
#include "k8s/patch.hpp"
#include "k8s/yaml.hpp"
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/bridges.hpp"
#include "sim/apiserver/hostile.hpp"
#include "sim/apiserver/kind_rules.hpp"
#include "sim/apiserver/protobuf_body.hpp"

#include <fmt/format.h>

#include <thread>

namespace c5c3::sim {

std::vector<std::string> split_path(std::string_view p) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < p.size()) {
    auto j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    if (j > i) out.emplace_back(p.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

using k8s::json_document;
using k8s::json_value;

namespace {


bool contains(std::string_view h, std::string_view what) { return h.find(what) != std::string_view::npos; }

k8s::http_response json_response(int code, const json_value& v) {
  return {code, {{"Content-Type", "application/json"}, {"Cache-Control", "no-cache, private"}},
          k8s::to_json(v)};
}

k8s::http_response error_response(const k8s::api_error& e) {
  auto body = k8s::make_status_body(e);
  auto res = json_response(e.code, body);
  if (e.retry_after_seconds) res.headers.emplace_back("Retry-After", std::to_string(*e.retry_after_seconds));
  return res;
}

// Go's strconv.ParseBool truths (and a bare `?watch`).
bool truthy(const std::optional<std::string>& v) {
  return v && (v->empty() || *v == "1" || *v == "t" || *v == "T" || *v == "true" || *v == "TRUE" ||
               *v == "True");
}

}  // namespace

json_document parse_body(const k8s::http_request& req, bool yaml_ok) {
  auto ct = req.header("Content-Type");
  if (contains(ct, "protobuf")) {
    // kubectl's typed clients (create configmap|namespace|secret|...) send
    // protobuf; kinds the decoder does not know answer kube's 415.
    auto d = decode_protobuf_object(req.body);
    if (d.object) return std::move(*d.object);
    if (!d.error.empty())
      fail(k8s::make_bad_request("the body of the request could not be decoded as protobuf: " + d.error));
    fail(k8s::make_unsupported_media_type(
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json, application/yaml, application/vnd.kubernetes.protobuf"));
  }
  std::string err;
  if (yaml_ok && contains(ct, "yaml")) {
    auto d = k8s::yaml_to_json(req.body, &err);
    if (!d || !d->IsObject()) fail(k8s::make_bad_request("error decoding YAML: " + err));
    return std::move(*d);
  }
  auto d = k8s::parse_json(req.body, &err, k8s::duplicate_keys::keep);  // fieldValidation reports them
  if (!d) fail(k8s::make_bad_request("the body of the request could not be decoded as JSON: " + err));
  return std::move(*d);
}

std::string field_manager_of(const k8s::http_request& req) {
  if (auto fm = req.param("fieldManager"); fm && !fm->empty()) return *fm;
  std::string ua(req.header("User-Agent"));
  auto slash = ua.find('/');
  return slash == std::string::npos ? ua : ua.substr(0, slash);
}

k8s::api_error not_found_path() {
  k8s::api_error e;
  e.code = 404;
  e.reason = k8s::reasons::not_found;
  e.message = "the server could not find the requested resource";
  return e;
}

std::optional<identity> apiserver::impl::authenticate(const k8s::http_request& req) const {
  auto authz = req.header("Authorization");
  if (authz.size() > 7 && (authz.substr(0, 7) == "Bearer " || authz.substr(0, 7) == "bearer ")) {
    std::string tok(authz.substr(7));
    while (!tok.empty() && tok.back() == ' ') tok.pop_back();
    if (tok == token_) return identity{"admin", {"system:masters", "system:authenticated"}, tok};
    if (auto it = tokens_.find(tok); it != tokens_.end()) return it->second;
    return authenticate_service_account(tok);
  }
  if (req.peer && !req.peer->common_name.empty()) {
    identity id{req.peer->common_name, req.peer->organizations, ""};
    id.groups.push_back("system:authenticated");
    return id;
  }
  // kubectl (clientcmd) never sends credentials to an http:// server, so the
  // plain-http listener is what kube-apiserver's insecure port was: requests
  // without credentials are system:unsecured in system:masters.
  if (opts_.plain_http) return identity{"system:unsecured", {"system:masters", "system:authenticated"}, ""};
  return std::nullopt;
}

std::optional<discovery_answer> apiserver::impl::cached_discovery(const k8s::http_request& req) {
  std::string accept(req.header("Accept")), host(req.header("Host"));
  std::string key = req.path + '\n' + accept + '\n' + host;
  std::vector<k8s::api_resource> served;
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mu_);
    if (discovery_generation_ != kinds_generation_) {
      discovery_cache_.clear();
      discovery_generation_ = kinds_generation_;
    }
    if (auto it = discovery_cache_.find(key); it != discovery_cache_.end()) return it->second;
    served = served_kinds_locked();
    generation = kinds_generation_;
  }
  // Rendered outside the lock; kept only if no kind changed meanwhile.
  auto d = discovery(req.path, accept, served, host);
  if (!d) return d;
  std::lock_guard lock(mu_);
  if (generation == kinds_generation_ && discovery_generation_ == generation) {
    if (discovery_cache_.size() >= 512) discovery_cache_.clear();
    discovery_cache_.emplace(std::move(key), *d);
  }
  return d;
}

void apiserver::impl::handle(const k8s::http_request& req, k8s::http_responder& res) {
  const std::string& path = req.path;
  if (path == "/livez" || path == "/readyz" || path == "/healthz" || path.rfind("/livez/", 0) == 0 ||
      path.rfind("/readyz/", 0) == 0) {
    res.send({200, {{"Content-Type", "text/plain; charset=utf-8"}}, "ok"});
    return;
  }
  if (path == "/version" || path == "/version/") {
    res.send({200,
              {{"Content-Type", "application/json"}},
              R"({"major":"1","minor":"32","gitVersion":"v1.32.0-c5c3sim","gitCommit":"0000000000000000000000000000000000000000","gitTreeState":"clean","buildDate":"2026-01-01T00:00:00Z","goVersion":"go1.23.0","compiler":"gc","platform":"linux/amd64"})"});
    return;
  }
  auto who = authenticate(req);
  if (!who) {
    res.send(error_response(k8s::make_unauthorized()));
    return;
  }
  if (auto denied = check_access(req, *who)) {
    res.send(error_response(*denied));
    return;
  }
  try {
    if (path.rfind("/sim/", 0) == 0) {
      serve_admin(req, res);
      return;
    }
    auto segs = split_path(path);
    bool resource_path = (segs.size() >= 3 && segs[0] == "api") || (segs.size() >= 4 && segs[0] == "apis");
    if (!resource_path) {
      if (req.method == "GET") {
        if (auto d = cached_discovery(req)) {
          res.send({d->code, {{"Content-Type", d->content_type}}, std::move(d->body)});
          return;
        }
      }
      res.send({404, {{"Content-Type", "text/plain; charset=utf-8"}}, "404 page not found\n"});
      return;
    }
    request_info ri;
    ri.who = &*who;
    std::size_t at = 0;
    if (segs[0] == "api") {
      ri.version = segs[1];
      at = 2;
    } else {
      ri.group = segs[1];
      ri.version = segs[2];
      at = 3;
    }
    std::vector<std::string> rest(segs.begin() + static_cast<long>(at), segs.end());
    bool legacy_watch = false;
    if (!rest.empty() && rest[0] == "watch") {
      legacy_watch = true;
      rest.erase(rest.begin());
    }
    if (rest.size() >= 2 && rest[0] == "namespaces" &&
        !(rest.size() == 3 && (rest[2] == "status" || rest[2] == "finalize")) && rest.size() != 2) {
      ri.namespace_ = rest[1];
      rest.erase(rest.begin(), rest.begin() + 2);
    }
    if (rest.empty() || rest.size() > 3) {
      res.send(error_response(not_found_path()));
      return;
    }
    ri.plural = rest[0];
    if (rest.size() >= 2) ri.name = rest[1];
    if (rest.size() == 3) ri.subresource = rest[2];
    if (ri.plural == "namespaces" && ri.namespace_.empty() && !ri.name.empty())
      ri.namespace_.clear();
    const std::string& m = req.method;
    if (m == "GET") {
      if (legacy_watch || truthy(req.param("watch")))
        ri.verb = "watch";
      else
        ri.verb = ri.name.empty() ? "list" : "get";
    } else if (m == "POST") {
      ri.verb = "create";
    } else if (m == "PUT") {
      ri.verb = "update";
    } else if (m == "PATCH") {
      ri.verb = "patch";
    } else if (m == "DELETE") {
      ri.verb = ri.name.empty() ? "deletecollection" : "delete";
    } else {
      res.send(error_response(k8s::make_method_not_allowed(
          fmt::format("the server does not allow this method on the requested resource"))));
      return;
    }
    {
      std::lock_guard lock(mu_);
      ri.kind = find_kind_locked(ri.group, ri.version, ri.plural);
      if (ri.kind) {
        // Copy: the served map may change while the request runs.
        static thread_local k8s::api_resource copy;
        copy = *ri.kind;
        ri.kind = &copy;
      }
    }
    if (ri.kind && ri.group.empty() && ri.plural == "serviceaccounts" && ri.subresource == "token" &&
        !ri.namespace_.empty()) {
      serve_token_request(req, res, ri);
      return;
    }
    if (ri.kind && ri.group == "authentication.k8s.io" && ri.plural == "selfsubjectreviews") {
      serve_self_subject_review(res, ri, *who);
      return;
    }
    if (!ri.kind || (!ri.subresource.empty() && !(ri.subresource == "status" && ri.kind->status_subresource)) ||
        (!ri.kind->namespaced && !ri.namespace_.empty() && ri.plural != "namespaces")) {
      res.send(error_response(not_found_path()));
      return;
    }
    if (ri.kind->namespaced && ri.namespace_.empty() && ri.verb != "list" && ri.verb != "watch") {
      res.send(error_response(not_found_path()));
      return;
    }
    serve_resource(req, res, ri, *who);
  } catch (const api_failure& f) {
    res.send(error_response(f.err));
  }
}

void apiserver::impl::serve_resource(const k8s::http_request& req, k8s::http_responder& res,
                                     request_info& ri, const identity& who) {
  auto fault = match_fault(ri, req, who);
  if (fault && !fault->body.empty()) {
    hostile_responder spoiled(res, *fault);
    serve_matched(req, spoiled, ri, who, fault);
    return;
  }
  serve_matched(req, res, ri, who, fault);
}

void apiserver::impl::serve_matched(const k8s::http_request& req, k8s::http_responder& res, request_info& ri,
                                    const identity& who, const std::optional<fault_rule>& fault) {
  const auto& r = *ri.kind;
  if (fault) {
    if (fault->latency.count() > 0) std::this_thread::sleep_for(fault->latency);
    if (fault->reset_connection) {
      res.reset_connection();
      return;
    }
    if (fault->status_code > 0) {
      int c = fault->status_code;
      std::string msg = fault->message;
      k8s::api_error e;
      if (c == 429)
        e = k8s::make_too_many_requests(msg.empty() ? "Too many requests, please try again later." : msg,
                                        fault->retry_after_seconds);
      else if (c == 503) {
        e = k8s::make_service_unavailable(msg.empty() ? "the server is currently unable to handle the request" : msg);
        e.retry_after_seconds = fault->retry_after_seconds;
      } else if (c == 409)
        e = k8s::make_conflict(r.group, r.plural, ri.name,
                               msg.empty() ? "the object has been modified; please apply your changes "
                                             "to the latest version and try again"
                                           : msg);
      else if (c == 410)
        e = k8s::make_expired(msg.empty() ? "too old resource version" : msg);
      else if (c == 404)
        e = k8s::make_not_found(r.group, r.plural, ri.name);
      else {
        e = k8s::make_internal_error(msg.empty() ? "an error on the server (\"injected fault\") has prevented the request from succeeding" : msg);
        e.code = c;
      }
      bool mutating = ri.verb != "get" && ri.verb != "list" && ri.verb != "watch";
      if (mutating) log_write(ri, req, who, c, "", false);
      res.send(error_response(e));
      return;
    }
  }
  if (ri.verb == "watch") {
    serve_watch(req, res, ri, fault ? fault->cut_watch_after_events : -1, fault && fault->expire_resume);
    return;
  }
  if (ri.verb == "list") {
    if (fault && fault->expire_resume && req.param("resourceVersion") &&
        *req.param("resourceVersion") != "" && *req.param("resourceVersion") != "0") {
      res.send(error_response(k8s::make_expired(
          fmt::format("too old resource version: {} ({})", *req.param("resourceVersion"),
                      current_rv()))));
      return;
    }
    serve_list(req, res, ri);
    return;
  }
  if (ri.verb == "get") {
    k8s::object o;
    {
      std::lock_guard lock(mu_);
      auto& sr = resource_locked(r);
      auto it = sr.objects.find({r.namespaced ? ri.namespace_ : "", ri.name});
      if (it != sr.objects.end()) o = convert_for(it->second, r);
    }
    if (!o) fail(k8s::make_not_found(r.group, r.plural, ri.name));
    send_object(req, res, r, o, 200);
    return;
  }
  // Mutations.
  bool dry_run = req.param("dryRun").has_value() && *req.param("dryRun") == "All";
  if (auto dr = req.param("dryRun"); dr && *dr != "All")
    fail(k8s::make_bad_request(fmt::format(
        "Invalid dryRun value: \"{}\": supported values: \"All\"", *dr)));
  auto validation_mode = parse_field_validation(req.param("fieldValidation").value_or(""));
  if (!validation_mode)
    fail(k8s::make_bad_request(fmt::format(
        "Invalid fieldValidation value: \"{}\": supported values: \"Ignore\", \"Warn\", \"Strict\"",
        req.param("fieldValidation").value_or(""))));
  // Duplicate and unknown fields of a create or update body (field_validation.hpp).
  std::vector<std::string> warnings;
  auto check_body = [&](json_document& body) {
    if (contains(req.header("Content-Type"), "protobuf")) return;
    auto found = check_fields(r, body);
    if (found.empty()) return;
    if (*validation_mode == field_validation::strict)
      fail(k8s::make_bad_request(fmt::format("{} in version \"{}\" cannot be handled as a {}: {}", r.kind,
                                             r.version, r.kind, found.strict_error())));
    if (*validation_mode == field_validation::warn) warnings = found.warning_headers();
  };
  std::string verb = ri.verb;
  int code = 500;
  std::string rv;
  (void)code;
  try {
    if (ri.verb == "create") {
      if (!ri.name.empty() || !ri.subresource.empty())
        fail(k8s::make_method_not_allowed("the server does not allow this method on the requested resource"));
      auto body = parse_body(req);
      check_body(body);
      k8s::object created;
      {
        std::lock_guard lock(mu_);
        write_context ctx{field_manager_of(req), r.api_version(), "", r.status_subresource, false, &r};
        created = create_locked(ri, std::move(body), dry_run, &ctx);
        ri.name = std::string(created.name());
        if (!dry_run) save_state_locked();
      }
      rv = std::string(created.resource_version());
      code = 201;
      log_write(ri, req, who, code, rv, dry_run, verb, &created);
      send_object(req, res, r, convert_for(created, r), 201, warnings);
    } else if (ri.verb == "update") {
      auto body = parse_body(req);
      check_body(body);
      k8s::object updated, before;
      {
        std::lock_guard lock(mu_);
        write_context ctx{field_manager_of(req), r.api_version(), ri.subresource,
                          r.status_subresource, false, &r};
        updated = update_locked(ri, std::move(body), dry_run, &ctx, false, &before);
        if (!dry_run) save_state_locked();
      }
      rv = std::string(updated.resource_version());
      code = 200;
      log_write(ri, req, who, code, rv, dry_run, verb, &updated, &before);
      send_object(req, res, r, convert_for(updated, r), 200, warnings);
    } else if (ri.verb == "patch") {
      k8s::object patched;
      int created = 0;
      // As kube-apiserver: a server-side apply that would create the object is
      // authorized as create too (api-concepts "Patch and apply").
      if (std::string_view(req.header("Content-Type")).find("application/apply-patch") != std::string_view::npos) {
        bool exists = false;
        {
          std::lock_guard lock(mu_);
          auto& sr = resource_locked(*ri.kind);
          exists = sr.objects.count({ri.kind->namespaced ? ri.namespace_ : "", ri.name}) > 0;
        }
        if (!exists)
          if (auto denied = check_access(req, who, "create")) fail(std::move(*denied));
      }
      k8s::object before;
      patched = patch(req, ri, dry_run, created, verb, warnings, &before);
      rv = std::string(patched.resource_version());
      code = created ? 201 : 200;
      log_write(ri, req, who, code, rv, dry_run, verb, &patched, &before);
      send_object(req, res, r, convert_for(patched, r), code, warnings);
    } else if (ri.verb == "delete") {
      std::optional<json_document> opts;
      if (!req.body.empty()) opts = parse_body(req, false);
      std::string propagation = req.param("propagationPolicy").value_or("");
      if (propagation.empty() && opts) propagation = k8s::get_string(*opts, {"propagationPolicy"});
      if (opts) {
        auto dr = k8s::find(*opts, {"dryRun"});
        if (dr && dr->IsArray() && dr->Size() > 0) dry_run = true;
      }
      std::pair<k8s::object, bool> result;
      {
        std::lock_guard lock(mu_);
        result = delete_locked(ri, opts ? &*opts : nullptr, dry_run, propagation);
        if (!dry_run) save_state_locked();
      }
      code = 200;
      log_write(ri, req, who, code, std::string(result.first.resource_version()), dry_run, verb, &result.first);
      if (result.second && is_builtin(r) && !(r.group.empty() && r.plural == "namespaces")) {
        res.send(json_response(200, k8s::make_success_status(r.group, r.plural, ri.name,
                                                               result.first.uid())));
      } else {
        send_object(req, res, r, convert_for(result.first, r), 200);
      }
    } else if (ri.verb == "deletecollection") {
      log_write(ri, req, who, 200, "", dry_run, verb);
      delete_collection(req, res, ri, dry_run);
    }
  } catch (const api_failure& f) {
    log_write(ri, req, who, f.err.code, "", dry_run, verb);
    throw;
  }
}

void apiserver::impl::log_write(const request_info& ri, const k8s::http_request& req,
                                const identity& who, int code, const std::string& rv, bool dry_run,
                                const std::string& verb, const k8s::object* written,
                                const k8s::object* before) {
  const std::string& did = verb.empty() ? ri.verb : verb;
  if (written && code >= 200 && code < 300 && !dry_run)
    check_double_writer(ri, req, did, *written, before ? *before : k8s::object{});
  // The write counts towards after_writes before its answer goes out, so a
  // rule armed by it meets the client's next request.
  if (code >= 200 && code < 300 && !dry_run) count_write_for_faults(ri, did, req, who);
  std::lock_guard lock(log_mu_);
  write_record w;
  w.seq = ++write_seq_;
  w.client = who.user;
  w.user_agent = req.header("User-Agent");
  w.verb = did;
  w.group = ri.group;
  w.resource = ri.resource();
  w.namespace_ = ri.namespace_;
  w.name = ri.name;
  w.code = code;
  w.at = std::chrono::steady_clock::now();
  w.resource_version = rv;
  w.dry_run = dry_run;
  if (opts_.record_write_bodies) {
    w.method = req.method;
    w.target = req.target;
    w.content_type = req.header("Content-Type");
    w.body = req.body;
  }
  write_log_.push_back(std::move(w));
}

std::int64_t apiserver::impl::current_rv() const {
  std::lock_guard lock(mu_);
  return rv_;
}

void apiserver::impl::send_object(const k8s::http_request& req, k8s::http_responder& res,
                                  const k8s::api_resource& r, const k8s::object& o, int code,
                                  const std::vector<std::string>& warnings) {
  auto accept = req.header("Accept");
  k8s::http_response out;
  if (contains(accept, "as=Table")) {
    auto t = table_of(r, o, req.param("includeObject").value_or(""));
    out = {code, {{"Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io"}}, k8s::to_json(t)};
  } else {
    check_acceptable(accept);
    if (contains(accept, "yaml") && !contains(accept, "json"))
      out = {code, {{"Content-Type", "application/yaml"}}, k8s::json_to_yaml(o.json())};
    else
      out = json_response(code, o.json());
  }
  for (const auto& w : warnings) out.headers.emplace_back("Warning", w);
  res.send(std::move(out));
}

void check_acceptable(std::string_view accept) {
  if (accept.empty()) return;
  if (contains(accept, "json") || contains(accept, "*/*") || contains(accept, "application/*") ||
      contains(accept, "protobuf") || contains(accept, "yaml"))
    return;
  fail(k8s::make_not_acceptable(
      "only the following media types are accepted: application/json, application/yaml, "
      "application/vnd.kubernetes.protobuf"));
}

}  // namespace c5c3::sim
