// Random streams that belong to replications and processors, never to threads.
//
// The stream of (seed, replication, processor) is xoshiro256++ started from the 256-bit block
// that the counter-based Philox4x64-10 (Random123) gives for key (seed, replication) and counter
// (processor): a pure function of the three numbers, so replication r's draws on processor i are
// the same whichever thread runs it, in whatever order. Philox only derives the state (one block
// per stream); xoshiro256++ draws, at about a third of Philox's cost per variate.
//
// The same (seed, replication, processor) gives the same stream in every configuration, and
// processor i's k-th task uses its stream's k-th variate in every structure: (n, m) and (n, 0)
// are compared draw for draw (common random numbers).
//
// Outputs are 63-bit: Boost.Random then converts them to double without the slow unsigned path,
// and its normal (ziggurat) still gets the 61 bits it needs from one output.
#pragma once

#include <cstdint>

#include <Random123/philox.h>

namespace hetstruct::engine {

class ProcessorStream {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return (std::uint64_t{1} << 63) - 1; }

  ProcessorStream() = default;
  // Streams of task times are domain 0; other randomness of a replication (a protocol's random
  // orders) takes another domain, so it never shifts the task times. A custom DAG draws all its
  // task times from one stream of domain dag_tasks (counter 0) and its message times from one of
  // domain messages, so that message draws never shift task times (engine/kernel/plan.h). Correlated
  // slowdowns draw their factors from one stream of domain slowdown (counter 0). A paired
  // comparison's bootstrap draws resample b's indices from the stream of (seed, b, 0) in domain
  // bootstrap (engine/estimators/paired.h), so it never shares a variate with a replication.
  enum Domain : std::uint64_t { tasks = 0, protocol = 1, dag_tasks = 2, messages = 3, slowdown = 4, bootstrap = 5 };

  ProcessorStream(std::uint64_t seed, std::uint64_t replication, std::uint64_t processor, Domain domain = tasks) {
    reset(seed, replication, processor, domain);
  }

  void reset(std::uint64_t seed, std::uint64_t replication, std::uint64_t processor, Domain domain = tasks) {
    const r123::Philox4x64::key_type key = {{seed, replication}};
    const r123::Philox4x64::ctr_type counter = {{processor, domain, 0, 0}};
    const auto block = r123::Philox4x64()(counter, key);
    for (int i = 0; i < 4; ++i) state_[i] = block.v[i];
    if ((state_[0] | state_[1] | state_[2] | state_[3]) == 0) state_[0] = 1;  // the one forbidden state
  }

  result_type operator()() {
    const std::uint64_t result = rotl(state_[0] + state_[3], 23) + state_[0];
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result >> 1;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4] = {1, 0, 0, 0};
};

}  // namespace hetstruct::engine
