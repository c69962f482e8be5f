#include "bounds/dag_estimates.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <utility>

#include "distributions/input_error.h"

namespace hetstruct::bounds {

namespace {

constexpr std::uint32_t none = static_cast<std::uint32_t>(-1);

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }

Moments plus(Moments a, Moments b) { return {a.mean + b.mean, a.variance + b.variance}; }

// The weight of the j-th entry of preds (0 without edge weights).
Moments edge(const StochasticDag& dag, std::uint32_t j) {
  return dag.has_edge_weights() ? Moments{dag.edge_mean[j], dag.edge_variance[j]} : Moments{};
}

Moments task(const StochasticDag& dag, std::size_t t) { return {dag.mean[t], dag.variance[t]}; }

// Clark's moments with the probability that X is the larger: the canonical form weighs by it.
struct ClarkMax {
  Moments moments;
  double p_x;  // Phi(alpha) = P(X > Y)
};

ClarkMax clark(Moments x, Moments y, double rho) {
  const double sx = std::sqrt(x.variance), sy = std::sqrt(y.variance);
  const double a2 = x.variance + y.variance - 2.0 * rho * sx * sy;
  // X - Y constant: the max is whichever is larger.
  if (!(a2 > 0.0)) return x.mean >= y.mean ? ClarkMax{x, 1.0} : ClarkMax{y, 0.0};
  const double a = std::sqrt(a2);
  const double alpha = (x.mean - y.mean) / a;
  const double px = normal_cdf(alpha), py = normal_cdf(-alpha), pdf = normal_pdf(alpha);
  // Moments about the midpoint c: the variance is shift-invariant, and centring keeps E[max^2]
  // from cancelling against E[max]^2 when the means are large against the spread.
  const double c = 0.5 * (x.mean + y.mean);
  const double mx = x.mean - c, my = y.mean - c;
  const double first = mx * px + my * py + a * pdf;
  const double second = (mx * mx + x.variance) * px + (my * my + y.variance) * py + (mx + my) * a * pdf;
  return {{c + first, std::max(0.0, second - first * first)}, px};
}

// The number of successors of each task, a sink counting the final event as one.
std::vector<std::uint32_t> successor_counts(const StochasticDag& dag) {
  std::vector<std::uint32_t> out(dag.tasks(), 0);
  for (const auto p : dag.preds) ++out[p];
  for (const auto s : dag.sinks) ++out[s];
  return out;
}

// E[max(X, Y)] for independent normals (Kamburowski's h).
double h(double mx, double vx, double my, double vy) { return clark({mx, vx}, {my, vy}, 0.0).moments.mean; }

// Kamburowski's recursions over terms sorted by increasing variance (stable). f_under's first two
// terms keep both variances: E[max(H1 + Z1, H2 + Z2)] >= E[max(E H1 + Z1, E H2 + Z2)] for
// private, independent Z1, Z2, whatever H1 and H2 share (Jensen).
double f_under(std::vector<Moments> terms) {
  std::stable_sort(terms.begin(), terms.end(), [](Moments a, Moments b) { return a.variance < b.variance; });
  if (terms.size() == 1) return terms[0].mean;
  double m = h(terms[0].mean, terms[0].variance, terms[1].mean, terms[1].variance);
  for (std::size_t k = 2; k < terms.size(); ++k) m = h(m, 0.0, terms[k].mean, terms[k].variance);
  return m;
}

double f_over(std::vector<Moments> terms) {
  std::stable_sort(terms.begin(), terms.end(), [](Moments a, Moments b) { return a.variance < b.variance; });
  double m = terms[0].mean;
  for (std::size_t k = 1; k < terms.size(); ++k) m = h(m, terms[k - 1].variance, terms[k].mean, terms[k].variance);
  return m;
}

}  // namespace

void StochasticDag::validate() const {
  const std::size_t n = tasks();
  if (n == 0) throw InputError("graph", "the DAG has no task");
  if (variance.size() != n || pred_begin.size() != n + 1 || pred_begin.front() != 0 || pred_begin.back() != preds.size())
    throw InputError("graph", "the DAG's arrays disagree in size");
  if (has_edge_weights() && (edge_mean.size() != preds.size() || edge_variance.size() != preds.size()))
    throw InputError("graph", "the DAG's edge weights disagree with its edges in number");
  if (sinks.empty()) throw InputError("graph", "the DAG has no sink");
  auto check = [](double mean_value, double variance_value) {
    if (!std::isfinite(mean_value) || !std::isfinite(variance_value) || variance_value < 0.0)
      throw InputError("graph", "a task or edge time has a mean or variance that is not finite, or a negative variance");
  };
  for (std::size_t t = 0; t < n; ++t) {
    check(mean[t], variance[t]);
    if (pred_begin[t] > pred_begin[t + 1]) throw InputError("graph", "the DAG's predecessor offsets decrease");
    for (auto j = pred_begin[t]; j < pred_begin[t + 1]; ++j)
      if (preds[j] >= t) throw InputError("graph", "the DAG's tasks are not in topological order");
  }
  for (std::size_t j = 0; has_edge_weights() && j < preds.size(); ++j) check(edge_mean[j], edge_variance[j]);
  for (const auto s : sinks)
    if (s >= n) throw InputError("graph", "a sink is not a task of the DAG");
}

Moments clark_max(Moments x, Moments y, double rho) { return clark(x, y, rho).moments; }

namespace {

// Each task's finish time in topological order, as CPM and Sculli share it: the start is the
// predecessors' finish plus their edge, folded by `combine` (the first term taken as it is), and
// the finish is the start plus the task.
template <class Combine>
std::vector<Moments> forward_pass(const StochasticDag& dag, Combine combine) {
  std::vector<Moments> finish(dag.tasks());
  for (std::size_t t = 0; t < dag.tasks(); ++t) {
    Moments start;
    for (auto j = dag.pred_begin[t]; j < dag.pred_begin[t + 1]; ++j) {
      const Moments term = plus(finish[dag.preds[j]], edge(dag, j));
      start = j == dag.pred_begin[t] ? term : combine(start, term);
    }
    finish[t] = plus(start, task(dag, t));
  }
  return finish;
}

}  // namespace

Moments cpm(const StochasticDag& dag) {
  dag.validate();
  // The longest path of the means, and the variance of that path (the first longest one).
  const auto finish = forward_pass(dag, [](Moments start, Moments term) { return term.mean > start.mean ? term : start; });
  Moments makespan = finish[dag.sinks.front()];
  for (const auto s : dag.sinks)
    if (finish[s].mean > makespan.mean) makespan = finish[s];
  return makespan;
}

KamburowskiBounds kamburowski(const StochasticDag& dag) {
  dag.validate();
  // The activity-on-arc form: each task is an arc from its start event to its finish event, each
  // edge an arc from a finish event to a start event, and the makespan the event that the sinks'
  // finish events lead to by arcs of no time. Per event: lower and upper bounds on the mean
  // (Kamburowski's f_under and f_over of its incoming arcs) and on the variance (the variance of
  // the one incoming path where there is one, 0 otherwise; the largest over incoming arcs).
  //
  // The lower bound's Jensen step, E[max(M, H + Z)] >= E[max(E M, E H + Z)], needs Z independent
  // of M and of H. In a DAG two paths into an event can share a stretch that Kamburowski's
  // single-predecessor variance counts (a fork whose branches meet again), which then overstates
  // the bound; so each term counts only its private variance: the times on the stretch of its
  // path that no other path passes (tasks with one successor, back to the first fork).
  const std::size_t n = dag.tasks();
  const auto successors = successor_counts(dag);
  std::vector<Moments> lower(n), upper(n);   // finish events: (bound on mean, bound on variance)
  std::vector<double> private_variance(n);   // of the finish event's private stretch
  std::vector<Moments> lower_terms, upper_terms;
  auto event = [&](auto&& term_of, std::uint32_t count, Moments& lo, Moments& up) {
    lower_terms.clear();
    upper_terms.clear();
    double lower_variance = 0.0, upper_variance = 0.0;
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto [p, e] = term_of(k);
      const double own = successors[p] == 1 ? private_variance[p] : 0.0;
      lower_terms.push_back({lower[p].mean + e.mean, own + e.variance});
      upper_terms.push_back({upper[p].mean + e.mean, upper[p].variance + e.variance});
      upper_variance = std::max(upper_variance, upper[p].variance + e.variance);
      if (count == 1) lower_variance = lower[p].variance + e.variance;
    }
    lo = {f_under(lower_terms), lower_variance};
    up = {f_over(upper_terms), upper_variance};
  };
  for (std::size_t t = 0; t < n; ++t) {
    const auto first = dag.pred_begin[t], count = dag.pred_begin[t + 1] - first;
    Moments lo, up;  // the start event; a source starts at 0
    double start_private = 0.0;
    if (count > 0) {
      event([&](std::uint32_t k) { return std::pair{dag.preds[first + k], edge(dag, first + k)}; }, count, lo, up);
      if (count == 1) {
        const auto p = dag.preds[first];
        start_private = edge(dag, first).variance + (successors[p] == 1 ? private_variance[p] : 0.0);
      }
    }
    lower[t] = plus(lo, task(dag, t));
    upper[t] = plus(up, task(dag, t));
    private_variance[t] = start_private + dag.variance[t];
  }
  const auto count = static_cast<std::uint32_t>(dag.sinks.size());
  Moments lo, up;
  event([&](std::uint32_t k) { return std::pair{dag.sinks[k], Moments{}}; }, count, lo, up);
  return {lo, up};
}

Moments sculli(const StochasticDag& dag) {
  dag.validate();
  const auto finish = forward_pass(dag, [](Moments start, Moments term) { return clark_max(start, term, 0.0); });
  Moments makespan = finish[dag.sinks.front()];
  for (std::size_t k = 1; k < dag.sinks.size(); ++k) makespan = clark_max(makespan, finish[dag.sinks[k]], 0.0);
  return makespan;
}

Moments corlca(const StochasticDag& dag) {
  dag.validate();
  // The correlation tree links each task to its dominant predecessor: the one whose term raised
  // the running max's mean last. Two terms are taken to share exactly the dominant path down to
  // their lowest common ancestor in the tree, so their correlation is that path's variance over
  // the product of their own dominant paths' standard deviations.
  const std::size_t n = dag.tasks();
  std::vector<Moments> finish(n);
  std::vector<double> path_variance(n);  // the variance of the dominant path ending at the task
  std::vector<std::uint32_t> parent(n, none), depth(n, 0);
  auto lowest_common_ancestor = [&](std::uint32_t a, std::uint32_t b) {
    while (a != none && b != none && a != b) {
      if (depth[a] >= depth[b]) a = parent[a];
      else b = parent[b];
    }
    return a == b ? a : none;
  };
  // The max over the terms (task p's finish plus a delay), and the dominant one.
  struct Max {
    Moments moments;
    std::uint32_t dominant = none;
    double dominant_variance = 0.0;
  };
  auto maximum = [&](auto&& term_of, std::uint32_t count) {
    Max m;
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto [p, e] = term_of(k);
      const Moments term = plus(finish[p], e);
      const double term_path_variance = path_variance[p] + e.variance;
      if (k == 0) {
        m = {term, p, term_path_variance};
        continue;
      }
      const auto lca = lowest_common_ancestor(m.dominant, p);
      const double scale = std::sqrt(m.dominant_variance * term_path_variance);
      const double rho = lca == none || !(scale > 0.0) ? 0.0 : std::min(1.0, path_variance[lca] / scale);
      const bool dominates = term.mean > m.moments.mean;
      m.moments = clark_max(m.moments, term, rho);
      if (dominates) {
        m.dominant = p;
        m.dominant_variance = term_path_variance;
      }
    }
    return m;
  };
  for (std::size_t t = 0; t < n; ++t) {
    const auto first = dag.pred_begin[t], count = dag.pred_begin[t + 1] - first;
    const Max start =
        maximum([&](std::uint32_t k) { return std::pair{dag.preds[first + k], edge(dag, first + k)}; }, count);
    finish[t] = plus(start.moments, task(dag, t));
    path_variance[t] = start.dominant_variance + dag.variance[t];
    parent[t] = start.dominant;
    depth[t] = start.dominant == none ? 0 : depth[start.dominant] + 1;
  }
  const auto count = static_cast<std::uint32_t>(dag.sinks.size());
  return maximum([&](std::uint32_t k) { return std::pair{dag.sinks[k], Moments{}}; }, count).moments;
}

namespace {

// The coordinates of the canonical form: the random times (tasks, then edges, with a variance
// > 0), then one per pairwise max for the part of Clark's variance its linear part misses.
struct Sources {
  std::vector<std::uint32_t> task_index, edge_index;  // coordinate, or none
  std::size_t count = 0;                              // random times and maxima
};

Sources sources_of(const StochasticDag& dag) {
  Sources s;
  s.task_index.assign(dag.tasks(), none);
  for (std::size_t t = 0; t < dag.tasks(); ++t)
    if (dag.variance[t] > 0.0) s.task_index[t] = static_cast<std::uint32_t>(s.count++);
  if (dag.has_edge_weights()) {
    s.edge_index.assign(dag.preds.size(), none);
    for (std::size_t j = 0; j < dag.preds.size(); ++j)
      if (dag.edge_variance[j] > 0.0) s.edge_index[j] = static_cast<std::uint32_t>(s.count++);
  }
  for (std::size_t t = 0; t < dag.tasks(); ++t)
    if (dag.pred_begin[t + 1] > dag.pred_begin[t]) s.count += dag.pred_begin[t + 1] - dag.pred_begin[t] - 1;
  s.count += dag.sinks.size() - 1;
  return s;
}

// A time in canonical form: mean + sum_i a_i Z_i over independent standard normals Z_i.
struct Canonical {
  double mean = 0.0;
  std::vector<double> a;
  double variance() const { return std::inner_product(a.begin(), a.end(), a.begin(), 0.0); }
};

// Clark's max of two canonical forms: the linear part weighs each by the probability that it is
// the larger (Visweswariah et al.'s canonical max); what Clark's variance has beyond it goes to
// a fresh coordinate, `fresh`, so that the times built on the max share it.
Canonical canonical_max(const Canonical& x, const Canonical& y, std::size_t fresh) {
  const double vx = x.variance(), vy = y.variance();
  const double cov = std::inner_product(x.a.begin(), x.a.end(), y.a.begin(), 0.0);
  const double scale = std::sqrt(vx * vy);
  const double rho = scale > 0.0 ? std::clamp(cov / scale, -1.0, 1.0) : 0.0;
  const auto m = clark({x.mean, vx}, {y.mean, vy}, rho);
  Canonical r;
  r.mean = m.moments.mean;
  r.a.resize(x.a.size());
  const double px = m.p_x, py = 1.0 - m.p_x;
  for (std::size_t i = 0; i < r.a.size(); ++i) r.a[i] = px * x.a[i] + py * y.a[i];
  r.a[fresh] = std::sqrt(std::max(0.0, m.moments.variance - r.variance()));
  return r;
}

}  // namespace

namespace {

// The task after which each finish time is read no more (n for a sink: the final max reads it).
std::vector<std::size_t> last_uses(const StochasticDag& dag) {
  const std::size_t n = dag.tasks();
  std::vector<std::size_t> last_use(n, 0);
  for (std::size_t t = 0; t < n; ++t)
    for (auto j = dag.pred_begin[t]; j < dag.pred_begin[t + 1]; ++j) last_use[dag.preds[j]] = t;
  for (const auto sink : dag.sinks) last_use[sink] = n;
  return last_use;
}

}  // namespace

bool canonical_fits(const StochasticDag& dag) {
  // Time: a pass over the coordinates per task and per max. Memory: the finish times alive at
  // once, each as long as the coordinates.
  const auto coordinates = static_cast<double>(sources_of(dag).count);
  const auto last_use = last_uses(dag);
  std::size_t alive = 0, peak = 0;
  for (std::size_t t = 0; t < dag.tasks(); ++t) {
    peak = std::max(peak, ++alive);
    for (auto j = dag.pred_begin[t]; j < dag.pred_begin[t + 1]; ++j)
      if (last_use[dag.preds[j]] == t && (j == dag.pred_begin[t] || dag.preds[j] != dag.preds[j - 1])) --alive;
  }
  const double operations = (static_cast<double>(dag.tasks()) + static_cast<double>(dag.preds.size())) * coordinates;
  return operations <= canonical_operations && static_cast<double>(peak) * coordinates <= canonical_memory;
}

Moments clark_canonical(const StochasticDag& dag) {
  dag.validate();
  if (!canonical_fits(dag))
    throw InputError("graph", "the DAG is too large for Clark's canonical form (one coefficient per random time and "
                              "max for every finish time alive)");
  const Sources s = sources_of(dag);
  const std::size_t n = dag.tasks();
  // A finish time is kept until its last reader (a successor, or the final max for a sink).
  const auto last_use = last_uses(dag);
  std::vector<Canonical> finish(n);
  std::size_t fresh = s.count - dag.sinks.size() + 1;
  for (std::size_t t = 0; t < n; ++t)
    if (dag.pred_begin[t + 1] > dag.pred_begin[t]) fresh -= dag.pred_begin[t + 1] - dag.pred_begin[t] - 1;
  auto with_edge = [&](std::uint32_t j) {
    Canonical term = finish[dag.preds[j]];
    const Moments e = edge(dag, j);
    term.mean += e.mean;
    if (!s.edge_index.empty() && s.edge_index[j] != none) term.a[s.edge_index[j]] += std::sqrt(e.variance);
    return term;
  };
  for (std::size_t t = 0; t < n; ++t) {
    Canonical start;
    start.a.assign(s.count, 0.0);
    for (auto j = dag.pred_begin[t]; j < dag.pred_begin[t + 1]; ++j)
      start = j == dag.pred_begin[t] ? with_edge(j) : canonical_max(start, with_edge(j), fresh++);
    start.mean += dag.mean[t];
    if (s.task_index[t] != none) start.a[s.task_index[t]] += std::sqrt(dag.variance[t]);
    finish[t] = std::move(start);
    for (auto j = dag.pred_begin[t]; j < dag.pred_begin[t + 1]; ++j)
      if (last_use[dag.preds[j]] == t) finish[dag.preds[j]] = Canonical{};
  }
  Canonical makespan = finish[dag.sinks.front()];
  for (std::size_t k = 1; k < dag.sinks.size(); ++k) makespan = canonical_max(makespan, finish[dag.sinks[k]], fresh++);
  return {makespan.mean, makespan.variance()};
}

std::vector<DagEstimate> dag_estimates(const StochasticDag& dag) {
  std::vector<DagEstimate> out;
  out.push_back({"cpm", cpm(dag), true, false});
  const auto k = kamburowski(dag);
  out.push_back({"kamburowski_lower", k.lower, dag.normal, false});
  out.push_back({"kamburowski_upper", k.upper, false, dag.normal});
  out.push_back({"sculli", sculli(dag)});
  out.push_back({"corlca", corlca(dag)});
  if (canonical_fits(dag)) out.push_back({"clark_canonical", clark_canonical(dag)});
  return out;
}

}  // namespace hetstruct::bounds
