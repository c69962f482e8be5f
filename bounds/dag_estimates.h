// Analytic estimates and bounds of the expected makespan (and its variance) of a DAG with random
// task and edge times, from each time's mean and variance only. Nothing here samples.
//
// The model is the simulation's (engine/kernel/plan.h): task t finishes at F_t = S_t + D_t, where its
// start S_t = max over its predecessors p of (F_p + E_pt) (0 for a source), D_t is its time and
// E_pt the edge's delay (a message; 0 without one); the makespan is the max of F over the sinks.
// All times are independent.
//
//   cpm                 the longest path of the means: E[makespan] >= it (Jensen); its variance is
//                       that path's.
//   kamburowski_lower   Kamburowski (1985)'s recursions on the activity-on-arc form of the graph
//   kamburowski_upper   (an event for each task's start and finish): lower and upper bounds on
//                       the mean and on the variance when the times are normal (an
//                       approximation otherwise: the max of two u(0,1) exceeds the upper one).
//   sculli              Sculli (1983): Clark's moments of the max of two normals, independence
//                       assumed, pairwise in predecessor order.
//   corlca              Canon and Jeannot (2016): Clark's max with the correlation of two terms
//                       approximated through their lowest common ancestor in a tree of dominant
//                       predecessors: the variance of the dominant path down to it, over the
//                       product of the terms' own dominant paths' standard deviations.
//   clark_canonical     Clark's max with every correlation tracked: each time is kept in canonical
//                       form, a mean plus a linear combination of the independent task and edge
//                       times and of one fresh normal per pairwise max (what Clark's variance
//                       has beyond the linear part); dense, so only where canonical_fits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetstruct::bounds {

// A DAG with random times, tasks in topological order. Predecessors in CSR form: the predecessors
// of task t are preds[pred_begin[t] .. pred_begin[t+1]), each < t. Edge weights, when present,
// are parallel to preds (empty: every edge costs nothing).
struct StochasticDag {
  std::vector<double> mean, variance;      // task times
  std::vector<std::uint32_t> pred_begin;   // size tasks + 1
  std::vector<std::uint32_t> preds;
  std::vector<double> edge_mean, edge_variance;  // empty, or one per entry of preds
  std::vector<std::uint32_t> sinks;        // the tasks whose finish the makespan is the max of
  // Every task and edge time is normal (a constant counts as one): Kamburowski's recursions are
  // then bounds. With other laws they only approximate, and dag_estimates says so.
  bool normal = false;

  std::size_t tasks() const { return mean.size(); }
  bool has_edge_weights() const { return !edge_mean.empty(); }
  // InputError ("graph") when the arrays disagree, a predecessor is not earlier, or a variance is
  // negative or a number not finite.
  void validate() const;
};

// Mean and variance of a normal approximation (or bound) of a random time.
struct Moments {
  double mean = 0.0;
  double variance = 0.0;
};

// Clark (1961): the mean and variance of max(X, Y) for X, Y normal with correlation rho.
Moments clark_max(Moments x, Moments y, double rho);

// One estimate of the makespan: the method's label and its mean and variance (for bounds, a
// bound on each).
struct DagEstimate {
  std::string method;
  Moments moments;
  bool lower_bound = false;  // the mean is a lower bound on E[makespan] (for the DAG's laws)
  bool upper_bound = false;  // the mean is an upper bound on E[makespan] (for the DAG's laws)
};

Moments cpm(const StochasticDag& dag);
struct KamburowskiBounds {
  Moments lower, upper;  // lower.mean <= E <= upper.mean, lower.variance <= Var <= upper.variance
};
KamburowskiBounds kamburowski(const StochasticDag& dag);
Moments sculli(const StochasticDag& dag);
Moments corlca(const StochasticDag& dag);
// The canonical form keeps one coefficient per random time (task or edge) and per pairwise max
// for every finish time alive. canonical_fits is false when that takes more than
// canonical_operations coefficient updates or canonical_memory coefficients at once; there
// clark_canonical throws InputError ("graph") and dag_estimates leaves it out.
inline constexpr double canonical_operations = 2e9;  // about 2 s
inline constexpr double canonical_memory = 3e7;      // 240 MB
bool canonical_fits(const StochasticDag& dag);
Moments clark_canonical(const StochasticDag& dag);

// Every estimate above, in the order listed at the top (clark_canonical only where it fits).
std::vector<DagEstimate> dag_estimates(const StochasticDag& dag);

}  // namespace hetstruct::bounds
