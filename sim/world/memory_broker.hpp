// A broker in memory: vhosts, users with their passwords, permissions.
// Thread-safe; tests read its state. Declaring permissions needs the vhost and
// the user to exist, as on RabbitMQ; deleting a vhost or a user drops its
// permissions.
#pragma once

#include "sim/world/broker.hpp"

#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace c5c3::sim::world {

class memory_broker final : public broker {
 public:
  broker_error put_vhost(std::string_view name) override;
  broker_error delete_vhost(std::string_view name) override;
  broker_error put_user(const broker_user& user) override;
  broker_error delete_user(std::string_view name) override;
  broker_error put_permissions(std::string_view vhost, std::string_view user,
                               const permission_set& p) override;
  broker_error delete_permissions(std::string_view vhost, std::string_view user) override;

  // Makes the next calls fail with `error` (nullopt: succeed again).
  void fail_with(std::optional<std::string> error);

  std::set<std::string> vhosts() const;
  std::optional<broker_user> user(std::string_view name) const;
  std::optional<permission_set> permissions(std::string_view vhost, std::string_view user) const;
  // Calls served so far (successful or not).
  std::size_t calls() const;

 private:
  mutable std::mutex mu_;
  std::set<std::string> vhosts_;
  std::map<std::string, broker_user> users_;
  std::map<std::pair<std::string, std::string>, permission_set> permissions_;
  std::optional<std::string> fail_;
  std::size_t calls_ = 0;
};

}  // namespace c5c3::sim::world
