// The objects one informer has delivered, as the cluster actor answers cache
// reads from them (pure; no actor). Besides reads with the informer's own
// label selector, it answers a list whose selector is narrower than the
// informer's: every requirement of the informer's selector appears in the
// request's, or the informer asks only that a key exists and the request
// pins that key's value. A list pinning the value of the informer's first
// `exists` key is answered from an index on that label, so an order listing
// its own children out of every order's children touches only its own.
#pragma once

#include "k8s/object.hpp"
#include "k8s/selector.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace c5c3::cluster {

class informer_cache {
 public:
  explicit informer_cache(const std::string& label_selector = {});

  void put(const k8s::object& o);
  void erase(const k8s::object_key& key);
  const k8s::object* find(const k8s::object_key& key) const;
  const std::map<k8s::object_key, k8s::object>& objects() const { return store_; }

  // Whether a list with `request` can be answered from this cache (the
  // informer's selector is implied by the request's).
  bool covers(const k8s::label_selector& request) const;
  // The objects in `ns` ("" all) matching `request`; call when covers().
  std::vector<k8s::object> list(const std::string& ns, const k8s::label_selector& request) const;

 private:
  k8s::label_selector selector_;
  std::optional<std::string> index_key_;  // the first `exists` key of the selector
  std::map<k8s::object_key, k8s::object> store_;
  std::map<std::string, std::set<k8s::object_key>> index_;  // label value -> objects

  void unindex(const k8s::object& o);
};

}  // namespace c5c3::cluster
