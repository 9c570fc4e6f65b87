#include "actors/c5c3/keystoneroleassignment/kind.hpp"

#include "actors/c5c3/keystoneroleassignment/declaration.hpp"

namespace c5c3::c5c3::keystoneroleassignment {

caf::actor spawn_host(caf::actor_system& sys, runtime::kind_host_options opts) {
  return runtime::spawn_kind_host(sys, declaration(), std::move(opts));
}

runtime::pass_fn make_order_pass(runtime::runner_deps deps) {
  return runtime::make_runner_pass(declaration(), std::move(deps));
}

}  // namespace c5c3::c5c3::keystoneroleassignment
