// The one place the protocol's types are made known to CAF.
//
//   caf::actor_system_config cfg;
//   c5c3::protocol::register_types(cfg);
//
// Plain-data messages get their portable names (add_message_type); local-only
// payloads (objects, errors carrying an api_error) are declared
// CAF_ALLOW_UNSAFE_MESSAGE_TYPE next to their structs and need no entry. The
// api_error_category gets a renderer, so system().render(err) reads well.
#pragma once

#include <caf/fwd.hpp>

namespace c5c3::protocol {

void register_types(caf::actor_system_config& cfg);

}  // namespace c5c3::protocol
