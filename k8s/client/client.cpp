#include "k8s/client/client.hpp"

#include "k8s/client/client_impl.hpp"

#include <mutex>

namespace c5c3::k8s {

api_error make_no_kind_match(const gvk& k) {
  api_error e;
  e.code = 404;
  e.reason = "NoKindMatch";
  e.group = k.group;
  e.kind = k.kind;
  e.message = "no matches for kind \"" + k.kind + "\" in version \"" + k.api_version() + "\"";
  return e;
}

bool is_no_kind_match(const api_error& e) { return e.reason == "NoKindMatch"; }

result<std::shared_ptr<client>, std::string> client::create(net::io_context& io, client_config cfg) {
  std::string err;
  auto url = parse_server_url(cfg.server, &err);
  if (!url) return err;
  auto t = http_transport::create(io, *url, cfg.tls, cfg.max_idle_connections, cfg.max_connections);
  if (!t.ok()) return t.error();
  return std::shared_ptr<client>(new client(std::make_shared<impl>(io, std::move(cfg), std::move(t.value()))));
}

client::client(std::shared_ptr<impl> p) : impl_(std::move(p)) {}
client::~client() { impl_->transport->close_idle(); }

std::size_t client::requests_waiting() const { return impl_->transport->waiting(); }

std::string client::host() const { return impl_->transport->url().host_header(); }
net::io_context& client::io() const { return impl_->io; }

void client::send(rest_request req, callback<rest_response> done) { impl_->send(std::move(req), std::move(done)); }

void client::resource_for(const gvk& k, callback<api_resource> done) { impl_->resource_for(k, std::move(done)); }

std::optional<api_resource> client::cached_resource(const gvk& k) const { return impl_->mapper.find(k); }

void client::discover(callback<std::vector<api_resource>> done) {
  struct state {
    std::mutex mu;
    std::vector<std::pair<std::string, std::string>> gvs;
    std::vector<api_resource> out;
    std::size_t pending = 0;
    std::optional<api_error> error;
    callback<std::vector<api_resource>> done;
  };
  auto st = std::make_shared<state>();
  st->done = std::move(done);
  auto self = impl_;
  auto finish_gv = [st](result<std::vector<api_resource>> r) {
    std::unique_lock lock(st->mu);
    if (r.ok()) st->out.insert(st->out.end(), r->begin(), r->end());
    else if (!st->error) st->error = std::move(r.error());
    if (--st->pending > 0) return;
    lock.unlock();
    if (st->error) return st->done(std::move(*st->error));
    st->done(std::move(st->out));
  };
  auto fetch_index = [self](std::string path, std::function<void(result<std::vector<std::pair<std::string, std::string>>>)> k) {
    rest_request req;
    req.target = path;
    self->send(std::move(req), [path, k = std::move(k)](result<rest_response> r) {
      if (!r.ok()) return k(std::move(r.error()));
      std::string err;
      auto gvs = parse_group_versions(r->body, &err);
      if (!gvs) {
        api_error e;
        e.code = r->status;
        e.request = "GET " + path;
        e.message = err;
        return k(std::move(e));
      }
      k(std::move(*gvs));
    });
  };
  fetch_index("/api", [self, st, fetch_index, finish_gv](auto core) {
    if (!core.ok()) return st->done(std::move(core.error()));
    fetch_index("/apis", [self, st, core = std::move(core.value()), finish_gv](auto groups) mutable {
      if (!groups.ok()) return st->done(std::move(groups.error()));
      auto all = std::move(core);
      all.insert(all.end(), groups->begin(), groups->end());
      if (all.empty()) return st->done(std::vector<api_resource>{});
      st->pending = all.size();
      for (auto& [g, v] : all) self->fetch_group_version(g, v, finish_gv);
    });
  });
}

void client::get(const gvk& k, std::string ns, std::string name, callback<object> done) {
  impl_->with_resource<object>(k, std::move(done), [self = impl_, ns, name](api_resource res, callback<object> done) {
    rest_request req;
    req.target = resource_path(res, ns, name);
    self->object_request(std::move(req), res, std::move(done));
  });
}

void client::list(const gvk& k, std::string ns, list_options opts, callback<object_list> done) {
  impl_->with_resource<object_list>(k, std::move(done), [self = impl_, k, ns, opts](api_resource res,
                                                                                   callback<object_list> done) {
    auto st = std::make_shared<impl::list_state>();
    st->k = k;
    st->res = std::move(res);
    st->ns = ns;
    st->opts = opts;
    st->done = std::move(done);
    self->list_page(st);
  });
}

namespace {
std::vector<std::pair<std::string, std::string>> write_query(std::string_view field_manager, bool dry_run) {
  return {{"fieldManager", std::string(field_manager)}, {"dryRun", dry_run ? "All" : ""}};
}

// "ConfigMap default/cm1" (errors only).
std::string object_text(std::string_view kind, std::string_view ns, std::string_view name) {
  std::string out(kind);
  out += " ";
  if (!ns.empty()) {
    out += ns;
    out += "/";
  }
  out += name;
  return out;
}
}  // namespace

void client::create(object obj, write_options opts, callback<object> done) {
  impl_->with_resource<object>(obj.gvk(), std::move(done), [self = impl_, obj, opts](api_resource res,
                                                                                    callback<object> done) {
    rest_request req;
    req.method = "POST";
    req.target = resource_path(res, obj.namespace_()) + query_string(write_query(opts.field_manager, opts.dry_run));
    req.content_type = "application/json";
    req.body = obj.to_json();
    req.deadline = opts.deadline;
    req.object = object_text(res.kind, obj.namespace_(), obj.name().empty() ? obj.generate_name() : obj.name());
    self->object_request(std::move(req), res, std::move(done));
  });
}

namespace {
void put(const std::shared_ptr<client::impl>& self, object obj, write_options opts, std::string_view sub,
         callback<object> done) {
  self->with_resource<object>(obj.gvk(), std::move(done), [self, obj, opts, sub](api_resource res,
                                                                                callback<object> done) {
    rest_request req;
    req.method = "PUT";
    req.target = resource_path(res, obj.namespace_(), obj.name(), sub) +
                 query_string(write_query(opts.field_manager, opts.dry_run));
    req.content_type = "application/json";
    req.body = obj.to_json();
    req.deadline = opts.deadline;
    req.object = object_text(res.kind, obj.namespace_(), obj.name());
    self->object_request(std::move(req), res, std::move(done));
  });
}
}  // namespace

void client::update(object obj, write_options opts, callback<object> done) {
  put(impl_, std::move(obj), std::move(opts), "", std::move(done));
}

void client::update_status(object obj, write_options opts, callback<object> done) {
  put(impl_, std::move(obj), std::move(opts), "status", std::move(done));
}

void client::patch(const gvk& k, std::string ns, std::string name, patch_type type, std::string body,
                   patch_options opts, callback<object> done) {
  impl_->with_resource<object>(k, std::move(done), [self = impl_, ns, name, type, body = std::move(body),
                                                    opts](api_resource res, callback<object> done) {
    rest_request req;
    req.method = "PATCH";
    auto q = write_query(opts.field_manager, opts.dry_run);
    if (type == patch_type::apply && opts.force) q.emplace_back("force", "true");
    req.target = resource_path(res, ns, name, opts.status ? "status" : "") + query_string(q);
    switch (type) {
      case patch_type::merge: req.content_type = "application/merge-patch+json"; break;
      case patch_type::json: req.content_type = "application/json-patch+json"; break;
      case patch_type::strategic_merge: req.content_type = "application/strategic-merge-patch+json"; break;
      case patch_type::apply: req.content_type = "application/apply-patch+yaml"; break;
    }
    req.body = body;
    req.deadline = opts.deadline;
    req.object = object_text(res.kind, ns, name);
    self->object_request(std::move(req), res, std::move(done));
  });
}

void client::apply(object obj, patch_options opts, callback<object> done) {
  if (opts.field_manager.empty()) {
    api_error e;
    e.code = 0;
    e.reason = std::string(reasons::bad_request);
    e.name = std::string(obj.name());
    e.kind = std::string(obj.kind());
    e.message = "server-side apply needs a field manager";
    return net::post(impl_->io, [e = std::move(e), done = std::move(done)]() mutable { done(std::move(e)); });
  }
  // JSON is YAML: the apply body is the object's JSON text.
  auto ns = std::string(obj.namespace_());
  auto name = std::string(obj.name());
  patch(obj.gvk(), std::move(ns), std::move(name), patch_type::apply, obj.to_json(), std::move(opts), std::move(done));
}

void client::remove(const gvk& k, std::string ns, std::string name, delete_options opts, callback<object> done) {
  impl_->with_resource<object>(k, std::move(done), [self = impl_, ns, name, opts](api_resource res,
                                                                                callback<object> done) {
    rest_request req;
    req.method = "DELETE";
    req.target = resource_path(res, ns, name) + query_string({{"dryRun", opts.dry_run ? "All" : ""}});
    object_builder b("meta.k8s.io/v1", "DeleteOptions", "", "");
    b.remove({"metadata"});
    if (!opts.propagation_policy.empty()) b.set_string({"propagationPolicy"}, opts.propagation_policy);
    if (opts.grace_period_seconds) b.set_int({"gracePeriodSeconds"}, *opts.grace_period_seconds);
    if (!opts.precondition_uid.empty()) b.set_string({"preconditions", "uid"}, opts.precondition_uid);
    if (!opts.precondition_resource_version.empty())
      b.set_string({"preconditions", "resourceVersion"}, opts.precondition_resource_version);
    req.content_type = "application/json";
    req.body = to_json(b.doc());
    req.deadline = opts.deadline;
    req.object = object_text(res.kind, ns, name);
    auto line = request_line(req);
    self->send(std::move(req), [line, drop = self->cfg.drop_managed_fields,
                                done = std::move(done)](result<rest_response> r) {
      if (!r.ok()) return done(std::move(r.error()));
      auto o = decode_object(r.value(), line, nullptr, drop);
      if (o.ok() && o->kind() == "Status") return done(object());
      done(std::move(o));
    });
  });
}

}  // namespace c5c3::k8s
