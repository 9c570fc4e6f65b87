// What every Keystone kind's declaration on the order runner starts from: the
// controller's name, the order's kind, its ownership labels (the order's
// label keys), its finalizer and the instrumenter's rows (sub_reconciler ->
// condition_type). The kind adds its reads, references and plan.
#pragma once

#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace c5c3::c5c3::korc {

inline runtime::ownership_keys ownership_keys_of(const order_label_keys& labels) {
  return {labels.name, labels.namespace_, labels.cluster};
}

// `rows`: the kind's sub_reconcilers table (entries with sub_reconciler and
// condition_type).
template <class Rows>
std::shared_ptr<runtime::kind_declaration> order_declaration(std::string_view controller, k8s::gvk gvk,
                                                             const order_label_keys& labels,
                                                             std::string_view finalizer, const Rows& rows) {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = std::string(controller);
  k->gvk = std::move(gvk);
  k->keys = ownership_keys_of(labels);
  k->finalizer = std::string(finalizer);
  for (const auto& e : rows) k->instrumenter.push_back({std::string(e.sub_reconciler), std::string(e.condition_type)});
  return k;
}

}  // namespace c5c3::c5c3::korc
