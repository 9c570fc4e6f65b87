#include "actors/runtime/pass.hpp"

namespace c5c3::runtime {

const char* to_string(pass_outcome x) {
  switch (x) {
    case pass_outcome::converged: return "converged";
    case pass_outcome::requeue_after: return "requeue_after";
    case pass_outcome::requeue: return "requeue";
    case pass_outcome::error: return "error";
  }
  return "unknown";
}

pass_result pass_result::requeue_after(caf::timespan d) {
  pass_result r;
  if (d > caf::timespan{0}) {
    r.outcome = pass_outcome::requeue_after;
    r.after = d;
  }
  return r;
}

pass_result pass_result::requeue() {
  pass_result r;
  r.outcome = pass_outcome::requeue;
  return r;
}

pass_result pass_result::failed(std::string why) {
  pass_result r;
  r.outcome = pass_outcome::error;
  r.error = std::move(why);
  return r;
}

bool pass_context::finish(pass_result r) const {
  if (!slot_->open) return false;
  slot_->open = false;
  auto f = std::move(slot_->on_finish);
  slot_->on_finish = nullptr;
  if (f) f(slot_->number, std::move(r));
  return true;
}

}  // namespace c5c3::runtime
