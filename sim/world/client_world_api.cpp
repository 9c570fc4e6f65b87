#include "sim/world/client_world_api.hpp"

#include "k8s/client/blocking.hpp"

#include <algorithm>
#include <cstdlib>

namespace c5c3::sim::world {
namespace {

using k8s::wait_for;

// Whether `cached` is at least as new as `written`. resourceVersions are
// opaque, but etcd's (and the emulator's) are increasing integers; other
// values only compare equal.
bool caught_up(const k8s::object& cached, const k8s::object& written) {
  auto a = cached.resource_version(), b = written.resource_version();
  if (a == b) return true;
  char* end = nullptr;
  std::string as(a), bs(b);
  auto na = std::strtoull(as.c_str(), &end, 10);
  if (as.empty() || *end) return false;
  auto nb = std::strtoull(bs.c_str(), &end, 10);
  if (bs.empty() || *end) return false;
  return na >= nb;
}

}  // namespace

client_world_api::client_world_api(std::shared_ptr<k8s::client> client) : client_(std::move(client)) {}

client_world_api::~client_world_api() { stop(); }

client_world_api::key client_world_api::key_of(const k8s::object& o) {
  return {o.gvk().group + "/" + std::string(o.kind()), std::string(o.namespace_()), std::string(o.name())};
}

void client_world_api::start(std::function<void()> on_change) {
  auto kinds = simulated_kinds();
  kinds.push_back(secret_kind());
  for (const auto& k : optional_kinds()) kinds.push_back(k);
  for (const auto& kind : kinds) {
    k8s::informer_handlers h;
    h.on_add = [this, on_change](const k8s::object& o) {
      observed(o, false);
      on_change();
    };
    h.on_update = [this, on_change](const k8s::object&, const k8s::object& o) {
      observed(o, false);
      on_change();
    };
    h.on_delete = [this, on_change](const k8s::object& o) {
      observed(o, true);
      on_change();
    };
    h.on_synced = on_change;
    k8s::informer_options opts;
    opts.max_backoff = std::chrono::seconds(5);  // a kind whose CRD was just installed
    informers_.push_back(k8s::informer::create(client_, kind, opts, std::move(h)));
    if (std::find(optional_kinds().begin(), optional_kinds().end(), kind) != optional_kinds().end())
      optional_.push_back(informers_.back());
  }
  for (auto& i : informers_) i->start();
}

void client_world_api::stop() {
  for (auto& i : informers_) i->stop();
}

bool client_world_api::synced() const {
  for (const auto& i : informers_) {
    if (!i->has_synced() && std::find(optional_.begin(), optional_.end(), i) == optional_.end()) return false;
  }
  return !informers_.empty();
}

std::shared_ptr<k8s::informer> client_world_api::informer_of(const k8s::gvk& kind) const {
  for (const auto& i : informers_) {
    if (i->kind().kind == kind.kind && i->kind().group == kind.group) return i;
  }
  return nullptr;
}

void client_world_api::observed(const k8s::object& o, bool deleted) {
  std::lock_guard lock(mu_);
  auto it = written_.find(key_of(o));
  if (it == written_.end()) return;
  // The informer caught up with our write (or the object is gone, or was re-made).
  if (deleted || !it->second || caught_up(o, it->second) || it->second.uid() != o.uid()) {
    written_.erase(it);
  }
}

k8s::object client_world_api::overlaid(const k8s::object& cached, const key& k) const {
  std::lock_guard lock(mu_);
  auto it = written_.find(k);
  if (it == written_.end()) return cached;
  // The cache may have caught up before the write was recorded.
  if (cached && it->second && caught_up(cached, it->second)) return cached;
  return it->second;
}

std::vector<k8s::object> client_world_api::list(const k8s::gvk& kind) {
  std::vector<k8s::object> out;
  auto inf = informer_of(kind);
  if (!inf) return out;
  for (const auto& o : inf->list()) {
    auto cur = overlaid(o, key_of(o));
    if (cur) out.push_back(std::move(cur));
  }
  return out;
}

k8s::object client_world_api::get(const k8s::gvk& kind, std::string_view ns, std::string_view name) {
  auto inf = informer_of(kind);
  if (!inf) return {};
  auto cached = inf->get(ns, name);
  return overlaid(cached ? *cached : k8s::object(), {kind.group + "/" + kind.kind, std::string(ns), std::string(name)});
}

world_api::write_result client_world_api::write(const object_write& w) {
  k8s::write_options opts;
  opts.field_manager = std::string(field_manager);
  const auto& o = w.obj;
  k8s::result<k8s::object> r = k8s::api_error{};
  auto without_rv = o.edit();
  without_rv.remove({"metadata", "resourceVersion"});
  const auto create = std::move(without_rv).freeze();
  switch (w.verb) {
    case write_verb::update:
      r = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) { client_->update(o, opts, std::move(cb)); });
      break;
    case write_verb::update_status:
      r = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) { client_->update_status(o, opts, std::move(cb)); });
      break;
    case write_verb::create:
      r = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) { client_->create(create, opts, std::move(cb)); });
      break;
    case write_verb::upsert: {
      r = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) { client_->create(create, opts, std::move(cb)); });
      if (!r && r.error().already_exists()) {
        auto live = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
          client_->get(o.gvk(), std::string(o.namespace_()), std::string(o.name()), std::move(cb));
        });
        if (!live) return {{}, live.error().describe()};
        auto b = create.edit();
        b.set_resource_version(live->resource_version());
        auto replace = std::move(b).freeze();
        r = wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) { client_->update(replace, opts, std::move(cb)); });
      }
      break;
    }
  }
  if (!r) return {{}, r.error().describe()};
  k8s::object stored = *r;
  // An update that removed the last finalizer of a deleted object answers its
  // last state; it is gone.
  const bool gone = stored && stored.terminating() && stored.finalizers().empty();
  std::lock_guard lock(mu_);
  written_[key_of(o)] = gone ? k8s::object() : stored;
  return {gone ? k8s::object() : stored, std::nullopt};
}

}  // namespace c5c3::sim::world
