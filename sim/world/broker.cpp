#include "sim/world/broker.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;
}  // namespace

broker_error run_calls(broker& b, const std::vector<broker_call>& calls) {
  for (const auto& call : calls) {
    auto err = std::visit(
        overloaded{
            [&](const put_vhost_call& c) { return b.put_vhost(c.name); },
            [&](const delete_vhost_call& c) { return b.delete_vhost(c.name); },
            [&](const put_user_call& c) { return b.put_user(c.user); },
            [&](const delete_user_call& c) { return b.delete_user(c.name); },
            [&](const put_permissions_call& c) { return b.put_permissions(c.vhost, c.user, c.permissions); },
            [&](const delete_permissions_call& c) { return b.delete_permissions(c.vhost, c.user); },
        },
        call);
    if (err) return err;
  }
  return std::nullopt;
}

std::string describe(const broker_call& c) {
  return std::visit(
      overloaded{
          [](const put_vhost_call& x) { return fmt::format("put vhost {}", x.name); },
          [](const delete_vhost_call& x) { return fmt::format("delete vhost {}", x.name); },
          [](const put_user_call& x) { return fmt::format("put user {}", x.user.name); },
          [](const delete_user_call& x) { return fmt::format("delete user {}", x.name); },
          [](const put_permissions_call& x) { return fmt::format("put permissions {} on {}", x.user, x.vhost); },
          [](const delete_permissions_call& x) {
            return fmt::format("delete permissions {} on {}", x.user, x.vhost);
          },
      },
      c);
}

}  // namespace c5c3::sim::world
