// ThreadSanitizer build only (tools/tsan, C5C3_TSAN=ON): tells TSan about the
// happens-before edges of CAF 0.17.6's mailboxes and scheduler.
//
// Debian's libcaf_core.so is not instrumented, so TSan does not see that a
// message's sender happens before its receiver (the mailbox is a lock-free
// LIFO inbox) nor that an actor's handler on one worker thread happens before
// its next handler on another (the work-stealing queues are spin locks). It
// then reports every message payload and every piece of actor state as a
// race, including transitive ones with no CAF frame at all (an object built on
// an io thread, sent to an actor, answered to a scoped_actor and read by the
// test's main thread), which no suppression by a CAF frame can cover.
//
// This file interposes the exported CAF functions at those hand-offs (the test
// executables' definitions take precedence over libcaf_core.so's, also for
// CAF's own calls through its PLT) and calls the originals, adding:
//   - enqueue (scheduled and blocking actors): release on the mailbox element
//     (and on a scheduled actor's mailbox, acquired by cleanup() before it
//     destroys the elements left in a terminated actor's mailbox);
//   - launch: release on the actor (its constructor's writes before its first run);
//   - each message consumed (scheduled and blocking mailbox visitors) and the
//     first activation: acquire on the actor and on the element, release on
//     the actor after (so the actor's state moves between worker threads);
//   - dropping a reference to an actor (strong or weak) or to a ref_counted
//     object (a message's data among others): release and acquire on it, as
//     the acq_rel decrement inside libcaf_core does (so the thread that frees
//     it sees every other holder's use).
//   - every actor system runs the operator's scheduler (unless its
//     configuration names another than the default): CAF's sharing policy
//     with a hand-off slot per worker (actors/operator/handoff_sharing.hpp,
//     compiled here, instrumented): its job queue is a mutex TSan sees,
//     where the default work-stealing queues are spin locks and nodes inside
//     libcaf_core.so, whose frees TSan reported (in worker::run, the frame
//     below every handler, which no suppression may name).
// These are exactly CAF's documented guarantees (a message's construction
// happens before its handler; an actor runs one handler at a time), nothing
// more: races between an actor and any other thread outside messages remain
// visible. What is left over in CAF's internals is in tests/tsan.supp.
#include <caf/actor_control_block.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/config_value.hpp>
#include <caf/blocking_actor.hpp>
#include <caf/ref_counted.hpp>
#include <caf/mailbox_element.hpp>
#include <caf/scheduled_actor.hpp>
#include <caf/scheduler/coordinator.hpp>

#include "actors/operator/handoff_sharing.hpp"

#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The libcaf_core.so definition of `mangled`, as a pointer to member of type M.
template <class M>
M original(const char* mangled) {
  void* p = dlsym(RTLD_NEXT, mangled);
  if (p == nullptr) {
    std::fprintf(stderr, "caf_sync: %s not found: %s\n", mangled, dlerror());
    std::abort();
  }
  // Itanium ABI: a pointer to a non-virtual member function is {address, 0}.
  struct {
    void* ptr;
    std::ptrdiff_t adj;
  } rep{p, 0};
  M m;
  static_assert(sizeof(m) == sizeof(rep));
  std::memcpy(&m, &rep, sizeof(m));
  return m;
}

void acquire(const void* p) { __tsan_acquire(const_cast<void*>(p)); }
void release(const void* p) { __tsan_release(const_cast<void*>(p)); }

// A free function of libcaf_core.so.
template <class F>
F original_fn(const char* mangled) {
  void* p = dlsym(RTLD_NEXT, mangled);
  if (p == nullptr) {
    std::fprintf(stderr, "caf_sync: %s not found: %s\n", mangled, dlerror());
    std::abort();
  }
  return reinterpret_cast<F>(p);
}

}  // namespace

namespace caf {

namespace {

// A message enqueued: release on the element (its handler acquires it), and
// on the reference-counted data of the message it wraps, if it wraps one
// (anon_send_exit's, a delayed or forwarded message: the element's content is
// a caf::message): whoever drops the last reference acquires it in deref(),
// also where CAF destroys the element without handling it (a terminated
// actor's mailbox drained by cleanup() or finalize()). Read first: the release
// is the thread's last touch of the element.
void release_element(mailbox_element* e) {
  if (!e) return;
  const ref_counted* rc = nullptr;
  if (const auto* msg = dynamic_cast<const message*>(&e->content())) rc = msg->cvals().get();
  release(e);
  if (rc) release(rc);
}

}  // namespace

void scheduled_actor::enqueue(mailbox_element_ptr ptr, execution_unit* eu) {
  using fn = void (scheduled_actor::*)(mailbox_element_ptr, execution_unit*);
  static const fn orig =
      original<fn>("_ZN3caf15scheduled_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_unitE");
  release_element(ptr.get());
  release(&mailbox());
  (this->*orig)(std::move(ptr), eu);
}

// A terminated actor's cleanup drains its mailbox and destroys what is left
// there without the visitor: acquire on the mailbox, which every enqueue
// released (the inbox's compare-and-swap inside libcaf_core orders every push
// before the drain), so the destructor of an element another thread built (a
// watch event published to an order that stopped first, in
// cluster_hostile_answers_test) is ordered after its construction.
bool scheduled_actor::cleanup(error&& fail_state, execution_unit* host) {
  using fn = bool (scheduled_actor::*)(error&&, execution_unit*);
  static const fn orig = original<fn>("_ZN3caf15scheduled_actor7cleanupEONS_5errorEPNS_14execution_unitE");
  acquire(&mailbox());
  return (this->*orig)(std::move(fail_state), host);
}

void blocking_actor::enqueue(mailbox_element_ptr ptr, execution_unit* eu) {
  using fn = void (blocking_actor::*)(mailbox_element_ptr, execution_unit*);
  static const fn orig =
      original<fn>("_ZN3caf14blocking_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_unitE");
  release_element(ptr.get());
  (this->*orig)(std::move(ptr), eu);
}

void scheduled_actor::launch(execution_unit* eu, bool lazy, bool hide) {
  using fn = void (scheduled_actor::*)(execution_unit*, bool, bool);
  static const fn orig = original<fn>("_ZN3caf15scheduled_actor6launchEPNS_14execution_unitEbb");
  release(this);
  (this->*orig)(eu, lazy, hide);
}

bool scheduled_actor::activate(execution_unit* ctx) {
  using fn = bool (scheduled_actor::*)(execution_unit*);
  static const fn orig = original<fn>("_ZN3caf15scheduled_actor8activateEPNS_14execution_unitE");
  acquire(this);
  auto r = (this->*orig)(ctx);
  release(this);
  return r;
}

intrusive::task_result scheduled_actor::mailbox_visitor::operator()(mailbox_element& x) {
  using fn = intrusive::task_result (scheduled_actor::mailbox_visitor::*)(mailbox_element&);
  static const fn orig =
      original<fn>("_ZN3caf15scheduled_actor15mailbox_visitorclERNS_15mailbox_elementE");
  acquire(self);
  acquire(&x);
  auto r = (this->*orig)(x);
  release(self);
  return r;
}

intrusive::task_result blocking_actor::mailbox_visitor::operator()(mailbox_element& x) {
  using fn = intrusive::task_result (blocking_actor::mailbox_visitor::*)(mailbox_element&);
  static const fn orig = original<fn>("_ZN3caf14blocking_actor15mailbox_visitorclERNS_15mailbox_elementE");
  acquire(self);
  acquire(&x);
  auto r = (this->*orig)(x);
  release(self);
  return r;
}

void intrusive_ptr_release(actor_control_block* x) {
  static const auto orig = original_fn<void (*)(actor_control_block*)>("_ZN3caf21intrusive_ptr_releaseEPNS_19actor_control_blockE");
  release(x);
  acquire(x);
  orig(x);
}

void intrusive_ptr_release_weak(actor_control_block* x) {
  static const auto orig =
      original_fn<void (*)(actor_control_block*)>("_ZN3caf26intrusive_ptr_release_weakEPNS_19actor_control_blockE");
  release(x);
  acquire(x);
  orig(x);
}

void ref_counted::deref() const noexcept {
  using fn = void (ref_counted::*)() const noexcept;
  static const fn orig = original<fn>("_ZNK3caf11ref_counted5derefEv");
  release(this);
  acquire(this);
  (this->*orig)();
}

}  // namespace caf

// caf::actor_system::actor_system(actor_system_config&), the complete-object
// constructor the tests call: the configuration's scheduler set to the
// operator's first. Defined under its mangled name (a constructor cannot forward to
// another definition of itself), it takes precedence over libcaf_core.so's.
extern "C" void c5c3_tsan_actor_system(caf::actor_system* self, caf::actor_system_config& cfg) __asm__(
    "_ZN3caf12actor_systemC1ERNS_19actor_system_configE");
extern "C" void c5c3_tsan_actor_system(caf::actor_system* self, caf::actor_system_config& cfg) {
  using fn = void (*)(caf::actor_system*, caf::actor_system_config&);
  static const fn orig = original_fn<fn>("_ZN3caf12actor_systemC1ERNS_19actor_system_configE");
  if (caf::get_or(cfg, "scheduler.policy", caf::atom("stealing")) == caf::atom("stealing")) {
    cfg.set("scheduler.policy", caf::atom("sharing"));
    cfg.load<caf::scheduler::coordinator<c5c3::operator_::handoff_sharing>>();
  }
  orig(self, cfg);
}
