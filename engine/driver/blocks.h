// The replication driver behind every Monte Carlo estimate (engine/driver/monte_carlo.cpp) and the HBSP
// bootstrap (engine/hbsp/replay.cpp): fixed blocks of replications on oneTBB, handed over in block
// order, in waves of bounded memory, stopping at the next replication on Ctrl-C.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/monte_carlo.h"
#include "distributions/tsan.h"

namespace hetstruct::engine {

// Computes blocks [range.first, range.last) of options.reps replications on oneTBB (Options: any
// struct with reps, threads and progress, as RunOptions): `add(block,
// replication, state)` folds one replication into its block's statistics (a Block:
// default-constructible, with merge()); `make_state` builds one thread's buffers. The blocks are
// handed to `consume(std::span<const Block>)` in block order, a wave at a time, so that memory
// stays bounded whatever the number of replications; what the caller does with them (fold them,
// keep them) is its business, and no wave size changes a bit of a fold.
template <class Block, class Options, class MakeState, class Add, class Consume>
void compute_blocks(const Options& options, BlockRange range, MakeState make_state, Add add, Consume consume) {
  if (options.reps == 0) throw InputError("reps", "the number of replications must be at least 1");
  if (options.threads < 0) throw InputError("threads", "the thread count must be 0 (all cores) or more");
  if (range.first > range.last || range.last > block_count(options.reps))
    throw std::out_of_range("block range [" + std::to_string(range.first) + ", " + std::to_string(range.last) +
                            ") outside the " + std::to_string(block_count(options.reps)) + " blocks of the run");
  if (range.first == range.last) return;
  const CooperativeStop cooperative;  // the loop below looks at the interrupt flag
  constexpr std::uint64_t wave = 1024;
  const std::uint64_t blocks = range.last - range.first;
  const std::uint64_t range_reps = std::min(range.last * block_size, options.reps) - range.first * block_size;
  std::vector<Block> per_block(std::min(blocks, wave));
  tbb::enumerable_thread_specific<decltype(make_state())> states(make_state);
  std::atomic<std::uint64_t> done{0};
  const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(threads);

  for (std::uint64_t first_block = range.first; first_block < range.last; first_block += wave) {
    const std::uint64_t wave_blocks = std::min(wave, range.last - first_block);
    auto body = [&](const tbb::blocked_range<std::uint64_t>& r) {
      tsan_acquire(&per_block);  // the caller's writes happen before every body
      auto& state = states.local();
      for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
        const std::uint64_t first = (first_block + b) * block_size;
        const std::uint64_t last = std::min(first + block_size, options.reps);
        Block block;
        for (std::uint64_t rep = first; rep < last; ++rep) {
          throw_if_interrupted();
          add(block, rep, state);
        }
        per_block[b] = std::move(block);
        const std::uint64_t now = done.fetch_add(last - first) + (last - first);
        if (options.progress) options.progress(now, range_reps);
      }
      tsan_release(&done);  // and every body before the caller's code after the loop
    };
    tsan_release(&per_block);
    arena.execute([&] { tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, wave_blocks, 1), body); });
    tsan_acquire(&done);
    consume(std::span<const Block>(per_block.data(), wave_blocks));
  }
}

}  // namespace hetstruct::engine
