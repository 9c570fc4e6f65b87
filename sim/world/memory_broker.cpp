#include "sim/world/memory_broker.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {

broker_error memory_broker::put_vhost(std::string_view name) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  vhosts_.emplace(name);
  return std::nullopt;
}

broker_error memory_broker::delete_vhost(std::string_view name) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  vhosts_.erase(std::string(name));
  std::erase_if(permissions_, [&](const auto& e) { return e.first.first == name; });
  return std::nullopt;
}

broker_error memory_broker::put_user(const broker_user& user) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  users_[user.name] = user;
  return std::nullopt;
}

broker_error memory_broker::delete_user(std::string_view name) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  users_.erase(std::string(name));
  std::erase_if(permissions_, [&](const auto& e) { return e.first.second == name; });
  return std::nullopt;
}

broker_error memory_broker::put_permissions(std::string_view vhost, std::string_view user,
                                            const permission_set& p) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  if (!vhosts_.contains(std::string(vhost))) {
    return fmt::format("Error: API responded with a 400 Bad Request: vhost \"{}\" does not exist", vhost);
  }
  if (!users_.contains(std::string(user))) {
    return fmt::format("Error: API responded with a 400 Bad Request: user \"{}\" does not exist", user);
  }
  permissions_[{std::string(vhost), std::string(user)}] = p;
  return std::nullopt;
}

broker_error memory_broker::delete_permissions(std::string_view vhost, std::string_view user) {
  std::lock_guard lock(mu_);
  ++calls_;
  if (fail_) return fail_;
  permissions_.erase({std::string(vhost), std::string(user)});
  return std::nullopt;
}

void memory_broker::fail_with(std::optional<std::string> error) {
  std::lock_guard lock(mu_);
  fail_ = std::move(error);
}

std::set<std::string> memory_broker::vhosts() const {
  std::lock_guard lock(mu_);
  return vhosts_;
}

std::optional<broker_user> memory_broker::user(std::string_view name) const {
  std::lock_guard lock(mu_);
  auto it = users_.find(std::string(name));
  if (it == users_.end()) return std::nullopt;
  return it->second;
}

std::optional<permission_set> memory_broker::permissions(std::string_view vhost, std::string_view user) const {
  std::lock_guard lock(mu_);
  auto it = permissions_.find({std::string(vhost), std::string(user)});
  if (it == permissions_.end()) return std::nullopt;
  return it->second;
}

std::size_t memory_broker::calls() const {
  std::lock_guard lock(mu_);
  return calls_;
}

}  // namespace c5c3::sim::world
