// What woke an order: its own event, a child's, the host (a reference, a
// ControlPlane change, a handoff), or a timer (by its name when the order's
// actor runs; `timer` for a parked order's due time). The order actor counts
// each wake-up that queues a pass by it (c5c3_pass_wakes_total).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace c5c3::protocol {

enum class wake_cause : std::uint8_t { order, child, host, requeue, rotation, grace, timer };

// Each cause's metric label, in the enum's order.
inline constexpr std::array<std::string_view, 7> wake_causes{"order",    "child", "host", "requeue",
                                                             "rotation", "grace", "timer"};

}  // namespace c5c3::protocol
