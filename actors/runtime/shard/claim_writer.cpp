#include "actors/runtime/shard/claim_writer.hpp"

#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"

#include <caf/event_based_actor.hpp>

#include <chrono>

namespace c5c3::runtime::shard {

void write_claim(caf::event_based_actor* self, const shard_options& opts, const k8s::gvk& kind,
                 const protocol::order_key& key, std::string patch, claim_done done) {
  protocol::patch_request req;
  req.ref = {kind, key.namespace_, key.name};
  req.type = protocol::patch_type::merge;
  req.body = std::move(patch);
  req.options.field_manager = opts.field_manager;
  self->request(opts.clusters, std::chrono::seconds(10), protocol::lookup_cluster_atom::value, key.cluster)
      .then(
          [self, req = std::move(req), done](const caf::actor& cluster) mutable {
            self->request(cluster, std::chrono::seconds(30), std::move(req))
                .then([done](const k8s::object& o) { done(o, {}); },
                      [done](const caf::error& e) {
                        // A conflict (a newer version, another claimant) is the
                        // precondition at work; anything else (a 403: the rules
                        // lack a patch of the order kind) is the operator's to see.
                        done({}, protocol::is_conflict(e) ? std::string() : protocol::describe(e));
                      });
          },
          [done](const caf::error& e) { done({}, protocol::describe(e)); });
}

}  // namespace c5c3::runtime::shard
