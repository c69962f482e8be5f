#include "engine/monte_carlo.h"
#include "engine/interrupt.h"
#include "engine/tsan.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
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

// Computes blocks [range.first, range.last) of options.reps replications on oneTBB: `add(block,
// replication, state)` folds one replication into its block's statistics (a Block:
// default-constructible, with merge()); `make_state` builds one thread's buffers. The blocks are
// handed to `consume(std::span<const Block>)` in block order, a wave at a time, so that memory
// stays bounded whatever the number of replications; what the caller does with them (fold them,
// keep them) is its business, and no wave size changes a bit of a fold.
template <class Block, class MakeState, class Add, class Consume>
void compute_blocks(const RunOptions& options, BlockRange range, MakeState make_state, Add add, Consume consume) {
  if (options.reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  if (options.threads < 0) throw InputError("--threads", "the thread count must be 0 (all cores) or more");
  if (range.first > range.last || range.last > block_count(options.reps))
    throw std::out_of_range("block range [" + std::to_string(range.first) + ", " + std::to_string(range.last) +
                            ") outside the " + std::to_string(block_count(options.reps)) + " blocks of the run");
  if (range.first == range.last) return;
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
        per_block[b] = block;
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

// The whole run folded: every estimate of this file goes through fold_blocks, in block order.
template <class Block, class MakeState, class Add>
Block fold_run(const RunOptions& options, MakeState make_state, Add add) {
  Block total;
  compute_blocks<Block>(options, BlockRange{0, block_count(options.reps)}, make_state, add,
                        [&](std::span<const Block> wave) { fold_blocks(total, wave); });
  return total;
}

// One value per replication.
template <class Value>
auto add_value(Value value) {
  return [value](Accumulator& acc, std::uint64_t r, auto& state) { acc.add(value(r, state)); };
}

auto single(const Plan& plan, std::uint64_t seed) {
  return std::pair{[&plan] { return Workspace(plan); },
                   add_value([&plan, seed](std::uint64_t r, Workspace& ws) { return evaluate(plan, seed, r, ws); })};
}

struct Pair {
  Workspace a, b;
};

auto paired(const Plan& a, const Plan& b, std::uint64_t seed) {
  return std::pair{[&a, &b] { return Pair{Workspace(a), Workspace(b)}; },
                   add_value([&a, &b, seed](std::uint64_t r, Pair& ws) {
                     return evaluate(a, seed, r, ws.a) - evaluate(b, seed, r, ws.b);
                   })};
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
  const auto total = fold_run<MetricsBlock>(
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
  const auto [make_state, add] = single(plan, options.seed);
  return summarize(fold_run<Accumulator>(options, make_state, add));
}

Estimate run_difference(const Plan& a, const Plan& b, const RunOptions& options) {
  const auto [make_state, add] = paired(a, b, options.seed);
  return summarize(fold_run<Accumulator>(options, make_state, add));
}

void run_blocks(const Plan& plan, const RunOptions& options, BlockRange range, const BlockSink& sink) {
  const auto [make_state, add] = single(plan, options.seed);
  compute_blocks<Accumulator>(options, range, make_state, add, sink);
}

void run_difference_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                           const BlockSink& sink) {
  const auto [make_state, add] = paired(a, b, options.seed);
  compute_blocks<Accumulator>(options, range, make_state, add, sink);
}

}  // namespace hetstruct::engine
