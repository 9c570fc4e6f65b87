// list (selectors, limit/continue, resourceVersion semantics) and
// deletecollection; watch streams are watch_stream.cpp.
#include "sim/apiserver/apiserver_impl.hpp"
#include "sim/apiserver/events.hpp"
#include "sim/apiserver/kind_rules.hpp"

#include <fmt/format.h>

#include <chrono>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;

std::optional<std::int64_t> parse_rv(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > (std::int64_t{1} << 53)) return std::nullopt;
  }
  return v;
}

k8s::api_error invalid_rv(const std::string& rv) {
  return k8s::make_bad_request(fmt::format("invalid resource version: {}", rv));
}

namespace {

k8s::api_error too_large(std::int64_t want, std::int64_t have) {
  k8s::api_error e;
  e.code = 504;
  e.reason = k8s::reasons::timeout;
  e.message = fmt::format("Too large resource version: {}, current: {}", want, have);
  e.causes.push_back({"ResourceVersionTooLarge", "Too large resource version", ""});
  e.retry_after_seconds = 1;
  return e;
}

// kube's continue token: {"v":"meta.k8s.io/v1","rv":N,"start":"<next key>"};
// rv -1 continues at the latest state (the token a 410 hands out).
std::string continue_token(std::int64_t rv, const std::string& start) {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("v", "meta.k8s.io/v1", a);
  d.AddMember("rv", json_value(rv), a);
  d.AddMember("start", k8s::make_string(start, a), a);
  return k8s::base64_raw_url_encode(k8s::to_json(d));
}

// apiserver's storage.DecodeContinue: the start key and resourceVersion of a
// token, or 400 "invalid continue token: continue key is not valid...".
std::pair<std::string, std::int64_t> decode_continue(const std::string& token) {
  auto invalid = [](const std::string& why) {
    fail(k8s::make_bad_request("invalid continue token: continue key is not valid" + why));
  };
  std::string std_alphabet = token;  // RawURLEncoding as StdEncoding
  for (auto& c : std_alphabet) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (std_alphabet.size() % 4) std_alphabet.push_back('=');
  std::size_t bad = 0;
  auto raw = base64_decode(std_alphabet, &bad);
  if (!raw) invalid(fmt::format(": illegal base64 data at input byte {}", bad));
  auto tok = k8s::parse_json(*raw);
  if (!tok || !tok->IsObject()) invalid(": the token is not a JSON object");
  if (k8s::get_string(*tok, {"v"}) != "meta.k8s.io/v1")
    invalid(": server does not recognize this encoded version");
  auto rv = k8s::get_int(*tok, {"rv"}).value_or(0);
  if (rv == 0) invalid(": incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  std::string start(k8s::get_string(*tok, {"start"}));
  if (start.empty()) invalid(": encoded start key empty (version meta.k8s.io/v1)");
  if (start.find("..") != std::string::npos || start.find("//") != std::string::npos) invalid(": " + start);
  return {start, rv};
}
std::string continue_token(std::int64_t rv, const k8s::object_key& last) {
  return continue_token(rv, last.to_string() + std::string(1, '\0'));
}

// The key a continue token's start names ("namespace/name", or "name" for a
// cluster-scoped object).
k8s::object_key key_of_start(const std::string& start) {
  auto slash = start.find('/');
  if (slash == std::string::npos) return {"", start};
  return {start.substr(0, slash), start.substr(slash + 1)};
}

bool contains(std::string_view h, std::string_view what) { return h.find(what) != std::string_view::npos; }

}  // namespace

std::string event_line(const std::string& type, const json_value& obj) {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("type", k8s::make_string(type, a), a);
  d.AddMember("object", k8s::copy_json(obj, a), a);
  return k8s::to_json(d) + "\n";
}

std::optional<std::pair<std::string, k8s::object>> as_seen_through(const watch_event& ev,
                                                                   const list_filter& filter) {
  if (ev.type != "MODIFIED" || !ev.prev) {
    if (!filter.matches(ev.obj)) return std::nullopt;
    return std::make_pair(ev.type, ev.obj);
  }
  bool now = filter.matches(ev.obj), before = filter.matches(ev.prev);
  if (now && before) return std::make_pair(std::string("MODIFIED"), ev.obj);
  if (now) return std::make_pair(std::string("ADDED"), ev.obj);
  if (!before) return std::nullopt;
  // Left the selector: DELETED with the previous content at the event's version.
  auto b = ev.prev.edit();
  b.set_resource_version(std::to_string(ev.rv));
  return std::make_pair(std::string("DELETED"), std::move(b).freeze());
}

bool list_filter::matches(const k8s::object& o) const {
  if (!namespace_.empty() && o.namespace_() != namespace_) return false;
  return labels.matches(o) && fields.matches(o);
}

list_filter parse_filter(const k8s::http_request& req, const request_info& ri) {
  list_filter f;
  f.namespace_ = ri.kind && ri.kind->namespaced ? ri.namespace_ : "";
  std::string err;
  if (auto ls = req.param("labelSelector"); ls && !ls->empty()) {
    auto p = k8s::label_selector::parse(*ls, &err);
    if (!p) fail(k8s::make_bad_request(err));  // the parser's message is kube's, whole
    f.labels = std::move(*p);
  }
  if (auto fs = req.param("fieldSelector"); fs && !fs->empty()) {
    auto p = k8s::field_selector::parse(*fs, &err);
    if (!p) fail(k8s::make_bad_request(err));
    std::vector<k8s::field_requirement> reqs;
    for (auto r : p->requirements()) {
      if (ri.kind && (is_core_event(*ri.kind) || is_events_group_event(*ri.kind))) {
        // Both views select on the stored (core) fields.
        auto path = event_field_path(r.field, is_events_group_event(*ri.kind));
        if (!path) fail(k8s::make_bad_request(fmt::format("field label not supported: {}", r.field)));
        r.field = *path;
      } else if (r.field != "metadata.name" && r.field != "metadata.namespace" &&
                 !(ri.plural == "secrets" && r.field == "type") &&
                 !(ri.plural == "namespaces" && r.field == "status.phase")) {
        fail(k8s::make_bad_request(fmt::format("field label not supported: {}", r.field)));
      }
      reqs.push_back(std::move(r));
    }
    f.fields = k8s::field_selector(std::move(reqs));
  }
  return f;
}

void apiserver::impl::serve_list(const k8s::http_request& req, k8s::http_responder& res,
                                 const request_info& ri) {
  const auto& r = *ri.kind;
  auto filter = parse_filter(req, ri);
  std::int64_t limit = 0;
  if (auto l = req.param("limit"); l && !l->empty()) {
    auto v = parse_rv(*l);
    if (!v) fail(k8s::make_bad_request(fmt::format("invalid limit: {}", *l)));
    limit = *v;
  }
  std::string cont = req.param("continue").value_or("");
  std::string rvp = req.param("resourceVersion").value_or("");
  std::string rvm = req.param("resourceVersionMatch").value_or("");
  // apimachinery's ValidateListOptions: 422 Invalid ListOptions, every cause.
  {
    std::vector<k8s::status_cause> causes;
    auto forbidden = [&](std::string msg) {
      causes.push_back({"FieldValueForbidden", "Forbidden: " + msg, "resourceVersionMatch"});
    };
    if (!rvm.empty()) {
      if (rvp.empty()) forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided");
      if (!cont.empty()) forbidden("resourceVersionMatch is forbidden when continue is provided");
      if (rvm != "NotOlderThan" && rvm != "Exact")
        causes.push_back({"FieldValueNotSupported",
                          fmt::format("Unsupported value: \"{}\": supported values: \"Exact\", \"NotOlderThan\", \"\"",
                                      rvm),
                          "resourceVersionMatch"});
      if (rvm == "Exact" && rvp == "0")
        forbidden("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
    }
    if (req.param("sendInitialEvents"))
      causes.push_back({"FieldValueForbidden", "Forbidden: sendInitialEvents is forbidden for list", "sendInitialEvents"});
    if (!causes.empty()) fail(k8s::make_invalid("meta.k8s.io", "ListOptions", "", std::move(causes)));
  }
  if (!cont.empty() && !rvp.empty() && rvp != "0")
    fail(k8s::make_bad_request(
        "specifying resource version is not allowed when using continue"));
  std::vector<k8s::object> items;
  std::string next_token;
  std::optional<std::int64_t> remaining;
  std::int64_t list_rv = 0;
  std::string expired_body;
  {
    std::lock_guard lock(mu_);
    list_rv = rv_;
    std::string start;
    // The resourceVersion whose state the list shows when it is not the
    // current one (kube reads etcd at that revision): a continue token's,
    // Exact's, and a legacy resourceVersion with a limit's.
    std::optional<std::int64_t> snapshot;
    if (!cont.empty()) {
      auto [token_start, trv] = decode_continue(cont);
      start = token_start;
      if (trv != -1 && trv < evicted_rv_) {
        // kube's 410 carries a token (rv -1) that continues at the latest state.
        auto body = k8s::make_status_body(k8s::make_expired(
            "The provided continue parameter is too old to display a consistent list result. You "
            "can start a new list without the continue parameter, or use the continue token in "
            "this response to retrieve the remainder of the results. Continuing with the provided "
            "token results in an inconsistent list - objects that were created, modified, or "
            "deleted between the time the first chunk was returned and now may show up in the "
            "list."));
        auto& md = k8s::ensure_object(body, {"metadata"}, body.GetAllocator());
        k8s::set_member(md, "continue", k8s::make_string(continue_token(-1, start), body.GetAllocator()),
                        body.GetAllocator());
        expired_body = k8s::to_json(body);
      } else if (trv != -1) {
        snapshot = trv;
      }
      if (!start.empty() && start.back() == '\0') start.pop_back();
    } else if (!rvp.empty() && rvp != "0") {
      auto n = parse_rv(rvp);
      if (!n) fail(invalid_rv(rvp));
      if (*n > rv_) fail(too_large(*n, rv_));
      if (rvm == "Exact" || (rvm.empty() && limit > 0)) {
        if (*n < evicted_rv_)
          fail(k8s::make_expired("The resourceVersion for the provided list is too old."));
        snapshot = *n;
      }
    } else if (rvp == "0") {
      limit = 0;  // served from the watch cache, which does not paginate
    }
    auto& sr = resource_locked(r);
    std::shared_ptr<const std::map<k8s::object_key, k8s::object>> at;
    if (snapshot && *snapshot != rv_) {
      at = snapshot_at_locked(sr, *snapshot);
      if (!at) fail(k8s::make_expired("The resourceVersion for the provided list is too old."));
    }
    if (snapshot) list_rv = *snapshot;
    const auto& objects = at ? *at : sr.objects;
    // A page starts after the previous page's last key, found in the map (a
    // scan from the first key made a paged list of N objects cost N per page).
    // A namespace's objects are adjacent in key order.
    const k8s::object_key from = start.empty() ? k8s::object_key{filter.namespace_, ""} : key_of_start(start);
    auto it = start.empty() ? objects.lower_bound(from) : objects.upper_bound(from);
    auto in_range = [&](auto i) {
      return i != objects.end() && (filter.namespace_.empty() || i->first.namespace_ == filter.namespace_);
    };
    bool more = false;
    for (; in_range(it) && expired_body.empty(); ++it) {
      if (!filter.matches(it->second)) continue;
      if (limit > 0 && static_cast<std::int64_t>(items.size()) >= limit) {
        more = true;
        break;
      }
      items.push_back(convert_for(it->second, r));
    }
    if (more) {
      next_token = continue_token(list_rv, items.back().key());
      // kube counts what is left only for a list without selectors.
      if (filter.labels.empty() && filter.fields.empty()) {
        std::int64_t left = 0;
        for (; in_range(it); ++it) ++left;
        remaining = left;
      }
    }
  }
  if (!expired_body.empty()) {
    res.send({410, {{"Content-Type", "application/json"}, {"Cache-Control", "no-cache, private"}},
              std::move(expired_body)});
    return;
  }
  auto accept = req.header("Accept");
  if (contains(accept, "as=Table")) {
    auto t = table_of(r, items, std::to_string(list_rv), next_token,
                      req.param("includeObject").value_or(""), remaining);
    res.send({200, {{"Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io"}}, k8s::to_json(t)});
    return;
  }
  check_acceptable(accept);
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("kind", k8s::make_string(r.list_kind, a), a);
  d.AddMember("apiVersion", k8s::make_string(r.api_version(), a), a);
  json_value md(rapidjson::kObjectType);
  md.AddMember("resourceVersion", k8s::make_string(std::to_string(list_rv), a), a);
  if (!next_token.empty()) md.AddMember("continue", k8s::make_string(next_token, a), a);
  if (remaining) md.AddMember("remainingItemCount", json_value(*remaining), a);
  d.AddMember("metadata", std::move(md), a);
  json_value arr(rapidjson::kArrayType);
  // kube-apiserver 1.34 lists built-in kinds as typed lists, whose items carry no
  // apiVersion and kind; custom resources' items keep theirs.
  bool typed = is_builtin(r);
  for (auto& o : items) {
    json_value item = k8s::copy_json(o.json(), a);
    if (typed) {
      k8s::remove_member(item, "apiVersion");
      k8s::remove_member(item, "kind");
    }
    arr.PushBack(std::move(item), a);
  }
  d.AddMember("items", std::move(arr), a);
  res.send({200, {{"Content-Type", "application/json"}}, k8s::to_json(d)});
}

void apiserver::impl::delete_collection(const k8s::http_request& req, k8s::http_responder& res,
                                        const request_info& ri, bool dry_run) {
  const auto& r = *ri.kind;
  auto filter = parse_filter(req, ri);
  std::string propagation = req.param("propagationPolicy").value_or("");
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("kind", k8s::make_string(r.list_kind, a), a);
  d.AddMember("apiVersion", k8s::make_string(r.api_version(), a), a);
  json_value arr(rapidjson::kArrayType);
  {
    std::lock_guard lock(mu_);
    auto& sr = resource_locked(r);
    std::vector<k8s::object> matched;
    for (auto& [k, o] : sr.objects)
      if (filter.matches(o)) matched.push_back(o);
    for (auto& o : matched) {
      request_info one = ri;
      one.name = o.name();
      one.namespace_ = o.namespace_();
      try {
        auto [obj, gone] = delete_locked(one, nullptr, dry_run, propagation);
        arr.PushBack(k8s::copy_json(convert_for(obj, r).json(), a), a);
      } catch (const api_failure&) {
      }
    }
    json_value md(rapidjson::kObjectType);
    md.AddMember("resourceVersion", k8s::make_string(std::to_string(rv_), a), a);
    d.AddMember("metadata", std::move(md), a);
    if (!dry_run) save_state_locked();
  }
  d.AddMember("items", std::move(arr), a);
  res.send({200, {{"Content-Type", "application/json"}}, k8s::to_json(d)});
}

}  // namespace c5c3::sim
