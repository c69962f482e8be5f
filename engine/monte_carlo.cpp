#include "engine/monte_carlo.h"
#include "engine/interrupt.h"
#include "engine/tsan.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include <boost/math/distributions/students_t.hpp>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "distributions/input_error.h"

namespace hetstruct::engine {

Estimate summarize(const Accumulator& acc, double confidence) {
  Estimate e;
  e.reps = acc.count;
  e.mean = acc.mean;
  e.min = acc.min;
  e.max = acc.max;
  if (acc.count < 2) {
    e.stddev = e.stderr_ = e.ci_low = e.ci_high = std::nan("");
    return e;
  }
  const double n = static_cast<double>(acc.count);
  e.stddev = std::sqrt(acc.m2 / (n - 1.0));
  e.stderr_ = e.stddev / std::sqrt(n);
  const boost::math::students_t t(n - 1.0);
  const double half = boost::math::quantile(t, 0.5 + confidence / 2.0) * e.stderr_;
  e.ci_low = e.mean - half;
  e.ci_high = e.mean + half;
  return e;
}

namespace {

// Runs options.reps replications in fixed blocks on oneTBB: `add(block, replication, state)`
// folds one replication into its block's statistics (a Block: default-constructible, with
// merge()); the blocks are merged in order. `make_state` builds one thread's buffers. Blocks run
// in waves so that memory stays bounded whatever the number of replications; the fold is the
// same sequential one either way, so the wave size changes no bit of the result.
template <class Block, class MakeState, class Add>
Block run_blocks(const RunOptions& options, MakeState make_state, Add add) {
  if (options.reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  if (options.threads < 0) throw InputError("--threads", "the thread count must be 0 (all cores) or more");
  const std::uint64_t blocks = options.reps / block_size + (options.reps % block_size != 0);  // no overflow
  constexpr std::uint64_t wave = 1024;
  std::vector<Block> per_block(std::min(blocks, wave));
  tbb::enumerable_thread_specific<decltype(make_state())> states(make_state);
  std::atomic<std::uint64_t> done{0};
  const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(threads);

  Block total;
  for (std::uint64_t first_block = 0; first_block < blocks; first_block += wave) {
    const std::uint64_t wave_blocks = std::min(wave, blocks - first_block);
    auto body = [&](const tbb::blocked_range<std::uint64_t>& range) {
      tsan_acquire(&per_block);  // the caller's writes happen before every body
      auto& state = states.local();
      for (std::uint64_t b = range.begin(); b != range.end(); ++b) {
        const std::uint64_t first = (first_block + b) * block_size;
        const std::uint64_t last = std::min(first + block_size, options.reps);
        Block block;
        for (std::uint64_t r = first; r < last; ++r) {
          throw_if_interrupted();
          add(block, r, state);
        }
        per_block[b] = block;
        const std::uint64_t now = done.fetch_add(last - first) + (last - first);
        if (options.progress) options.progress(now, options.reps);
      }
      tsan_release(&done);  // and every body before the caller's code after the loop
    };
    tsan_release(&per_block);
    arena.execute([&] { tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, wave_blocks, 1), body); });
    tsan_acquire(&done);
    for (std::uint64_t b = 0; b < wave_blocks; ++b) total.merge(per_block[b]);
  }
  return total;
}

// One value per replication.
template <class MakeState, class Value>
Estimate run_replications(const RunOptions& options, MakeState make_state, Value value) {
  return summarize(run_blocks<Accumulator>(
      options, make_state, [&](Accumulator& acc, std::uint64_t r, auto& state) { acc.add(value(r, state)); }));
}

struct MetricsBlock {
  Accumulator makespan, parallelism_degree, speedup;
  void merge(const MetricsBlock& o) {
    makespan.merge(o.makespan);
    parallelism_degree.merge(o.parallelism_degree);
    speedup.merge(o.speedup);
  }
};

}  // namespace

MetricsRun run_with_metrics(const Plan& plan, const RunOptions& options, const std::vector<double>& power_weights) {
  if (power_weights.size() != static_cast<std::size_t>(plan.width))
    throw InputError("--metrics", "one power weight per processor is needed");
  const auto total = run_blocks<MetricsBlock>(
      options, [&] { return Workspace(plan); },
      [&](MetricsBlock& block, std::uint64_t r, Workspace& ws) {
        const double makespan = evaluate_busy(plan, options.seed, r, ws);
        double busy = 0.0, on_fastest = 0.0;
        for (int j = 0; j < plan.width; ++j) {
          busy += ws.busy[j];
          on_fastest += power_weights[j] * ws.busy[j];
        }
        block.makespan.add(makespan);
        block.parallelism_degree.add(busy / makespan);
        block.speedup.add(on_fastest / makespan);
      });
  return {summarize(total.makespan), summarize(total.parallelism_degree), summarize(total.speedup)};
}

Estimate run(const Plan& plan, const RunOptions& options) {
  return run_replications(
      options, [&] { return Workspace(plan); },
      [&](std::uint64_t r, Workspace& ws) { return evaluate(plan, options.seed, r, ws); });
}

Estimate run_difference(const Plan& a, const Plan& b, const RunOptions& options) {
  struct Pair {
    Workspace a, b;
  };
  return run_replications(
      options, [&] { return Pair{Workspace(a), Workspace(b)}; },
      [&](std::uint64_t r, Pair& ws) { return evaluate(a, options.seed, r, ws.a) - evaluate(b, options.seed, r, ws.b); });
}

}  // namespace hetstruct::engine
