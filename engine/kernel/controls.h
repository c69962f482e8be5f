// The control variates of a replication, computed in the evaluators' own loops or from a protocol's
// logged draws: which a plan supports (control_spec) and their values beside the makespan
// (evaluate_controls). The estimators (engine/estimators/estimators.h) regress on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bounds/dealing_controls.h"
#include "engine/kernel/plan.h"

namespace hetstruct::engine {

// Control variates of a replication (engine/estimators/estimators.h): statistics of its own task times whose
// expectations are known exactly (bounds/control_means.h), so that regression on them removes
// variance without bias.
struct ControlSpec {
  // Processor i's sum of the first sum_counts[i] variates of its task-time stream (empty: none).
  std::vector<std::uint64_t> sum_counts;
  // The sum over the plan's levels of the level's largest task time (each processor's k-th
  // variate is its task of level k): the synchronous zero-communication makespan.
  bool level_max = false;
  // Master-slave protocols: the protocol's last `last_draws` draws, each less its processor's mean
  // (the plan's comm.mean_task_time). Draw number t (in the order the protocol made them,
  // t = N-1, N-2, ... with N the plan's compute_tasks()) goes to a processor chosen before its
  // value is drawn, and its value is a fresh variate of that processor's law, so each control has
  // mean 0 exactly, however the protocol chose (a martingale difference). A master-bound pool's
  // makespan is set by its last tasks dealt, which no sum or level maximum sees.
  std::size_t last_draws = 0;
  // Protocol plans: processor i's sums of (x - mean_i)^d over the same variates as its sum, for
  // d = 2..max_power (0: none), mean_i its law's mean (the plan's comm.mean_task_time). A
  // level's time is a nonlinear function of each processor's task time (a maximum, a queue at the
  // collector), which the plain sums see only in its linear part; the powers give the regression
  // the curvature (measured on sync at C = 0.05-0.2: variance factor 1.6-3.2 -> 2.2-7.1).
  int max_power = 0;
  std::size_t powers() const { return max_power >= 2 ? static_cast<std::size_t>(max_power - 1) * sum_counts.size() : 0; }
  // Nearest-neighbour protocols: for each pair of neighbours (i, i+1), then each triple (i, i+1,
  // i+2), the sum over levels of their largest task time of the level (means by expected_max). A
  // processor waits for its neighbours, not for the whole line: measured with the powers and the
  // surrogate, they add 5-14% to the variance factor at n = 8-16 and 70% at (4,1), C = 0.15.
  bool neighbor_max = false;
  std::size_t neighbor_maxima() const {
    const std::size_t n = sum_counts.size();
    return neighbor_max && n >= 2 ? (n - 1) + (n - 2) : 0;
  }
  // Master-slave protocols with communication: the conditional-expectation controls of the last
  // `dealing_draws` draws (bounds::DealingControls: V~(x) - E V~(X), mean 0), draw N-1-j for
  // control j as for last_draws, 0 where that draw is the master's own or was not made. Where the
  // master bounds the makespan, its randomness is in the last draws and in which slaves get them
  // (the line's order, which each draw changes): measured, 16 of these take the variance factor
  // from 2.4-2.7 (the last draws' deviations) to 8.1 at (16,8), C = 0.1, 1,000 levels. `dealing`
  // holds the grid's tables, `dealing_law` each processor's law in it. fit_controls trims them
  // first where the regression would not fit.
  std::size_t dealing_draws = 0;
  std::shared_ptr<const bounds::DealingControls> dealing;
  std::vector<std::size_t> dealing_law;
  // Where each family starts among the controls (evaluate_controls' order), and how many there are.
  std::size_t powers_at() const { return sum_counts.size() + (level_max ? 1 : 0); }
  std::size_t neighbors_at() const { return powers_at() + powers(); }
  std::size_t last_draws_at() const { return neighbors_at() + neighbor_maxima(); }
  std::size_t dealing_at() const { return last_draws_at() + last_draws; }
  std::size_t size() const { return dealing_at() + dealing_draws; }
};

// The last draws a master-slave protocol's controls take (ControlSpec::last_draws), and its
// dealing controls (ControlSpec::dealing_draws).
inline constexpr std::uint64_t last_draw_controls = 4;
inline constexpr std::uint64_t dealing_controls = 16;

// The controls a plan supports: every processor's sum over its `levels` tasks, and the sum of
// level maxima for the plans whose tasks come in levels; for the task pool (whose processors run
// a random number of tasks) sums of the first shares[i] variates instead (`shares`: one count per
// processor, from the caller, who knows the laws). A DAG: each processor's busy time.
ControlSpec control_spec(const Plan& plan, const std::vector<std::uint64_t>& shares = {});

// The same replication as evaluate() (the same bits of the makespan), also writing spec.size()
// controls to `controls`: the sums first (processor order), then the level-maximum sum, then the
// powers (degree 2 for every processor, then degree 3, ...), then the neighbours' level maxima
// (pairs from the left, then triples), then the last draws (the last one first). Computed in the
// evaluator's own loop for the zero-communication plans; for protocol plans from the draws the
// protocol logged (the protocol's code is untouched). `task_times` (protocol plans only, or
// null): gets each processor's first plan.levels variates, a row of plan.levels per processor, for
// evaluate_on_task_times.
double evaluate_controls(const Plan& plan, const ControlSpec& spec, std::uint64_t seed, std::uint64_t replication,
                         Workspace& ws, double* controls, double* task_times = nullptr);

}  // namespace hetstruct::engine
