// The broker the simulated topology operator declares on. Two kinds: an
// in-memory broker (memory_broker.hpp, tests read it) and a real RabbitMQ over
// its management HTTP API (management_broker.hpp). Every operation answers
// nullopt on success or the error text (never carrying a password).
// Deleting what is not there succeeds, as the topology operator treats a 404.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace c5c3::sim::world {

using broker_error = std::optional<std::string>;

struct permission_set {
  std::string configure;
  std::string write;
  std::string read;
  friend bool operator==(const permission_set&, const permission_set&) = default;
};

struct broker_user {
  std::string name;
  std::string password;       // plain; empty when password_hash is given
  std::string password_hash;  // base64 SHA-512 hash (the imported passwordHash)
  std::string tags;           // comma-separated, "" for a messaging-only user
  friend bool operator==(const broker_user&, const broker_user&) = default;
};

class broker {
 public:
  virtual ~broker() = default;
  virtual broker_error put_vhost(std::string_view name) = 0;
  virtual broker_error delete_vhost(std::string_view name) = 0;
  virtual broker_error put_user(const broker_user& user) = 0;
  virtual broker_error delete_user(std::string_view name) = 0;
  virtual broker_error put_permissions(std::string_view vhost, std::string_view user,
                                       const permission_set& p) = 0;
  virtual broker_error delete_permissions(std::string_view vhost, std::string_view user) = 0;
};

// One call a topology step asks for; a driver runs them in order.
struct put_vhost_call {
  std::string name;
  friend bool operator==(const put_vhost_call&, const put_vhost_call&) = default;
};
struct delete_vhost_call {
  std::string name;
  friend bool operator==(const delete_vhost_call&, const delete_vhost_call&) = default;
};
struct put_user_call {
  broker_user user;
  friend bool operator==(const put_user_call&, const put_user_call&) = default;
};
struct delete_user_call {
  std::string name;
  friend bool operator==(const delete_user_call&, const delete_user_call&) = default;
};
struct put_permissions_call {
  std::string vhost;
  std::string user;
  permission_set permissions;
  friend bool operator==(const put_permissions_call&, const put_permissions_call&) = default;
};
struct delete_permissions_call {
  std::string vhost;
  std::string user;
  friend bool operator==(const delete_permissions_call&, const delete_permissions_call&) = default;
};

using broker_call = std::variant<put_vhost_call, delete_vhost_call, put_user_call, delete_user_call,
                                 put_permissions_call, delete_permissions_call>;

// Runs `calls` in order and stops at the first error, which it answers.
broker_error run_calls(broker& b, const std::vector<broker_call>& calls);

// "put vhost v", for logs (no passwords).
std::string describe(const broker_call& c);

}  // namespace c5c3::sim::world
