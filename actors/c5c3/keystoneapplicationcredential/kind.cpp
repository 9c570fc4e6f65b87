#include "actors/c5c3/keystoneapplicationcredential/kind.hpp"

#include "actors/c5c3/keystoneapplicationcredential/declaration.hpp"

namespace c5c3::c5c3::keystoneapplicationcredential {

caf::actor spawn_host(caf::actor_system& sys, runtime::kind_host_options opts, random_source random) {
  return runtime::spawn_kind_host(sys, declaration(std::move(random)), std::move(opts));
}

runtime::pass_fn make_order_pass(runtime::runner_deps deps, random_source random) {
  return runtime::make_runner_pass(declaration(std::move(random)), std::move(deps));
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
