// The client's shared state and request pipeline: the token bucket, the
// credentials, the attempts with their retries and deadline, discovery and
// paged lists. Private to k8s/client (client.cpp, client_watch.cpp).
#pragma once

#include "k8s/client/client.hpp"
#include "k8s/client/discovery.hpp"
#include "k8s/client/paths.hpp"
#include "k8s/client/watch_decoder.hpp"
#include "k8s/json_answer.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <mutex>
#include <optional>
#include <random>

namespace c5c3::k8s {

namespace net = boost::asio;

namespace client_detail {

inline std::string request_line(const rest_request& r) {
  auto q = r.target.find('?');
  return r.method + " " + (q == std::string::npos ? r.target : r.target.substr(0, q));
}

// A decoded object, or an error naming what could not be read. With
// `expected`, the answer must be an object of that kind with a name (a proxy
// or a broken server answering something else is an error, not an object).
inline result<object> decode_object(const rest_response& res, const std::string& request,
                                    const api_resource* expected, bool drop_managed_fields = false) {
  std::string err;
  std::optional<object> o;
  if (auto doc = parse_answer_json(res.body, &err); doc && doc->IsObject()) {
    if (drop_managed_fields) remove_managed_fields(*doc);
    o = object(std::move(*doc));
  } else if (doc) {
    err = "expected a JSON object";
  }
  auto fail = [&](std::string why) -> result<object> {
    api_error e;
    e.code = res.status;
    e.request = request;
    e.message = "cannot decode the server's answer: " + why;
    return e;
  };
  if (!o) return fail(err);
  if (expected) {
    auto kind = o->kind();
    auto api_version = o->api_version();
    if ((!kind.empty() && kind != expected->kind) ||
        (!api_version.empty() && gvk::from_api_version(api_version, kind).group != expected->group))
      return fail("it is a " + std::string(kind) + " (" + std::string(api_version) + "), not a " + expected->kind +
                  " (" + expected->api_version() + ")");
    if (o->name().empty() && o->generate_name().empty()) return fail("it names no object (no metadata.name)");
  }
  return std::move(*o);
}

}  // namespace client_detail

using client_detail::decode_object;
using client_detail::request_line;

struct client::impl : std::enable_shared_from_this<client::impl> {
  net::io_context& io;
  client_config cfg;
  std::shared_ptr<http_transport> transport;
  rest_mapper mapper;
  std::mutex mu;  // guards limiter, rng, cert_
  token_bucket limiter;
  std::mt19937_64 rng{std::random_device{}()};
  std::optional<client_certificate> cert;

  impl(net::io_context& i, client_config c, std::shared_ptr<http_transport> t)
      : io(i), cfg(std::move(c)), transport(std::move(t)), limiter(cfg.qps, cfg.burst) {}

  double random01() {
    std::lock_guard lock(mu);
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  }

  void after(std::chrono::nanoseconds d, std::function<void()> f) {
    if (d <= std::chrono::nanoseconds{0}) return net::post(io, std::move(f));
    auto t = std::make_shared<net::steady_timer>(io, d);
    t->async_wait([t, f = std::move(f)](const boost::system::error_code&) { f(); });
  }

  // Fills the credentials into `req`; an error when they cannot be had.
  std::optional<api_error> authenticate(rest_request& req) {
    if (!cfg.user_agent.empty() &&
        std::none_of(req.headers.begin(), req.headers.end(), [](const auto& h) { return h.first == "User-Agent"; }))
      req.headers.emplace_back("User-Agent", cfg.user_agent);
    if (!cfg.credentials) return std::nullopt;
    std::string err;
    auto fail = [&](std::string what) {
      api_error e;
      e.code = 0;
      e.reason = "Unauthorized";
      e.request = request_line(req);
      e.message = std::move(what);
      return e;
    };
    auto c = cfg.credentials->certificate(&err);
    if (!err.empty()) return fail("cannot get the client certificate: " + err);
    if (c) {
      std::lock_guard lock(mu);
      if (!cert || !(*cert == *c)) {
        if (auto e = transport->set_client_certificate(c->cert_pem, c->key_pem))
          return fail("cannot use the client certificate: " + *e);
        cert = std::move(c);
      }
    }
    auto token = cfg.credentials->bearer_token(&err);
    if (!token) return fail("cannot get a bearer token: " + err);
    req.bearer_token = std::move(*token);
    return std::nullopt;
  }

  struct attempt_state {
    rest_request req;
    callback<rest_response> done;
    int attempt = 0;
    bool reauthenticated = false;
    std::chrono::steady_clock::time_point started;
    std::optional<api_error> last;  // what the last attempt met (for the deadline's error)
  };

  void send(rest_request req, callback<rest_response> done) {
    auto st = std::make_shared<attempt_state>();
    if (req.timeout.count() <= 0) req.timeout = cfg.request_timeout;
    // Leases (a shard's membership, leader election) never wait for the
    // pool's bound: a renewal queued behind a burst could outlive its hold.
    if (req.target.rfind("/apis/coordination.k8s.io/", 0) == 0) req.unbounded = true;
    st->req = std::move(req);
    st->done = std::move(done);
    net::post(io, [self = shared_from_this(), st] { self->attempt(st); });
  }

  std::chrono::nanoseconds reserve() {
    std::lock_guard lock(mu);
    return limiter.reserve(std::chrono::steady_clock::now());
  }

  // Whether the request's deadline has passed, or will have after `wait`.
  static bool past_deadline(const attempt_state& st, std::chrono::nanoseconds wait = {}) {
    return st.req.deadline && std::chrono::steady_clock::now() + wait >= *st.req.deadline;
  }

  // Gives the request up at its deadline: `why` says where.
  static void expire(const std::shared_ptr<attempt_state>& st, const std::string& why, const api_error* last) {
    st->done(deadline_exceeded(request_line(st->req), st->req.object, why, last));
  }

  std::string attempt_name(const attempt_state& st) const {
    return st.attempt == 0 ? std::string("the first attempt") : "attempt " + std::to_string(st.attempt + 1);
  }

  void attempt(std::shared_ptr<attempt_state> st) {
    auto wait = reserve();
    if (past_deadline(*st, wait))
      return expire(st, std::string("before ") + attempt_name(*st) +
                            (wait.count() > 0 ? " (the client's rate limiter would hold it past it)" : ""),
                    st->last ? &*st->last : nullptr);
    after(wait, [self = shared_from_this(), st] {
      if (past_deadline(*st))
        return expire(st, "before " + self->attempt_name(*st) + " (after the client's rate limiter)",
                      st->last ? &*st->last : nullptr);
      if (auto e = self->authenticate(st->req)) return st->done(std::move(*e));
      st->started = std::chrono::steady_clock::now();
      rest_request req = st->req;
      if (req.deadline) {
        // An attempt in flight is cut at the deadline (at least 1 ms).
        auto left = std::chrono::ceil<std::chrono::milliseconds>(*req.deadline - st->started);
        req.timeout = std::clamp(left, std::chrono::milliseconds(1), req.timeout);
      }
      self->transport->send(std::move(req), [self, st](rest_result r) { self->on_answer(st, std::move(r)); });
    });
  }

  void observe(const attempt_state& st, std::string code, std::string error = {}) {
    if (!cfg.observer) return;
    request_observation o;
    o.method = st.req.method;
    o.code = std::move(code);
    o.error = std::move(error);
    o.host = transport->url().host_header();
    o.latency = std::chrono::steady_clock::now() - st.started;
    cfg.observer->on_request(o);
  }

  void on_answer(std::shared_ptr<attempt_state> st, rest_result r) {
    api_error e;
    bool nothing_sent = false;
    if (r.ok()) {
      rest_response& res = r.value();
      observe(*st, std::to_string(res.status));
      if (res.status < 400) return st->done(std::move(res));
      e = parse_status(res.status, res.body, request_line(st->req));
      if (!e.retry_after_seconds && res.retry_after) e.retry_after_seconds = res.retry_after;
      if (res.status == 401 && !st->reauthenticated && cfg.credentials && cfg.credentials->invalidate()) {
        st->reauthenticated = true;
        return attempt(st);
      }
    } else {
      e.code = 0;
      e.request = request_line(st->req);
      e.message = r.error().message;
      observe(*st, "<error>", e.describe());
      nothing_sent = r.error().nothing_sent;
      // Cut at the deadline (or failed past it): the server may have acted on
      // it, unless nothing was sent (no connection came free, or none opened).
      if (past_deadline(*st))
        return expire(st, nothing_sent ? "before " + attempt_name(*st) + " was sent"
                                       : "while " + attempt_name(*st) + " was in flight (the server may have acted on it)",
                      &e);
    }
    if (st->attempt < cfg.retry.max_retries && should_retry(st->req.method, e, nothing_sent)) {
      auto d = retry_delay(cfg.retry, e, st->attempt + 1, random01());
      if (past_deadline(*st, d)) {
        ++st->attempt;
        return expire(st, "before " + attempt_name(*st) + " (its wait of " + std::to_string(d.count()) +
                              " ms outlives it)", &e);
      }
      ++st->attempt;
      st->last = e;
      if (cfg.observer) cfg.observer->on_retry(st->req.method, e.code ? std::to_string(e.code) : "<error>");
      return after(d, [self = shared_from_this(), st] { self->attempt(st); });
    }
    st->done(std::move(e));
  }

  // ---- discovery ----
  void fetch_group_version(std::string group, std::string version, callback<std::vector<api_resource>> done) {
    rest_request req;
    req.target = group_version_path(group, version);
    send(std::move(req), [self = shared_from_this(), group, version, done = std::move(done)](
                             result<rest_response> r) {
      if (!r.ok()) {
        if (r.error().code == 404) {
          self->mapper.set_group_version(group, version, {});
          return done(std::vector<api_resource>{});
        }
        return done(std::move(r.error()));
      }
      std::string err;
      auto list = parse_api_resource_list(r->body, &err);
      if (!list) {
        api_error e;
        e.code = r->status;
        e.request = "GET " + group_version_path(group, version);
        e.message = err;
        return done(std::move(e));
      }
      self->mapper.set_group_version(group, version, *list);
      done(std::move(*list));
    });
  }

  void resource_for(const gvk& k, callback<api_resource> done) {
    if (auto r = mapper.find(k)) {
      return net::post(io, [r = std::move(*r), done = std::move(done)]() mutable { done(std::move(r)); });
    }
    fetch_group_version(k.group, k.version, [k, done = std::move(done)](result<std::vector<api_resource>> r) {
      if (!r.ok()) return done(std::move(r.error()));
      for (auto& a : r.value())
        if (a.kind == k.kind) return done(std::move(a));
      done(make_no_kind_match(k));
    });
  }

  // Resolves the kind, then runs `then` with the resource (errors go to `done`).
  template <class T, class Then>
  void with_resource(const gvk& k, callback<T> done, Then then) {
    resource_for(k, [done = std::move(done), then = std::move(then)](result<api_resource> r) mutable {
      if (!r.ok()) return done(std::move(r.error()));
      then(std::move(r.value()), std::move(done));
    });
  }

  // Sends and decodes an object answer.
  void object_request(rest_request req, const api_resource& expected, callback<object> done) {
    auto line = request_line(req);
    send(std::move(req), [line, expected, drop = cfg.drop_managed_fields,
                          done = std::move(done)](result<rest_response> r) {
      if (!r.ok()) return done(std::move(r.error()));
      done(decode_object(r.value(), line, &expected, drop));
    });
  }

  // ---- list with pages ----
  struct list_state {
    gvk k;
    api_resource res;
    std::string ns;
    list_options opts;
    object_list out;
    std::string cont;
    bool restarted = false;
    callback<object_list> done;
  };

  void list_page(std::shared_ptr<list_state> st) {
    rest_request req;
    int page = st->opts.page_size < 0 ? cfg.list_page_size : st->opts.page_size;
    std::vector<std::pair<std::string, std::string>> q{
        {"labelSelector", st->opts.label_selector},
        {"fieldSelector", st->opts.field_selector},
        {"limit", page > 0 ? std::to_string(page) : ""},
        {"continue", st->cont},
        {"resourceVersion", st->cont.empty() ? st->opts.resource_version : ""},
    };
    req.target = resource_path(st->res, st->ns) + query_string(q);
    auto line = request_line(req);
    send(std::move(req), [self = shared_from_this(), st, line](result<rest_response> r) {
      if (!r.ok()) {
        if (r.error().gone() && !st->cont.empty() && !st->restarted) {
          // The continue token expired: list again whole, as client-go's pager.
          st->restarted = true;
          st->cont.clear();
          st->out = {};
          st->opts.page_size = 0;
          return self->list_page(st);
        }
        return st->done(std::move(r.error()));
      }
      auto refuse = [&](std::string why) {
        api_error e;
        e.code = r->status;
        e.request = line;
        e.message = "cannot decode the server's answer: " + why;
        st->done(std::move(e));
      };
      std::string err;
      auto doc = parse_answer_json(r->body, &err);
      if (!doc || !doc->IsObject()) return refuse(doc ? "it is not a JSON object" : err);
      json_value* items = member(*doc, "items");
      // An answer without items is not an empty list: taking it for one would
      // empty the caller's view of the cluster.
      if (!items || !(items->IsArray() || items->IsNull())) return refuse("it is not a list (no items)");
      if (items->IsArray()) {
        std::string api_version = st->k.api_version();
        for (auto& item : items->GetArray()) {
          auto item_kind = get_string(item, {"kind"});
          if (!item.IsObject() || (!item_kind.empty() && item_kind != st->k.kind))
            return refuse("an item is not a " + st->k.kind);
          // The item is completed in the page's document (its allocator), then
          // moves out of it (its values stay in that document's pool while it
          // lives): one copy, by the object's constructor.
          auto& alloc = doc->GetAllocator();
          if (!member(item, "apiVersion")) set_member(item, "apiVersion", make_string(api_version, alloc), alloc);
          if (!member(item, "kind")) set_member(item, "kind", make_string(st->k.kind, alloc), alloc);
          if (self->cfg.drop_managed_fields) remove_managed_fields(item);
          json_document d;
          static_cast<json_value&>(d).Swap(item);
          st->out.items.emplace_back(std::move(d));
        }
      }
      st->out.resource_version = std::string(get_string(*doc, {"metadata", "resourceVersion"}));
      st->cont = std::string(get_string(*doc, {"metadata", "continue"}));
      if (!st->cont.empty()) return self->list_page(st);
      st->done(std::move(st->out));
    });
  }
};

}  // namespace c5c3::k8s
