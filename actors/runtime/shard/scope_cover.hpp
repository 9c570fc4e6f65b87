// Whose stamps a sharded order host's caches certainly show (issue 17's
// handoff). A replica's scoped watches leave out the objects stamped by the
// other ready members (scope.hpp). While a rescope is under way, a cache
// read may be answered by the old scope's informer or by the new one's, so a
// stamp is shown for certain only when every scope that may answer shows it.
//
// The order host is the only writer: it records each scope it asks for
// (asked) and, once the cluster actors answer that every subscription moved
// (protocol::rescope_request is answered then), the one that alone answers
// (settled). Order actors read it on their first pass, on any thread
// (runner_deps::cover): a second holder that took the order over from a
// member whose stamps the caches show reads its children from the cache to
// restamp them, not from the API server (claim.hpp taken_over_from).
#pragma once

#include "actors/runtime/shard/scope.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace c5c3::runtime::shard {

class scope_cover {
 public:
  explicit scope_cover(scope start) : answering_{std::move(start)} {}

  // A rescope to `s` was asked: from now on it may answer too.
  void asked(scope s);
  // The rescope to `s` is complete: only `s` answers.
  void settled(scope s);
  // Whether every scope that may answer shows objects stamped by `holder`.
  bool shows(const std::string& holder) const;

 private:
  mutable std::mutex m_;
  std::vector<scope> answering_;
};

}  // namespace c5c3::runtime::shard
