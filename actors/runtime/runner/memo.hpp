// Read-your-writes for every kind: what an order actor's own writes answered,
// kept until the informer caches show it (pure; one per order actor).
//
// A pass senses from the caches, which may lag behind the actor's own last
// writes. The memo keeps each write's answer keyed by the object and by the
// resourceVersion the write replaced ("" for a create), so a pass that starts
// on a cache older than its last write continues from what that write
// answered instead of meeting a Conflict, re-creating a child or deleting one
// twice. resourceVersions are only compared for equality, never ordered: an
// entry is spent once the cache shows a version it does not chain from (the
// cache caught up, or somebody else wrote), except a delete's while the cache
// shows its object without a deletionTimestamp (older than the delete: see
// deleted()), and except the newest answer of an object whose every
// delivered version the memo is told (delivered()) while the informer has
// not delivered it yet: one watch stream delivers versions in the order they
// were written, so whatever it delivered before the answer is older than it
// (the order object, whose every version its host hands to the actor).
// Every entry is dropped after `horizon`, so a memo can never hide a change
// for longer than that. A pass that relied on an entry comes back after the
// horizon (used()).
#pragma once

#include "k8s/object.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::runtime {

struct memo_key {
  std::string cluster;  // "" management
  std::string group;
  std::string kind;
  std::string namespace_;
  std::string name;
  friend auto operator<=>(const memo_key&, const memo_key&) = default;
};
memo_key memo_key_of(std::string_view cluster, const k8s::object& o);

class write_memo {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  explicit write_memo(std::chrono::nanoseconds horizon = std::chrono::seconds(30), std::size_t capacity = 64)
      : horizon_(horizon), capacity_(capacity) {}

  // A write of `k` replaced the version `before_rv` ("" when there was none)
  // with `answer` (empty: the object is gone). An answer being deleted
  // (metadata.deletionTimestamp set) is kept as deleted() keeps a delete's.
  void wrote(const memo_key& k, std::string before_rv, k8s::object answer, time_point at);

  // A delete of `k`, the object of uid `uid` at `before_rv`, answered
  // `answer` (empty: gone; or the object terminating, held by finalizers).
  // Besides what wrote() keeps: until the cache shows the object
  // terminating or gone, any version of that uid it shows without a
  // deletionTimestamp is older than the delete (a deletionTimestamp is never
  // taken back), so it is seen as the delete's answer, whichever version it
  // is (the cache may show one somebody else wrote before the delete, or a
  // relist served before it); the object is never deleted twice.
  void deleted(const memo_key& k, std::string before_rv, std::string uid, k8s::object answer, time_point at);

  // The versions of `k` the informer delivered (oldest first) since the
  // last call, or since before any write the memo holds of `k` was sent;
  // `complete`: every one (false: some may be missing, and the memo
  // orders none of them). An answer among them has been delivered: a
  // version the cache shows later that does not chain from it is newer (the
  // cache caught up, or somebody else wrote after it). While the newest
  // answer of `k` is not among them, a version the cache shows that it
  // does not chain from was delivered before it, and is older: latest()
  // gives the answer (ahead()). Only an object told this way is ordered;
  // the others keep to equality.
  void delivered(const memo_key& k, const std::vector<std::string>& versions, bool complete);

  // What a pass should see of `k`, given the cache's `cached` (empty:
  // absent): the newest answer chained from it, or `cached` itself. Spent
  // entries are dropped.
  k8s::object latest(const memo_key& k, const k8s::object& cached, time_point now);

  // A list read through the memo: every cached item replaced by its latest
  // view (gone ones dropped), plus the objects this actor created in
  // (cluster, group, kind, namespace) that the cache does not show yet and
  // `belongs` accepts.
  std::vector<k8s::object> latest_list(std::string_view cluster, const k8s::gvk& gvk, std::string_view ns,
                                       const std::vector<k8s::object>& cached,
                                       const std::function<bool(const k8s::object&)>& belongs, time_point now);

  // Whether `shown`, a watch event's version of `k`, is an answer the memo
  // holds: the echo of this actor's own write, which its pass continued
  // from when the answer came (a pass woken by it would see nothing new).
  // If so, the entries it shows the cache has caught up with are spent, as
  // latest() would spend them (the used and ahead flags are left alone).
  bool echo(const memo_key& k, const k8s::object& shown, time_point now);

  // Whether a read since the last reset() returned something the cache does
  // not show yet (the pass should come back once the cache caught up).
  bool used() const { return used_; }
  // Whether a read since the last reset() gave an answer over a version the
  // informer delivered before it (delivered()). Such a view holds until the
  // answer is delivered, which a relist past it (a 410, a new scope) may
  // never do: the pass should come back after the horizon.
  bool ahead() const { return ahead_; }
  void reset_used() {
    used_ = false;
    ahead_ = false;
  }
  std::chrono::nanoseconds horizon() const { return horizon_; }
  std::size_t size() const;

 private:
  struct entry {
    std::string before;
    k8s::object answer;
    time_point at;
    // A delete's (or an answer being deleted): the uid of the object, any
    // version of which without a deletionTimestamp is older than the entry.
    std::string deleted_uid;
    // What delivered() said of the answer: nothing yet (`k` not told),
    // not delivered so far by a complete account, or delivered (or maybe:
    // an incomplete account).
    enum class delivery : unsigned char { untold, awaited, seen } state = delivery::untold;
  };
  void expire(time_point now);

  std::chrono::nanoseconds horizon_;
  std::size_t capacity_;
  // A chain holds one or a few entries (at most 8): a vector, not a deque,
  // whose first block alone is 512 bytes (bench/README.md, the write memo at
  // the convergence's peak).
  std::map<memo_key, std::vector<entry>> entries_;
  // Of each object told by delivered(): the last version delivered.
  std::map<memo_key, std::string> last_delivered_;
  bool used_ = false;
  bool ahead_ = false;
};

}  // namespace c5c3::runtime
