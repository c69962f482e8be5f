// Random streams that belong to replications and processors, never to threads.
//
// A ProcessorStream is Philox4x64-10 (Random123, counter-based) keyed by (seed, replication) with
// the processor in the counter, so replication r's draws on processor i are the same whichever
// thread runs it, in whatever order. The same (seed, replication, processor) also gives the same
// stream in every configuration, which pairs (n, m) against (n, 0) draw for draw (common random
// numbers): processor i's k-th task uses the k-th variate of its stream in every structure.
#pragma once

#include <cstdint>
#include <limits>

#include <Random123/philox.h>

namespace hetstruct::engine {

class ProcessorStream {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  ProcessorStream() = default;
  ProcessorStream(std::uint64_t seed, std::uint64_t replication, std::uint64_t processor) {
    reset(seed, replication, processor);
  }

  void reset(std::uint64_t seed, std::uint64_t replication, std::uint64_t processor) {
    key_ = {{seed, replication}};
    counter_ = {{0, 0, processor, 0}};
    next_ = 4;
  }

  result_type operator()() {
    if (next_ == 4) {
      block_ = philox_(counter_, key_);
      ++counter_.v[0];  // 2^64 blocks per stream: never wraps in practice
      next_ = 0;
    }
    return block_.v[next_++];
  }

 private:
  r123::Philox4x64 philox_;
  r123::Philox4x64::key_type key_{};
  r123::Philox4x64::ctr_type counter_{};
  r123::Philox4x64::ctr_type block_{};
  unsigned next_ = 4;
};

}  // namespace hetstruct::engine
