#include "engine/monte_carlo.h"

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

// Runs options.reps replications of `value(replication, state)` in fixed blocks on oneTBB and
// merges the blocks in order. `make_state` builds one thread's buffers.
template <class MakeState, class Value>
Estimate run_replications(const RunOptions& options, MakeState make_state, Value value) {
  if (options.reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  if (options.threads < 0) throw InputError("--threads", "the thread count must be 0 (all cores) or more");
  const std::uint64_t blocks = options.reps / block_size + (options.reps % block_size != 0);  // no overflow
  std::vector<Accumulator> per_block(blocks);
  tbb::enumerable_thread_specific<decltype(make_state())> states(make_state);
  std::atomic<std::uint64_t> done{0};

  auto body = [&](const tbb::blocked_range<std::uint64_t>& range) {
    auto& state = states.local();
    for (std::uint64_t b = range.begin(); b != range.end(); ++b) {
      const std::uint64_t first = b * block_size;
      const std::uint64_t last = std::min(first + block_size, options.reps);
      Accumulator acc;
      for (std::uint64_t r = first; r < last; ++r) acc.add(value(r, state));
      per_block[b] = acc;
      const std::uint64_t now = done.fetch_add(last - first) + (last - first);
      if (options.progress) options.progress(now, options.reps);
    }
  };
  const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(threads);
  arena.execute([&] { tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks, 1), body); });

  Accumulator total;
  for (const auto& acc : per_block) total.merge(acc);
  return summarize(total);
}

}  // namespace

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
