#include "protocol/api_error.hpp"

#include <caf/message.hpp>
#include <caf/sec.hpp>

namespace c5c3::protocol {

const char* to_string(api_errc x) {
  switch (x) {
    case api_errc::other: return "other";
    case api_errc::transport: return "transport";
    case api_errc::not_found: return "not_found";
    case api_errc::already_exists: return "already_exists";
    case api_errc::conflict: return "conflict";
    case api_errc::invalid: return "invalid";
    case api_errc::gone: return "gone";
    case api_errc::too_many_requests: return "too_many_requests";
    case api_errc::forbidden: return "forbidden";
    case api_errc::unauthorized: return "unauthorized";
    case api_errc::bad_request: return "bad_request";
    case api_errc::server_error: return "server_error";
    case api_errc::no_match: return "no_match";
    case api_errc::shutting_down: return "shutting_down";
  }
  return "unknown";
}

api_errc classify(const k8s::api_error& e) {
  // Order matters: AlreadyExists is a 409 too, and 410 Expired is a gone.
  if (e.transport()) return api_errc::transport;
  if (e.not_found()) return api_errc::not_found;
  if (e.already_exists()) return api_errc::already_exists;
  if (e.conflict()) return api_errc::conflict;
  if (e.invalid()) return api_errc::invalid;
  if (e.gone()) return api_errc::gone;
  if (e.too_many_requests()) return api_errc::too_many_requests;
  if (e.forbidden()) return api_errc::forbidden;
  if (e.unauthorized()) return api_errc::unauthorized;
  if (e.code == 400) return api_errc::bad_request;
  if (e.server_error()) return api_errc::server_error;
  return api_errc::other;
}

caf::error make_error(const k8s::api_error& e) {
  return caf::error(static_cast<std::uint8_t>(classify(e)), api_error_category,
                    caf::make_message(e));
}

caf::error make_error(api_errc code, std::string message) {
  k8s::api_error e;
  e.message = std::move(message);
  return caf::error(static_cast<std::uint8_t>(code), api_error_category, caf::make_message(e));
}

std::optional<api_errc> api_errc_of(const caf::error& err) {
  if (!err || err.category() != api_error_category) return std::nullopt;
  return static_cast<api_errc>(err.code());
}

std::optional<k8s::api_error> api_error_of(const caf::error& err) {
  if (!err || err.category() != api_error_category) return std::nullopt;
  const auto& ctx = err.context();
  if (ctx.size() != 1 || !ctx.match_element<k8s::api_error>(0)) return std::nullopt;
  return ctx.get_as<k8s::api_error>(0);
}

std::string describe(const caf::error& err) {
  if (!err) return "no error";
  if (auto code = api_errc_of(err)) {
    std::string out = to_string(*code);
    if (auto e = api_error_of(err)) {
      auto d = e->code != 0 || !e->request.empty() ? e->describe() : e->message;
      if (!d.empty()) out += ": " + d;
    }
    return out;
  }
  if (err.category() == caf::atom("system"))
    return "system: " + to_string(static_cast<caf::sec>(err.code()));
  return caf::to_string(err);
}

}  // namespace c5c3::protocol
