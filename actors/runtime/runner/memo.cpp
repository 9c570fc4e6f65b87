#include "actors/runtime/runner/memo.hpp"

#include <algorithm>
#include <set>

namespace c5c3::runtime {

memo_key memo_key_of(std::string_view cluster, const k8s::object& o) {
  return {std::string(cluster), o.gvk().group, std::string(o.kind()), std::string(o.namespace_()),
          std::string(o.name())};
}

void write_memo::wrote(const memo_key& k, std::string before_rv, k8s::object answer, time_point at) {
  deleted(k, std::move(before_rv), {}, std::move(answer), at);
}

void write_memo::deleted(const memo_key& k, std::string before_rv, std::string uid, k8s::object answer,
                         time_point at) {
  // An answer with a deletionTimestamp stands for every later version of
  // its uid as much as a delete does: none of them can lose it.
  if (uid.empty() && answer && answer.terminating()) uid = std::string(answer.uid());
  auto& chain = entries_[k];
  chain.push_back({std::move(before_rv), std::move(answer), at, std::move(uid), entry::delivery::untold});
  // A chain longer than a pass can write is of no use: keep the newest.
  while (chain.size() > 8) chain.erase(chain.begin());
  if (size() > capacity_) {
    // The oldest entry of all goes.
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (oldest == entries_.end() || it->second.front().at < oldest->second.front().at) oldest = it;
    oldest->second.erase(oldest->second.begin());
    if (oldest->second.empty()) entries_.erase(oldest);
  }
}

void write_memo::expire(time_point now) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto& chain = it->second;
    auto fresh = std::find_if(chain.begin(), chain.end(), [&](const entry& e) { return now - e.at <= horizon_; });
    chain.erase(chain.begin(), fresh);
    it = chain.empty() ? entries_.erase(it) : std::next(it);
  }
}

void write_memo::delivered(const memo_key& k, const std::vector<std::string>& versions, bool complete) {
  // The last version delivered before this account: a write that changed
  // nothing answers the version it met, which may be that one (never a
  // version delivered before it: none was newer when the write was sent).
  auto& last = last_delivered_[k];
  auto it = entries_.find(k);
  if (it != entries_.end()) {
    for (auto& e : it->second) {
      if (e.state == entry::delivery::seen || !e.answer) continue;
      const auto rv = e.answer.resource_version();
      const bool among = rv == last || std::find(versions.begin(), versions.end(), rv) != versions.end();
      e.state = complete && !among ? entry::delivery::awaited : entry::delivery::seen;
    }
  }
  if (!versions.empty()) last = versions.back();
}

k8s::object write_memo::latest(const memo_key& k, const k8s::object& cached, time_point now) {
  expire(now);
  auto it = entries_.find(k);
  if (it == entries_.end()) return cached;
  auto& chain = it->second;
  const std::string from = cached ? std::string(cached.resource_version()) : std::string();
  auto first = std::find_if(chain.begin(), chain.end(), [&](const entry& e) { return e.before == from; });
  // No write replaced the cached version, but it is the object one of the
  // deletes deleted, not yet terminating there: the cache is behind that
  // delete (the newest such), which the view starts from.
  bool behind_delete = false;
  if (first == chain.end() && cached && !cached.terminating() && !cached.uid().empty()) {
    auto del = std::find_if(chain.rbegin(), chain.rend(), [&](const entry& e) { return e.deleted_uid == cached.uid(); });
    if (del != chain.rend()) {
      first = std::prev(del.base());
      behind_delete = true;
    }
  }
  if (first == chain.end() && cached) {
    // No write replaced the cached version, but the informer has not
    // delivered the newest answer yet (of the same object): the cached
    // version came before it in the watch stream, so it is older (somebody
    // else's write between the read and a merge patch, say).
    const auto& newest = chain.back();
    if (newest.state == entry::delivery::awaited && newest.answer &&
        newest.answer.resource_version() != cached.resource_version() &&
        (cached.uid().empty() || newest.answer.uid().empty() || cached.uid() == newest.answer.uid())) {
      auto view = newest.answer;
      chain.erase(chain.begin(), std::prev(chain.end()));
      used_ = true;
      ahead_ = true;
      return view;
    }
  }
  if (first == chain.end()) {
    // The cache shows a version none of the writes replaced: it has caught
    // up (or moved on past them); the entries are spent.
    entries_.erase(it);
    return cached;
  }
  chain.erase(chain.begin(), first);
  k8s::object view = cached;
  std::string rv = from;
  if (behind_delete) {
    view = chain.front().answer;
    used_ = true;
    if (!view) return view;
    rv = std::string(view.resource_version());
  }
  for (std::size_t hops = 0; hops <= chain.size(); ++hops) {
    auto next = std::find_if(chain.begin(), chain.end(), [&](const entry& e) { return e.before == rv; });
    if (next == chain.end()) break;
    view = next->answer;
    used_ = true;
    rv = view ? std::string(view.resource_version()) : std::string();
    if (!view) break;  // gone: a create after it would chain from ""
  }
  return view;
}

std::vector<k8s::object> write_memo::latest_list(std::string_view cluster, const k8s::gvk& gvk, std::string_view ns,
                                                 const std::vector<k8s::object>& cached,
                                                 const std::function<bool(const k8s::object&)>& belongs,
                                                 time_point now) {
  std::vector<k8s::object> out;
  std::set<std::string> names;
  for (const auto& o : cached) {
    names.insert(std::string(o.name()));
    // List items may come without apiVersion and kind: the key names the listed kind.
    memo_key k{std::string(cluster), gvk.group, gvk.kind, std::string(o.namespace_()), std::string(o.name())};
    auto v = latest(k, o, now);
    if (v) out.push_back(std::move(v));
  }
  std::vector<memo_key> unseen;
  for (const auto& [k, chain] : entries_) {
    if (k.cluster != cluster || k.group != gvk.group || k.kind != gvk.kind) continue;
    if (!ns.empty() && k.namespace_ != ns) continue;
    if (names.contains(k.name)) continue;
    unseen.push_back(k);
  }
  for (const auto& k : unseen) {
    auto v = latest(k, k8s::object{}, now);
    if (v && (!belongs || belongs(v))) out.push_back(std::move(v));
  }
  return out;
}

bool write_memo::echo(const memo_key& k, const k8s::object& shown, time_point now) {
  expire(now);
  auto it = entries_.find(k);
  const auto rv = shown.resource_version();
  if (it == entries_.end() || rv.empty()) return false;
  auto& chain = it->second;
  if (std::none_of(chain.begin(), chain.end(), [&](const entry& e) { return e.answer && e.answer.resource_version() == rv; }))
    return false;
  // The cache shows that answer: what came before it is spent, and all of
  // it unless a later write of this actor replaced it.
  auto next = std::find_if(chain.begin(), chain.end(), [&](const entry& e) { return e.before == rv; });
  if (next == chain.end())
    entries_.erase(it);
  else
    chain.erase(chain.begin(), next);
  return true;
}

std::size_t write_memo::size() const {
  std::size_t n = 0;
  for (const auto& [k, chain] : entries_) n += chain.size();
  return n;
}

}  // namespace c5c3::runtime
