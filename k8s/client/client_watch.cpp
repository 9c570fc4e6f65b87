// client::watch: one watch stream through the client's pipeline (limiter,
// credentials, metrics), its events decoded and checked as they arrive.
#include "k8s/client/client.hpp"

#include "k8s/client/client_impl.hpp"
#include "k8s/client/watch_decoder.hpp"

#include <mutex>

namespace c5c3::k8s {

namespace {

class watch_stream : public watch_handle, public std::enable_shared_from_this<watch_stream> {
 public:
  std::mutex mu;
  // Weak: the open connection keeps itself alive through its pending reads
  // and holds this object through its callbacks; a strong pointer back would
  // make a cycle that outlives a stopped io_context.
  std::weak_ptr<http_stream> stream;
  bool cancelled = false;
  json_stream_splitter splitter;
  // Set once the stream carried something that is not a watch event: the
  // watch ends with this error (as client-go's does), nothing after it counts.
  std::string decode_error;
  std::string kind;  // what the watch is of: events of another kind are refused
  std::function<void(watch_event)> on_event;
  std::function<void(result<bool>)> on_end;
  std::string request;

  void cancel() override {
    std::shared_ptr<http_stream> s;
    {
      std::lock_guard lock(mu);
      cancelled = true;
      s = stream.lock();
    }
    if (s) s->cancel();
  }
};

}  // namespace

std::shared_ptr<watch_handle> client::watch(const gvk& k, std::string ns, watch_options opts,
                                            std::function<void(watch_event)> on_event,
                                            std::function<void(result<bool>)> on_end) {
  auto w = std::make_shared<watch_stream>();
  w->kind = k.kind;
  w->on_event = std::move(on_event);
  w->on_end = std::move(on_end);
  auto self = impl_;
  self->resource_for(k, [self, w, ns, opts](result<api_resource> r) {
    if (!r.ok()) return w->on_end(std::move(r.error()));
    rest_request req;
    std::vector<std::pair<std::string, std::string>> q{
        {"watch", "true"},
        {"allowWatchBookmarks", opts.allow_bookmarks ? "true" : ""},
        {"labelSelector", opts.label_selector},
        {"fieldSelector", opts.field_selector},
        {"resourceVersion", opts.resource_version},
        {"timeoutSeconds", opts.timeout_seconds ? std::to_string(*opts.timeout_seconds) : ""},
    };
    req.target = resource_path(r.value(), ns) + query_string(q);
    req.timeout = self->cfg.request_timeout;
    w->request = request_line(req);
    self->after(self->reserve(), [self, w, req = std::move(req)]() mutable {
      if (auto e = self->authenticate(req)) return w->on_end(std::move(*e));
      stream_callbacks cb;
      cb.on_data = [w, drop = self->cfg.drop_managed_fields](std::string_view data) {
        if (!w->decode_error.empty()) return;
        std::string err;
        auto texts = w->splitter.feed(data, &err);
        for (auto& text : texts) {
          std::string perr;
          auto ev = parse_watch_event(text, &perr, drop, true);
          if (!ev) {
            err = perr;
            break;
          }
          bool object_event = ev->type != watch_event_type::error && ev->type != watch_event_type::bookmark;
          if (object_event && ((!ev->obj.kind().empty() && ev->obj.kind() != w->kind) || ev->obj.name().empty())) {
            err = "an event whose object is not a named " + w->kind;
            break;
          }
          if (ev->type == watch_event_type::error) ev->error.request = w->request;
          w->on_event(std::move(*ev));
        }
        if (!err.empty()) {
          w->decode_error = "unable to decode an event from the watch stream: " + err;
          w->cancel();
        }
      };
      auto started = std::chrono::steady_clock::now();
      auto method = req.method;
      cb.on_end = [self, w, started, method](rest_result r) {
        if (self->cfg.observer) {
          request_observation o{method, r.ok() ? std::to_string(r->status) : "<error>",
                                self->transport->url().host_header(), std::chrono::steady_clock::now() - started,
                                r.ok() ? std::string() : w->request + ": transport error: " + r.error().message};
          self->cfg.observer->on_request(o);
        }
        if (!w->decode_error.empty()) {
          api_error e;
          e.request = w->request;
          e.message = w->decode_error;
          return w->on_end(std::move(e));
        }
        if (r.ok() && r->status == 200) return w->on_end(true);
        if (r.ok()) {
          auto e = parse_status(r->status, r->body, w->request);
          if (!e.retry_after_seconds && r->retry_after) e.retry_after_seconds = r->retry_after;
          if (r->status == 401 && self->cfg.credentials) self->cfg.credentials->invalidate();
          return w->on_end(std::move(e));
        }
        api_error e;
        e.request = w->request;
        e.message = r.error().message;
        w->on_end(std::move(e));
      };
      std::lock_guard lock(w->mu);
      if (w->cancelled) {
        api_error e;
        e.request = w->request;
        e.message = "watch cancelled";
        return net::post(self->io, [w, e = std::move(e)]() mutable { w->on_end(std::move(e)); });
      }
      w->stream = self->transport->open_stream(std::move(req), std::move(cb));
    });
  });
  return w;
}

}  // namespace c5c3::k8s
