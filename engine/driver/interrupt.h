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

inline void throw_if_interrupted() {
  if (interrupt_flag().load(std::memory_order_relaxed)) throw Interrupted();
}

}  // namespace hetstruct::engine
