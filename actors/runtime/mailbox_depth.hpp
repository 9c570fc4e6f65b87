// How many messages wait in an actor's mailbox (an approximation, as CAF's
// own size()), for the mailbox-depth gauges.
//
// Why a function of its own: CAF 0.17's intrusive queues cast their sentinel
// node to the element type when a queue is empty (task_queue::back() inside
// fifo_inbox::size()). That cast is harmless but UBSan's vptr check reports
// it, and the sanitizer build stops on any report. mailbox_depth.cpp is
// compiled without that one check (actors/runtime/CMakeLists.txt), so the
// queue code it instantiates is too; nothing else here calls size().
#pragma once

#include <caf/fwd.hpp>

#include <cstddef>

namespace c5c3::runtime {

std::size_t mailbox_depth(caf::scheduled_actor* self);

}  // namespace c5c3::runtime
