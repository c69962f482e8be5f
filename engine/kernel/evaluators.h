// The kernel's evaluators that both the plain evaluation (plan.cpp) and the control variates
// (controls.cpp) run: the regular structures' loops, generic in their draws and in a tap that sees
// each task time, and the DAG and protocol replications. Internal to engine/kernel/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "engine/kernel/plan.h"

namespace hetstruct::engine::detail {

inline constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
// Below this width a linear scan finds the idle processor faster than a heap.
inline constexpr int linear_scan_width = 32;

inline void reset_streams(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  for (int i = 0; i < plan.width; ++i) ws.streams[i].reset(seed, rep, i);
}

// Each evaluator takes the processors' draws: Sampler, UniformDraw or NormalDraw (same variates).
template <class Draw>
double evaluate_asynchronous(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  double makespan = minus_infinity;
  ProcessorStream& stream = ws.streams[0];
  for (int i = 0; i < plan.width; ++i) {
    stream.reset(seed, rep, i);
    const Draw draw = draws[i];
    double sum = 0.0;
    for (int k = 0; k < plan.levels; ++k) sum += draw(stream);
    makespan = std::max(makespan, sum);
  }
  return makespan;
}

// What an evaluator tells a control tap: each task time as drawn (task) and each level's end
// (end_level). NoTap compiles away, so plain evaluate() keeps its code and its speed.
struct NoTap {
  void task(int, double) {}
  void end_level() {}
};

// Per-processor sums of the first counts[i] task times and the sum of level maxima
// (ControlSpec), accumulated as the evaluator draws.
struct ControlTap {
  double* sums;               // one per processor, or null
  const std::uint64_t* limit; // sum only the first limit[i] variates
  std::uint64_t* drawn;
  double* level_sum;          // or null
  double level_max = minus_infinity;
  void task(int i, double x) {
    if (sums && drawn[i]++ < limit[i]) sums[i] += x;
    level_max = std::max(level_max, x);
  }
  void end_level() {
    if (level_sum) *level_sum += level_max;
    level_max = minus_infinity;
  }
};

// A ControlTap passed by value to the evaluators (which take their tap by value).
struct TapRef {
  ControlTap* tap;
  void task(int i, double x) { tap->task(i, x); }
  void end_level() { tap->end_level(); }
};

template <class Draw, class Tap = NoTap>
double evaluate_synchronous(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                            Tap tap = {}) {
  reset_streams(plan, seed, rep, ws);
  double end = 0.0;
  for (int k = 0; k < plan.levels; ++k) {
    double longest = minus_infinity;
    for (int i = 0; i < plan.width; ++i) {
      const double x = draws[i](ws.streams[i]);
      tap.task(i, x);
      longest = std::max(longest, x);
    }
    tap.end_level();
    end += longest;
  }
  return end;
}

// The asynchronous makespan drawn level by level (each processor's sum in the same order as
// evaluate_asynchronous, so the same bits), for the controls that need each level's maximum.
template <class Draw>
double evaluate_asynchronous_by_level(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep,
                                      Workspace& ws, ControlTap& tap) {
  reset_streams(plan, seed, rep, ws);
  double* sum = ws.first.data();
  std::fill(sum, sum + plan.width, 0.0);
  for (int k = 0; k < plan.levels; ++k) {
    for (int i = 0; i < plan.width; ++i) {
      const double x = draws[i](ws.streams[i]);
      tap.task(i, x);
      sum[i] += x;
    }
    tap.end_level();
  }
  return *std::max_element(sum, sum + plan.width);
}

template <class Draw, class Tap = NoTap>
double evaluate_neighbor(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                         Tap tap = {}) {
  reset_streams(plan, seed, rep, ws);
  const int n = plan.width;
  double* finish = ws.first.data();
  double* start = ws.second.data();
  std::fill(start, start + n, 0.0);
  for (int k = 0;; ++k) {
    for (int i = 0; i < n; ++i) {
      const double x = draws[i](ws.streams[i]);
      tap.task(i, x);
      finish[i] = start[i] + x;
    }
    tap.end_level();
    if (k + 1 == plan.levels) break;
    if (n == 1) {
      start[0] = finish[0];
    } else if (plan.kind == PlanKind::neighbor_sequential) {
      // Left-then-right exchanges: e(i,i+1) = max(e(i-1,i), f_{i+1}); processor i resumes at it.
      double exchange = finish[0];
      for (int i = 0; i + 1 < n; ++i) {
        exchange = std::max(exchange, finish[i + 1]);
        start[i] = exchange;
      }
      start[n - 1] = exchange;
    } else {
      for (int i = 0; i < n; ++i)
        start[i] = std::max({finish[std::max(i - 1, 0)], finish[i], finish[std::min(i + 1, n - 1)]});
    }
  }
  return *std::max_element(finish, finish + n);
}

// Dynamic dealing with no communication cost: each of the width*levels tasks goes to the
// processor that becomes idle first (lowest index on ties) and takes that processor's law.
template <class Draw, class Tap = NoTap>
double evaluate_task_pool(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                          Tap tap = {}) {
  reset_streams(plan, seed, rep, ws);
  const int n = plan.width;
  double* idle = ws.first.data();
  std::fill(idle, idle + n, 0.0);
  const std::uint64_t tasks = static_cast<std::uint64_t>(n) * plan.levels;
  if (n <= linear_scan_width) {
    for (std::uint64_t t = 0; t < tasks; ++t) {
      const int p = static_cast<int>(std::min_element(idle, idle + n) - idle);  // first minimum
      const double x = draws[p](ws.streams[p]);
      tap.task(p, x);
      idle[p] += x;
    }
  } else {
    // A heap of processors ordered by idle time, lowest index first on ties: the same choice.
    auto later = [idle](int a, int b) { return idle[a] != idle[b] ? idle[a] > idle[b] : a > b; };
    auto& heap = ws.processors;
    for (int i = 0; i < n; ++i) heap[i] = i;
    std::make_heap(heap.begin(), heap.end(), later);
    for (std::uint64_t t = 0; t < tasks; ++t) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const int p = heap.back();
      const double x = draws[p](ws.streams[p]);
      tap.task(p, x);
      idle[p] += x;
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
  return *std::max_element(idle, idle + n);
}

// Longest path over the generic plan, with task t's time given by duration(t) (called in
// topological order, so drawing inside it consumes each processor's stream in that order).

// A custom DAG's replication (busy: each processor's task times added up, when given).
double evaluate_dag(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, double* busy = nullptr);
// A protocol plan's replication (log: its draws; factors: slowdown factors per processor).
double evaluate_protocol(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, double* busy,
                         DrawLog* log = nullptr, const double* factors = nullptr);

}  // namespace hetstruct::engine::detail
