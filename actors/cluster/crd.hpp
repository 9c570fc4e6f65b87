// Pure helpers of the cluster actor: whether a CustomResourceDefinition
// serves a kind (Established, the group and kind names, a served version),
// and the informer key (kind, namespace, label selector, scope, projection).
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <tuple>
#include <vector>

namespace c5c3::cluster {

inline const k8s::gvk crd_kind{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

// True when `crd` is Established and serves `k` (spec.group, spec.names.kind,
// a version of that name with served: true).
bool crd_serves(const k8s::object& crd, const k8s::gvk& k);

// True when `crd` defines group and kind of `k` (whatever its state).
bool crd_defines(const k8s::object& crd, const k8s::gvk& k);

// An informer watches `label_selector` narrowed by `scope` (rescope.hpp
// scoped_selector); its cache answers reads as `label_selector`'s would.
struct informer_key {
  k8s::gvk gvk;
  std::string namespace_;
  std::string label_selector;
  std::string field_selector = {};  // non-empty: never answers cache reads
  std::string scope = {};           // non-empty: a scoped subscription's share
  std::vector<std::string> drop = {};  // the projection (canonical): fields its cache leaves out
  friend bool operator<(const informer_key& a, const informer_key& b) {
    return std::tie(a.gvk.group, a.gvk.version, a.gvk.kind, a.namespace_, a.label_selector, a.field_selector,
                    a.scope, a.drop) <
           std::tie(b.gvk.group, b.gvk.version, b.gvk.kind, b.namespace_, b.label_selector, b.field_selector,
                    b.scope, b.drop);
  }
  friend bool operator==(const informer_key& a, const informer_key& b) { return !(a < b) && !(b < a); }
};

}  // namespace c5c3::cluster
