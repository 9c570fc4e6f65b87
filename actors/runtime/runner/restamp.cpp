// The new holder's restamp (sharded, issue 17): an order actor's first pass
// reads its children slots (and named slots of objects carrying the order's
// labels: a delivered Secret in the order's namespace) from the API server,
// not the cache, because the replica's scoped children watch may not show
// children still stamped by the order's previous holders; from the cache only
// when it certainly does (run_state::restamp: the second holder, taken over
// from a member whose stamps the caches show). Each such child is stamped
// with this replica's name
// (a merge patch with its resourceVersion as precondition, fenced and counted
// like every write), and the answer is what the pass sees (and the memo keeps,
// as if created: the cache shows it only once the watch catches up).
#include "actors/runtime/runner/run_state.hpp"
#include "actors/runtime/shard/lease_state.hpp"
#include "protocol/api_error.hpp"

namespace c5c3::runtime::detail {

namespace proto = ::c5c3::protocol;

namespace {

std::string restamp_patch(const std::string& me, std::string_view resource_version) {
  return R"({"metadata":{"labels":{")" + std::string(shard::claim_label) + R"(":")" + me +
         R"("},"resourceVersion":")" + std::string(resource_version) + R"("}})";
}

void note(const run_ptr& r, const caf::error& e) {
  if (r->read_error.empty()) r->read_error = proto::describe(e);
}

}  // namespace

void read_and_restamp(const run_ptr& r, const join_ptr& j, const read_slot& slot, slot_result& out,
                      std::function<bool(const k8s::object&)> keep) {
  ++j->pending;
  bool live = *r->restamp == restamp_read::from_server || slot.uncached;
  out.live = live;
  r->self()
      ->request(r->cluster_of(slot.cluster), live ? caf::duration(r->timeout()) : caf::duration(caf::infinite),
                proto::list_request{slot.gvk, out.namespace_, order_selector(r->kind->keys, r->snap.key), "",
                                    live ? proto::read_from::server : proto::read_from::cache, slot.drop})
      .then(
          [r, j, &slot, &out, keep](proto::object_list& l) {
            const auto& me = r->deps->shard_name;
            for (auto& o : l.items) {
              if (!labelled_for(o, r->kind->keys, r->snap.key) || (keep && !keep(o))) continue;
              auto holder = o.label(shard::claim_label);
              if (!holder || *holder == me) {
                out.items.push_back(std::move(o));
                continue;
              }
              auto index = out.items.size();
              out.items.push_back(o);
              ++j->pending;
              send_write(
                  r, r->cluster_of(slot.cluster),
                  proto::patch_request{{slot.gvk, std::string(o.namespace_()), std::string(o.name())},
                                       proto::patch_type::merge, restamp_patch(me, o.resource_version()), "",
                                       write_opts(r)},
                  [r, j, &slot, &out, index](const k8s::object& answer) {
                    memo_key k{r->cluster_name(slot.cluster), slot.gvk.group, slot.gvk.kind,
                               std::string(answer.namespace_()), std::string(answer.name())};
                    r->memo->wrote(k, "", answer, r->ctx.now());
                    out.items[index] = answer;
                    j->done();
                  },
                  [r, j](const caf::error& e) {
                    note(r, e);
                    j->done();
                  });
            }
            j->done();
          },
          [r, j, &slot, &out](const caf::error& e) {
            if (proto::is_no_match(e)) {
              out.served = false;
              if (!slot.optional) note(r, e);
            } else {
              note(r, e);
            }
            j->done();
          });
}

}  // namespace c5c3::runtime::detail
