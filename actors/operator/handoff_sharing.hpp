// The operator's scheduling policy: CAF's sharing policy (one queue for every
// worker; an idle worker blocks on its condition variable) with a hand-off
// slot per worker.
//
// Most of the operator's messages are links of a chain: the io thread gives a
// watch event to the cluster actor, which tells the order host, which tells
// the order actor, whose pass asks the cluster actor, and so on. Under CAF's
// sharing policy every link is pushed on the shared queue and wakes the
// sleeping worker, though the worker that sent it is about to be free: on 2
// cores a third of the workers' samples were the kernel switching them back
// in (finish_task_switch; bench/README.md "P3: fewer thread hand-offs", which
// also says what this saved: a quarter of the thread switches, no CPU this
// machine could measure). Here an actor that a
// job running on a worker makes ready goes into that worker's slot, and the
// worker runs it next without waking anyone; only a second one made ready by
// the same job (a fan-out) goes to the shared queue and may wake the other
// worker. Go's scheduler does the same (runnext).
//
// Bounds: a worker takes at most `max_streak` jobs from its slot in a row
// before it serves the shared queue again, so two actors messaging each other
// cannot starve the rest (with one worker too); and a job that has run longer
// than `long_job` hands off to the shared queue instead, where an idle worker
// takes it at once, rather than keep it waiting behind itself.
//
// What it gives up: a job that makes an actor ready early and only then runs
// long holds that actor in its slot until it ends, where the sharing policy
// would have run it beside, on the other worker. The cluster actor's relist
// builds the listed map before it tells its subscribers, so its events go to
// the queue; but a cluster actor draining a burst of watch events is one job
// (CAF's max-throughput is unbounded), and the host it made ready first waits
// for the burst. A bounded max-throughput would end such a job every N
// messages; not measured yet.
#pragma once

#include <caf/actor_system_config.hpp>
#include <caf/policy/unprofiled.hpp>
#include <caf/resumable.hpp>
#include <caf/scheduler/abstract_coordinator.hpp>
#include <caf/scheduler/coordinator.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>

namespace c5c3::operator_ {

// Counts over every coordinator of the policy since the process started, for
// tests and benchmarks.
struct handoff_counters {
  // Times a worker found nothing to do and blocked.
  static std::uint64_t sleeps() { return sleeps_counter().load(std::memory_order_relaxed); }
  // Times a worker took a job from its slot.
  static std::uint64_t handoffs() { return handoffs_counter().load(std::memory_order_relaxed); }

 protected:
  static std::atomic<std::uint64_t>& sleeps_counter() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
  static std::atomic<std::uint64_t>& handoffs_counter() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
};

// The bounds are parameters so that a test can take one away.
template <int MaxStreak, std::int64_t LongJobMicros>
class basic_handoff_sharing : public caf::policy::unprofiled, public handoff_counters {
 public:
  static constexpr int max_streak = MaxStreak;
  static constexpr std::chrono::microseconds long_job{LongJobMicros};

  struct coordinator_data {
    explicit coordinator_data(caf::scheduler::abstract_coordinator*) {}
    std::deque<caf::resumable*> queue;
    std::mutex lock;
    std::condition_variable cv;
    int sleeping = 0;  // workers waiting on cv
  };

  struct worker_data {
    explicit worker_data(caf::scheduler::abstract_coordinator*) {}
    caf::resumable* next = nullptr;  // the hand-off slot
    int streak = 0;                  // jobs taken from the slot in a row
    std::chrono::steady_clock::time_point resumed{};
  };

  template <class Coordinator>
  void central_enqueue(Coordinator* self, caf::resumable* job) {
    push(d(self), job, true);
  }

  template <class Worker>
  void external_enqueue(Worker* self, caf::resumable* job) {
    central_enqueue(self->parent(), job);
  }

  // From a job running on `self`: its slot, unless taken or the job is long.
  template <class Worker>
  void internal_enqueue(Worker* self, caf::resumable* job) {
    auto& w = d(self);
    if (w.next == nullptr && std::chrono::steady_clock::now() - w.resumed < long_job) {
      w.next = job;
      return;
    }
    central_enqueue(self->parent(), job);
  }

  template <class Worker>
  void resume_job_later(Worker* self, caf::resumable* job) {
    central_enqueue(self->parent(), job);
  }

  template <class Worker>
  caf::resumable* dequeue(Worker* self) {
    auto& w = d(self);
    auto& q = d(self->parent());
    if (auto* job = std::exchange(w.next, nullptr)) {
      if (++w.streak <= max_streak) {
        handoffs_counter().fetch_add(1, std::memory_order_relaxed);
        return started(w, job);
      }
      push(q, job, false);  // behind what waits there; this worker takes the front at once
    }
    w.streak = 0;
    std::unique_lock<std::mutex> guard(q.lock);
    while (q.queue.empty()) {
      ++q.sleeping;
      sleeps_counter().fetch_add(1, std::memory_order_relaxed);
      q.cv.wait(guard);
      --q.sleeping;
    }
    auto* job = q.queue.front();
    q.queue.pop_front();
    return started(w, job);
  }

  // At shutdown: the job left in a worker's slot.
  template <class Worker, class UnaryFunction>
  void foreach_resumable(Worker* self, UnaryFunction f) {
    if (auto* job = std::exchange(d(self).next, nullptr)) f(job);
  }

  template <class Coordinator, class UnaryFunction>
  void foreach_central_resumable(Coordinator* self, UnaryFunction f) {
    auto& q = d(self);
    std::unique_lock<std::mutex> guard(q.lock);
    while (!q.queue.empty()) {
      auto* job = q.queue.front();
      q.queue.pop_front();
      f(job);
    }
  }

 private:
  static void push(coordinator_data& q, caf::resumable* job, bool may_wake) {
    bool wake = false;
    {
      std::lock_guard<std::mutex> guard(q.lock);
      q.queue.push_back(job);
      wake = may_wake && q.sleeping > 0;
    }
    if (wake) q.cv.notify_one();
  }
  static caf::resumable* started(worker_data& w, caf::resumable* job) {
    w.resumed = std::chrono::steady_clock::now();
    return job;
  }
};

using handoff_sharing = basic_handoff_sharing<16, 200>;

// Sets `cfg`'s scheduler: this policy, `threads` workers (the operator's,
// run.cpp with scheduler.hpp's count; and the tests', tests/actor_config.hpp).
inline void use_handoff_sharing(caf::actor_system_config& cfg, std::size_t threads) {
  cfg.set("scheduler.policy", caf::atom("sharing"));
  cfg.set("scheduler.max-threads", threads);
  cfg.load<caf::scheduler::coordinator<handoff_sharing>>();
}

}  // namespace c5c3::operator_
