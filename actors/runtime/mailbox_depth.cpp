#include "actors/runtime/mailbox_depth.hpp"

#include <caf/scheduled_actor.hpp>

namespace c5c3::runtime {

std::size_t mailbox_depth(caf::scheduled_actor* self) { return self->mailbox().size(); }

}  // namespace c5c3::runtime
