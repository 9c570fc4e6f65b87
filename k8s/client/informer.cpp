#include "k8s/client/informer.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <mutex>
#include <random>

namespace c5c3::k8s {

namespace net = boost::asio;

struct informer::impl {
  explicit impl(net::io_context& io) : strand(net::make_strand(io)), retry_timer(strand), resync_timer(strand) {}
  net::strand<net::io_context::executor_type> strand;
  net::steady_timer retry_timer;
  net::steady_timer resync_timer;
  std::mt19937 rng{std::random_device{}()};
};

object strip_managed_fields(const object& o) {
  const json_value* meta = member(o.json(), "metadata");
  if (!meta || !member(*meta, "managedFields")) return o;
  auto b = o.edit();
  b.remove({"metadata", "managedFields"});
  return std::move(b).freeze();  // a document sized to what is left
}

std::shared_ptr<informer> informer::create(std::shared_ptr<client> c, gvk kind, informer_options opts,
                                           informer_handlers handlers) {
  return std::shared_ptr<informer>(new informer(std::move(c), std::move(kind), std::move(opts), std::move(handlers)));
}

informer::informer(std::shared_ptr<client> c, gvk kind, informer_options opts, informer_handlers handlers)
    : client_(std::move(c)), kind_(std::move(kind)), opts_(std::move(opts)), handlers_(std::move(handlers)),
      impl_(std::make_shared<impl>(client_->io())) {}

informer::~informer() = default;

void informer::start() {
  net::post(impl_->strand, [self = shared_from_this()] {
    if (self->stopped_) return;
    self->run_list();
    if (self->opts_.resync.count() > 0 && self->opts_.keep_store) self->resync();
  });
}

void informer::stop() {
  stopped_ = true;
  net::post(impl_->strand, [self = shared_from_this()] {
    ++self->generation_;
    if (self->watch_) self->watch_->cancel();
    self->watch_.reset();
    self->impl_->retry_timer.cancel();
    self->impl_->resync_timer.cancel();
  });
}

std::optional<object> informer::get(std::string_view ns, std::string_view name) const {
  std::shared_lock lock(store_mu_);
  const object* o = store_.find(object_key_view{ns, name});
  if (!o) return std::nullopt;
  return *o;
}

std::vector<object> informer::list() const {
  std::shared_lock lock(store_mu_);
  std::vector<object> out;
  out.reserve(store_.size());
  for (const auto& [k, v] : store_) out.push_back(v);
  return out;
}

std::size_t informer::size() const {
  std::shared_lock lock(store_mu_);
  return store_.size();
}

std::string informer::last_resource_version() const {
  std::shared_lock lock(store_mu_);
  return rv_;
}

void informer::run_list() {
  ++generation_;
  if (watch_) watch_->cancel();
  watch_.reset();
  auto gen = generation_;
  list_options lo;
  lo.label_selector = opts_.label_selector;
  lo.field_selector = opts_.field_selector;
  client_->list(kind_, opts_.namespace_, lo, [self = shared_from_this(), gen](result<object_list> r) {
    net::post(self->impl_->strand, [self, gen, r = std::move(r)]() mutable {
      if (self->stopped_ || gen != self->generation_) return;
      self->on_list(std::move(r));
    });
  });
}

void informer::on_list(result<object_list> r) {
  if (!r.ok()) return retry_later(r.error(), true);
  ++lists_;
  if (opts_.transform)
    for (auto& o : r->items) o = opts_.transform(o);
  if (opts_.keep_store) {
    store_list(std::move(*r));
  } else {
    {
      std::unique_lock lock(store_mu_);
      rv_ = r->resource_version;
    }
    if (handlers_.on_list) handlers_.on_list(std::move(r->items));
  }
  failures_ = 0;
  synced_ = true;
  if (handlers_.on_synced) handlers_.on_synced();
  run_watch();
}

// The list replaces the store; what it changed goes to the handlers.
void informer::store_list(object_list l) {
  object_map fresh;
  for (auto& o : l.items) fresh.put(std::move(o));
  list_difference d;
  {
    std::unique_lock lock(store_mu_);
    d = diff_list(store_, fresh);
    store_ = std::move(fresh);
    rv_ = l.resource_version;
  }
  for (const auto& o : d.deleted)
    if (handlers_.on_delete) handlers_.on_delete(o);
  for (const auto& o : d.added)
    if (handlers_.on_add) handlers_.on_add(o);
  for (const auto& [a, b] : d.updated)
    if (handlers_.on_update) handlers_.on_update(a, b);
}

void informer::run_watch() {
  ++generation_;
  if (watch_) watch_->cancel();
  auto gen = generation_;
  ++watches_;
  watch_opened_ = std::chrono::steady_clock::now();
  watch_events_ = 0;
  watch_options wo;
  wo.label_selector = opts_.label_selector;
  wo.field_selector = opts_.field_selector;
  wo.resource_version = last_resource_version();
  wo.allow_bookmarks = true;
  if (opts_.watch_timeout_seconds > 0) wo.timeout_seconds = opts_.watch_timeout_seconds;
  // The watch's callbacks hold the informer weakly: the informer holds the
  // watch, and a cycle would outlive a stopped io_context.
  std::weak_ptr<informer> weak = shared_from_this();
  watch_ = client_->watch(
      kind_, opts_.namespace_, wo,
      [weak, gen](watch_event ev) {
        auto self = weak.lock();
        if (!self) return;
        net::post(self->impl_->strand, [self, gen, ev = std::move(ev)] {
          if (self->stopped_ || gen != self->generation_) return;
          self->on_event(ev);
        });
      },
      [weak, gen](result<bool> r) {
        auto self = weak.lock();
        if (!self) return;
        net::post(self->impl_->strand, [self, gen, r = std::move(r)]() mutable {
          if (self->stopped_ || gen != self->generation_) return;
          self->on_watch_end(std::move(r));
        });
      });
}

void informer::on_event(const watch_event& ev) {
  ++watch_events_;
  if (ev.type == watch_event_type::error) {
    ++generation_;  // drop the rest of this stream
    if (watch_) watch_->cancel();
    watch_.reset();
    if (ev.error.gone()) {
      if (handlers_.on_error) handlers_.on_error(ev.error);
      return run_list();
    }
    return retry_later(ev.error, false);
  }
  failures_ = 0;
  std::string rv(ev.obj.resource_version());
  if (ev.type == watch_event_type::bookmark) {
    std::unique_lock lock(store_mu_);
    if (!rv.empty()) rv_ = rv;
    return;
  }
  const object obj = opts_.transform ? opts_.transform(ev.obj) : ev.obj;
  if (!opts_.keep_store) {
    if (!rv.empty()) {
      std::unique_lock lock(store_mu_);
      rv_ = rv;
    }
    if (ev.type == watch_event_type::deleted) {
      if (handlers_.on_delete) handlers_.on_delete(obj);
    } else if (handlers_.on_upsert) {
      handlers_.on_upsert(obj);
    }
    return;
  }
  std::optional<object> old;
  bool changed = false;
  {
    std::unique_lock lock(store_mu_);
    if (const object* was = store_.find(view_of(obj))) old = *was;
    if (ev.type == watch_event_type::deleted) {
      changed = store_.erase(view_of(obj));
    } else if (!old || old->resource_version() != obj.resource_version()) {
      store_.put(obj);
      changed = true;
    }
    if (!rv.empty()) rv_ = rv;
  }
  if (!changed) return;  // already known (a replay): no duplicate event
  if (ev.type == watch_event_type::deleted) {
    if (handlers_.on_delete) handlers_.on_delete(obj);
  } else if (old) {
    if (handlers_.on_update) handlers_.on_update(*old, obj);
  } else if (handlers_.on_add) {
    handlers_.on_add(obj);
  }
}

void informer::on_watch_end(result<bool> r) {
  watch_.reset();
  if (r.ok()) {
    bool relist = last_resource_version().empty();
    if (watch_events_ == 0 && std::chrono::steady_clock::now() - watch_opened_ < opts_.min_watch_duration) {
      // Ended at once and said nothing: not the server's timeout. Back off
      // as for a failure, or a server doing this is asked in a tight loop.
      ++short_watches_;
      api_error e;
      e.message = "very short watch: the watch of " + kind_.kind +
                  " ended without an event within " + std::to_string(opts_.min_watch_duration.count()) + " ms";
      e.code = 0;
      return retry_later(e, relist);
    }
    // The server ended the watch (its timeout): resume where it stopped.
    if (relist) return run_list();
    return run_watch();
  }
  if (r.error().gone()) {
    if (handlers_.on_error) handlers_.on_error(r.error());
    return run_list();
  }
  retry_later(r.error(), last_resource_version().empty());
}

void informer::retry_later(const api_error& e, bool relist) {
  if (handlers_.on_error) handlers_.on_error(e);
  ++failures_;
  double base = static_cast<double>(opts_.initial_backoff.count()) * std::pow(2.0, std::min(failures_ - 1, 20));
  base = std::min(base, static_cast<double>(opts_.max_backoff.count()));
  double jitter = std::uniform_real_distribution<double>(0.0, 0.2)(impl_->rng);
  auto delay = std::chrono::milliseconds(static_cast<std::int64_t>(base * (1.0 + jitter)));
  if (e.retry_after_seconds) delay = std::max(delay, std::chrono::milliseconds(*e.retry_after_seconds * 1000));
  auto gen = ++generation_;
  impl_->retry_timer.expires_after(delay);
  impl_->retry_timer.async_wait([self = shared_from_this(), gen, relist](const boost::system::error_code& ec) {
    if (ec || self->stopped_ || gen != self->generation_) return;
    if (relist) self->run_list();
    else self->run_watch();
  });
}

void informer::resync() {
  impl_->resync_timer.expires_after(opts_.resync);
  impl_->resync_timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || self->stopped_) return;
    if (self->synced_ && self->handlers_.on_update)
      for (const auto& o : self->list()) self->handlers_.on_update(o, o);
    self->resync();
  });
}

}  // namespace c5c3::k8s
