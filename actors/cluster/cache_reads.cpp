// Reads the cluster actor answers from its informer caches at once: one get,
// one list, or a batch of them (protocol::read_batch). What no synced cache
// covers is `uncached`: the handler sends it to the API server.
#include "actors/cluster/cluster_state.hpp"
#include "k8s/projection.hpp"

namespace c5c3::cluster::detail {

namespace {

protocol::read_result answered(protocol::read_outcome outcome, protocol::object_list list = {}) {
  return protocol::read_result{outcome, std::move(list)};
}

const protocol::read_result uncached{};

}  // namespace

protocol::read_result read_cached(const cluster_state& st, const protocol::get_request& r) {
  if (r.source != protocol::read_from::cache) return uncached;
  const auto* e = cache_for(st, r.ref.gvk, r.ref.namespace_, "", k8s::canonical_paths(r.drop));
  if (!e) return uncached;
  auto o = e->cache.get(k8s::object_key{r.ref.namespace_, r.ref.name});
  if (!o) return answered(protocol::read_outcome::not_found);
  protocol::object_list l;
  l.items.push_back(std::move(o));
  return answered(protocol::read_outcome::items, std::move(l));
}

protocol::read_result read_cached(const cluster_state& st, const protocol::list_request& r) {
  if (r.source != protocol::read_from::cache) return uncached;
  auto fields = k8s::field_selector::parse(r.field_selector);
  auto request = k8s::label_selector::parse(r.label_selector);
  if (!fields || !request) return uncached;
  const auto accepted = k8s::canonical_paths(r.drop);
  const auto* e = cache_for(st, r.gvk, r.namespace_, r.label_selector, accepted);
  if (!e) e = covering_cache(st, r.gvk, r.namespace_, *request, accepted);
  if (!e) return uncached;
  protocol::object_list out;
  out.items = e->cache.list(r.namespace_, *request, *fields);
  out.resource_version = e->inf->last_resource_version();
  return answered(protocol::read_outcome::items, std::move(out));
}

protocol::read_batch_answer read_cached(const cluster_state& st, const protocol::read_batch& b) {
  protocol::read_batch_answer out;
  out.results.reserve(b.items.size());
  for (const auto& item : b.items) {
    if (item.name.empty()) {
      out.results.push_back(read_cached(st, item.list));
    } else {
      const auto& l = item.list;
      out.results.push_back(
          read_cached(st, protocol::get_request{{l.gvk, l.namespace_, item.name}, l.source, l.drop}));
    }
  }
  return out;
}

}  // namespace c5c3::cluster::detail
