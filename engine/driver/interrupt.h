// Cooperative interruption: the CLI's SIGINT handler raises the flag; the engine's replication
// loops look at it once per replication and stop by throwing Interrupted, so Ctrl-C ends a run
// within one replication and the caller never writes a result made of part of its replications.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace hetstruct::engine {

struct Interrupted : std::runtime_error {
  explicit Interrupted(const std::string& what = "interrupted") : std::runtime_error(what) {}
};

// Lock-free, so that a signal handler may store to it.
inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  static_assert(std::atomic<bool>::is_always_lock_free);
  return flag;
}

// How many cooperative stretches are running now: code that looks at the flag and unwinds,
// keeping what is complete (the replication loops, a sweep between its checkpoints, an atomic
// write). Outside them nothing looks at the flag (reading a file, validating a grid, waiting on a
// FIFO), so a front end's handler may end the process at once there: nothing is half-written.
inline std::atomic<int>& cooperative_depth() {
  static std::atomic<int> depth{0};
  static_assert(std::atomic<int>::is_always_lock_free);
  return depth;
}

// Marks the stretch it lives in as cooperative (nestable, any thread).
struct CooperativeStop {
  CooperativeStop() { cooperative_depth().fetch_add(1, std::memory_order_relaxed); }
  ~CooperativeStop() { cooperative_depth().fetch_sub(1, std::memory_order_relaxed); }
  CooperativeStop(const CooperativeStop&) = delete;
  CooperativeStop& operator=(const CooperativeStop&) = delete;
};

inline void throw_if_interrupted() {
  if (interrupt_flag().load(std::memory_order_relaxed)) throw Interrupted();
}

}  // namespace hetstruct::engine
