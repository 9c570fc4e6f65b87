#include "actors/operator/kinds.hpp"

namespace c5c3::operator_ {

std::vector<kind_plug> operator_kinds() { return {}; }

std::shared_ptr<runtime::controller_metrics> make_controller_metrics(runtime::metrics::registry& reg,
                                                                     const std::string& controller, int n) {
  auto m = std::make_shared<runtime::controller_metrics>(reg, controller);
  m->max_concurrent_reconciles.set(n);
  return m;
}

}  // namespace c5c3::operator_
