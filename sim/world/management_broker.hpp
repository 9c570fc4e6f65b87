// A real RabbitMQ as the broker, over its management HTTP API:
// PUT/DELETE /api/vhosts/V, /api/users/U ({password, tags ""}) and
// /api/permissions/V/U ({configure, write, read}). A 404 on DELETE succeeds.
#pragma once

#include "sim/world/broker.hpp"
#include "sim/world/management_http.hpp"

#include <memory>

namespace c5c3::sim::world {

class management_broker final : public broker {
 public:
  explicit management_broker(std::shared_ptr<management_http> http);

  broker_error put_vhost(std::string_view name) override;
  broker_error delete_vhost(std::string_view name) override;
  broker_error put_user(const broker_user& user) override;
  broker_error delete_user(std::string_view name) override;
  broker_error put_permissions(std::string_view vhost, std::string_view user,
                               const permission_set& p) override;
  broker_error delete_permissions(std::string_view vhost, std::string_view user) override;

 private:
  broker_error send(std::string_view method, const std::string& path, std::string_view body);
  std::shared_ptr<management_http> http_;
};

// Percent-encodes a path segment ("/" becomes "%2F", as the API wants for vhosts).
std::string encode_path_segment(std::string_view s);

}  // namespace c5c3::sim::world
