#include "engine/driver/monte_carlo.h"
#include "engine/driver/blocks.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

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

struct DifferenceWorkspaces {
  Workspace a, b;
};

auto paired(const Plan& a, const Plan& b, std::uint64_t seed) {
  return std::pair{[&a, &b] { return DifferenceWorkspaces{Workspace(a), Workspace(b)}; },
                   add_value([&a, &b, seed](std::uint64_t r, DifferenceWorkspaces& ws) {
                     return evaluate(a, seed, r, ws.a) - evaluate(b, seed, r, ws.b);
                   })};
}

struct MetricsBlock {
  Accumulator makespan, parallelism_degree, speedup;
  std::vector<double> values;  // the makespans, when kept
  void merge(const MetricsBlock& o) {
    makespan.merge(o.makespan);
    parallelism_degree.merge(o.parallelism_degree);
    speedup.merge(o.speedup);
    values.insert(values.end(), o.values.begin(), o.values.end());
  }
};

}  // namespace

MetricsRun run_with_metrics(const Plan& plan, const RunOptions& options, const std::vector<double>& power_weights,
                            std::vector<double>* makespans) {
  if (power_weights.size() != static_cast<std::size_t>(plan.width))
    throw InputError("metrics", "one power weight per processor is needed");
  const bool keep = makespans != nullptr;
  auto total = fold_run<MetricsBlock>(
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
        if (keep) block.values.push_back(makespan);
      });
  if (keep) *makespans = std::move(total.values);
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
