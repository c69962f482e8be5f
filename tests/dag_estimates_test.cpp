// Analytic DAG estimates (bounds/dag_estimates.h): each estimator against an independent
// implementation written here (recursive, with maps and explicit ancestor lists, textbook
// formulas through Boost.Math) to 1e-9 relative on chains, fork-joins, diamonds and random DAGs;
// hand values (a chain's sum, Clark's max of two normals); and CPM and Kamburowski's bounds
// around the simulated mean of every test graph.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "bounds/dag_estimates.h"
#include "distributions/input_error.h"
#include "engine/simulate/dag_model.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"

namespace dag_estimates_test {

namespace {

using hetstruct::bounds::Moments;
using hetstruct::bounds::StochasticDag;

const std::string data_dir = HETSTRUCT_TEST_DATA;

// ---- a DAG as lists, the way a person writes one down --------------------------------------

struct Graph {
  std::vector<Moments> task;
  std::vector<std::vector<int>> preds;   // in the order the estimators fold them
  std::map<std::pair<int, int>, Moments> edge;  // (p, t) -> weight; absent: 0
  std::vector<int> sinks;
  bool weighted = false;

  Moments edge_of(int p, int t) const {
    const auto it = edge.find({p, t});
    return it == edge.end() ? Moments{} : it->second;
  }
  int successors(int v) const {
    int n = static_cast<int>(std::count(sinks.begin(), sinks.end(), v));
    for (const auto& ps : preds) n += static_cast<int>(std::count(ps.begin(), ps.end(), v));
    return n;
  }
};

StochasticDag to_dag(const Graph& g) {
  StochasticDag d;
  d.pred_begin.push_back(0);
  for (std::size_t t = 0; t < g.task.size(); ++t) {
    d.mean.push_back(g.task[t].mean);
    d.variance.push_back(g.task[t].variance);
    for (const int p : g.preds[t]) {
      d.preds.push_back(static_cast<std::uint32_t>(p));
      if (g.weighted) {
        d.edge_mean.push_back(g.edge_of(p, static_cast<int>(t)).mean);
        d.edge_variance.push_back(g.edge_of(p, static_cast<int>(t)).variance);
      }
    }
    d.pred_begin.push_back(static_cast<std::uint32_t>(d.preds.size()));
  }
  for (const int s : g.sinks) d.sinks.push_back(static_cast<std::uint32_t>(s));
  return d;
}

// Sinks: the tasks nobody waits for, in order.
void set_sinks(Graph& g) {
  g.sinks.clear();
  for (int v = 0; v < static_cast<int>(g.task.size()); ++v) {
    bool has_successor = false;
    for (const auto& ps : g.preds) has_successor = has_successor || std::count(ps.begin(), ps.end(), v) > 0;
    if (!has_successor) g.sinks.push_back(v);
  }
}

Graph chain(const std::vector<Moments>& times) {
  Graph g;
  for (std::size_t i = 0; i < times.size(); ++i) {
    g.task.push_back(times[i]);
    g.preds.push_back(i == 0 ? std::vector<int>{} : std::vector<int>{static_cast<int>(i) - 1});
  }
  set_sinks(g);
  return g;
}

Graph fork_join(int width) {
  Graph g;
  g.task.push_back({0.25, 0.01});
  g.preds.push_back({});
  for (int i = 0; i < width; ++i) {
    g.task.push_back({1.0 + 0.1 * i, 0.05 + 0.02 * i});
    g.preds.push_back({0});
  }
  g.task.push_back({0.25, 0.0});
  std::vector<int> all;
  for (int i = 1; i <= width; ++i) all.push_back(i);
  g.preds.push_back(all);
  set_sinks(g);
  return g;
}

Graph diamond() {
  Graph g;
  g.task = {{1.0, 0.3}, {2.0, 0.5}, {1.5, 1.0}, {0.5, 0.1}};
  g.preds = {{}, {0}, {0}, {1, 2}};
  set_sinks(g);
  return g;
}

// A random DAG: task t waits for each earlier task with probability `density`; normal-ish
// moments; edge weights when asked.
Graph random_dag(int tasks, double density, bool weighted, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Graph g;
  g.weighted = weighted;
  for (int t = 0; t < tasks; ++t) {
    const double mean = 1.0 + 9.0 * u(rng);
    g.task.push_back({mean, std::pow(0.3 * mean * u(rng), 2)});
    std::vector<int> ps;
    for (int p = 0; p < t; ++p)
      if (u(rng) < density) {
        ps.push_back(p);
        if (weighted) {
          const double m = 5.0 * u(rng);
          g.edge[{p, t}] = {m, std::pow(0.3 * m * u(rng), 2)};
        }
      }
    g.preds.push_back(ps);
  }
  set_sinks(g);
  return g;
}

// ---- independent implementations ------------------------------------------------------------

const boost::math::normal_distribution<double> standard_normal(0.0, 1.0);

// Clark (1961), as printed: E[max] = m1 Phi(b) + m2 Phi(-b) + a phi(b),
// E[max^2] = (m1^2 + v1) Phi(b) + (m2^2 + v2) Phi(-b) + (m1 + m2) a phi(b).
Moments clark_textbook(Moments x, Moments y, double rho) {
  const double a2 = x.variance + y.variance - 2.0 * rho * std::sqrt(x.variance * y.variance);
  if (a2 <= 0.0) return x.mean >= y.mean ? x : y;
  const double a = std::sqrt(a2), b = (x.mean - y.mean) / a;
  const double P = boost::math::cdf(standard_normal, b), Q = boost::math::cdf(standard_normal, -b);
  const double f = boost::math::pdf(standard_normal, b);
  const double m = x.mean * P + y.mean * Q + a * f;
  const double s = (x.mean * x.mean + x.variance) * P + (y.mean * y.mean + y.variance) * Q + (x.mean + y.mean) * a * f;
  return {m, s - m * m};
}

Moments add(Moments a, Moments b) { return {a.mean + b.mean, a.variance + b.variance}; }

// Memoised recursion over finish times.
template <class Value>
struct Memo {
  std::map<int, Value> done;
  std::function<Value(int)> compute;
  Value operator()(int t) {
    const auto it = done.find(t);
    if (it != done.end()) return it->second;
    return done[t] = compute(t);
  }
};

Moments cpm_reference(const Graph& g) {
  Memo<Moments> finish;
  finish.compute = [&](int t) {
    Moments best{0.0, 0.0};
    bool first = true;
    for (const int p : g.preds[t]) {
      const Moments c = add(finish(p), g.edge_of(p, t));
      if (first || c.mean > best.mean) best = c;
      first = false;
    }
    return add(best, g.task[t]);
  };
  Moments best = finish(g.sinks[0]);
  for (const int s : g.sinks)
    if (finish(s).mean > best.mean) best = finish(s);
  return best;
}

Moments sculli_reference(const Graph& g) {
  Memo<Moments> finish;
  finish.compute = [&](int t) {
    if (g.preds[t].empty()) return g.task[t];
    Moments m = add(finish(g.preds[t][0]), g.edge_of(g.preds[t][0], t));
    for (std::size_t k = 1; k < g.preds[t].size(); ++k)
      m = clark_textbook(m, add(finish(g.preds[t][k]), g.edge_of(g.preds[t][k], t)), 0.0);
    return add(m, g.task[t]);
  };
  Moments m = finish(g.sinks[0]);
  for (std::size_t k = 1; k < g.sinks.size(); ++k) m = clark_textbook(m, finish(g.sinks[k]), 0.0);
  return m;
}

// Kamburowski's h, f_under and f_over, recursive on the prefix as he writes them.
double h(double m1, double v1, double m2, double v2) { return clark_textbook({m1, v1}, {m2, v2}, 0.0).mean; }
double f_under(const std::vector<Moments>& x) {
  if (x.size() == 1) return x[0].mean;
  if (x.size() == 2) return h(x[0].mean, x[0].variance, x[1].mean, x[1].variance);
  return h(f_under({x.begin(), x.end() - 1}), 0.0, x.back().mean, x.back().variance);
}
double f_over(const std::vector<Moments>& x) {
  if (x.size() == 1) return x[0].mean;
  return h(f_over({x.begin(), x.end() - 1}), x[x.size() - 2].variance, x.back().mean, x.back().variance);
}
std::vector<Moments> by_variance(std::vector<Moments> x) {
  std::stable_sort(x.begin(), x.end(), [](Moments a, Moments b) { return a.variance < b.variance; });
  return x;
}

// The variance of the stretch of the path that ends with p -> t that no other path passes:
// walked back from the edge while each task has one successor.
double private_variance(const Graph& g, int p, int t) {
  double v = g.edge_of(p, t).variance;
  int node = p;
  while (g.successors(node) == 1) {
    v += g.task[node].variance;
    if (g.preds[node].size() != 1) break;
    const int q = g.preds[node][0];
    v += g.edge_of(q, node).variance;
    node = q;
  }
  return v;
}

struct Bounds {
  Moments lower, upper;
};

Bounds kamburowski_reference(const Graph& g) {
  Memo<Bounds> finish;
  // The terms of an event: (predecessor, weight); t = -1 for the final event of the sinks.
  auto event = [&](const std::vector<int>& ps, int t) {
    std::vector<Moments> lower, upper;
    double lower_variance = 0.0, upper_variance = 0.0;
    for (const int p : ps) {
      const Moments e = t < 0 ? Moments{} : g.edge_of(p, t);
      const Bounds b = finish(p);
      lower.push_back({b.lower.mean + e.mean, t < 0 ? (g.successors(p) == 1 ? private_variance(g, p, -1) : 0.0)
                                                     : private_variance(g, p, t)});
      upper.push_back({b.upper.mean + e.mean, b.upper.variance + e.variance});
      upper_variance = std::max(upper_variance, b.upper.variance + e.variance);
      if (ps.size() == 1) lower_variance = b.lower.variance + e.variance;
    }
    return Bounds{{f_under(by_variance(lower)), lower_variance}, {f_over(by_variance(upper)), upper_variance}};
  };
  finish.compute = [&](int t) {
    Bounds start{};
    if (!g.preds[t].empty()) start = event(g.preds[t], t);
    return Bounds{add(start.lower, g.task[t]), add(start.upper, g.task[t])};
  };
  return event(g.sinks, -1);
}

// CorLCA with the dominant ancestors of every task as an explicit list (root first).
Moments corlca_reference(const Graph& g) {
  std::map<int, Moments> finish;
  std::map<int, double> path;                 // variance of the dominant path ending at the task
  std::map<int, std::vector<int>> ancestors;  // the dominant path, root first, the task last
  struct Result {
    Moments m;
    int dominant;
    double dominant_variance;
  };
  auto maximum = [&](const std::vector<int>& ps, int t) {
    Result r{{0.0, 0.0}, -1, 0.0};
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const int p = ps[k];
      const Moments e = t < 0 ? Moments{} : g.edge_of(p, t);
      const Moments term = add(finish[p], e);
      const double sd_variance = path[p] + e.variance;
      if (k == 0) {
        r = {term, p, sd_variance};
        continue;
      }
      const std::set<int> dominant_set(ancestors[r.dominant].begin(), ancestors[r.dominant].end());
      int lca = -1;
      for (auto it = ancestors[p].rbegin(); it != ancestors[p].rend(); ++it)
        if (dominant_set.count(*it)) {
          lca = *it;
          break;
        }
      const double denominator = std::sqrt(r.dominant_variance) * std::sqrt(sd_variance);
      const double rho = lca < 0 || denominator == 0.0 ? 0.0 : std::min(1.0, path[lca] / denominator);
      const bool dominates = term.mean > r.m.mean;
      r.m = clark_textbook(r.m, term, rho);
      if (dominates) {
        r.dominant = p;
        r.dominant_variance = sd_variance;
      }
    }
    return r;
  };
  for (int t = 0; t < static_cast<int>(g.task.size()); ++t) {
    const Result r = maximum(g.preds[t], t);
    finish[t] = add(r.m, g.task[t]);
    path[t] = r.dominant_variance + g.task[t].variance;
    ancestors[t] = r.dominant < 0 ? std::vector<int>{} : ancestors[r.dominant];
    ancestors[t].push_back(t);
  }
  return maximum(g.sinks, -1).m;
}

// Clark with every correlation: each time as a sparse linear form in independent standard
// normals, named: "t<i>" and "e<p>,<t>" the task and edge times, "m<k>" the k-th max's share of
// Clark's variance that its linear part misses.
struct Linear {
  double mean = 0.0;
  std::map<std::string, double> a;
  double variance() const {
    double v = 0.0;
    for (const auto& kv : a) v += kv.second * kv.second;
    return v;
  }
};

Linear linear_max(const Linear& x, const Linear& y, int& maxima) {
  double cov = 0.0;
  for (const auto& kv : x.a) {
    const auto it = y.a.find(kv.first);
    if (it != y.a.end()) cov += kv.second * it->second;
  }
  const double vx = x.variance(), vy = y.variance();
  const double rho = vx > 0.0 && vy > 0.0 ? std::clamp(cov / std::sqrt(vx * vy), -1.0, 1.0) : 0.0;
  const Moments m = clark_textbook({x.mean, vx}, {y.mean, vy}, rho);
  const double a2 = vx + vy - 2.0 * rho * std::sqrt(vx * vy);
  const double P = a2 > 0.0 ? boost::math::cdf(standard_normal, (x.mean - y.mean) / std::sqrt(a2)) : (x.mean >= y.mean ? 1.0 : 0.0);
  Linear r;
  r.mean = m.mean;
  for (const auto& kv : x.a) r.a[kv.first] += P * kv.second;
  for (const auto& kv : y.a) r.a[kv.first] += (1.0 - P) * kv.second;
  const double missing = m.variance - r.variance();
  r.a["m" + std::to_string(maxima++)] = std::sqrt(std::max(0.0, missing));
  return r;
}

Moments canonical_reference(const Graph& g) {
  Memo<Linear> finish;
  int maxima = 0;
  auto term = [&](int p, int t) {
    Linear x = finish(p);
    const Moments e = g.edge_of(p, t);
    x.mean += e.mean;
    if (e.variance > 0.0) x.a["e" + std::to_string(p) + "," + std::to_string(t)] += std::sqrt(e.variance);
    return x;
  };
  finish.compute = [&](int t) {
    Linear x;
    for (std::size_t k = 0; k < g.preds[t].size(); ++k)
      x = k == 0 ? term(g.preds[t][0], t) : linear_max(x, term(g.preds[t][k], t), maxima);
    x.mean += g.task[t].mean;
    if (g.task[t].variance > 0.0) x.a["t" + std::to_string(t)] += std::sqrt(g.task[t].variance);
    return x;
  };
  Linear m = finish(g.sinks[0]);
  for (std::size_t k = 1; k < g.sinks.size(); ++k) m = linear_max(m, finish(g.sinks[k]), maxima);
  return {m.mean, m.variance()};
}

void require_close(Moments got, Moments want, double tolerance = 1e-9) {
  INFO("mean " << got.mean << " vs " << want.mean << ", variance " << got.variance << " vs " << want.variance);
  REQUIRE(got.mean == Approx(want.mean).epsilon(tolerance).margin(1e-12));
  REQUIRE(got.variance == Approx(want.variance).epsilon(tolerance).margin(1e-12));
}

std::vector<std::pair<std::string, Graph>> test_graphs() {
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("chain", chain({{1.0, 0.5}, {2.0, 0.25}, {0.5, 0.0}, {3.0, 1.0}}));
  graphs.emplace_back("fork-join 2", fork_join(2));
  graphs.emplace_back("fork-join 5", fork_join(5));
  graphs.emplace_back("diamond", diamond());
  for (unsigned seed = 1; seed <= 4; ++seed) {
    graphs.emplace_back("random " + std::to_string(seed), random_dag(12 + 3 * static_cast<int>(seed), 0.3, false, seed));
    graphs.emplace_back("random weighted " + std::to_string(seed), random_dag(15, 0.25, true, 100 + seed));
  }
  return graphs;
}

}  // namespace

TEST_CASE("each DAG estimator agrees with an independent implementation to 1e-9", "[dag_estimates]") {
  for (const auto& [name, g] : test_graphs()) {
    INFO(name);
    const StochasticDag d = to_dag(g);
    require_close(hetstruct::bounds::cpm(d), cpm_reference(g));
    require_close(hetstruct::bounds::sculli(d), sculli_reference(g));
    require_close(hetstruct::bounds::corlca(d), corlca_reference(g));
    require_close(hetstruct::bounds::clark_canonical(d), canonical_reference(g));
    const auto k = hetstruct::bounds::kamburowski(d);
    const auto want = kamburowski_reference(g);
    require_close(k.lower, want.lower);
    require_close(k.upper, want.upper);
    // Order: CPM <= Kamburowski's lower bound <= his upper bound, and the variance bounds too.
    REQUIRE(hetstruct::bounds::cpm(d).mean <= k.lower.mean + 1e-12);
    REQUIRE(k.lower.mean <= k.upper.mean + 1e-12);
    REQUIRE(k.lower.variance <= k.upper.variance + 1e-12);
  }
}

TEST_CASE("a chain's estimates are its sum, exactly", "[dag_estimates]") {
  const StochasticDag d = to_dag(chain({{1.0, 0.5}, {2.0, 0.25}, {0.5, 0.0}, {3.0, 1.0}}));
  for (const auto& e : hetstruct::bounds::dag_estimates(d)) {
    INFO(e.method);
    REQUIRE(e.moments.mean == 6.5);
    REQUIRE(e.moments.variance == 1.75);
  }
}

TEST_CASE("two parallel normal tasks: Clark's max exactly", "[dag_estimates]") {
  // Two independent N(mu, s^2): E[max] = mu + s/sqrt(pi), Var = s^2 (1 - 1/pi).
  const double mu = 3.0, s2 = 2.0;
  Graph g;
  g.task = {{mu, s2}, {mu, s2}};
  g.preds = {{}, {}};
  set_sinks(g);
  const StochasticDag d = to_dag(g);
  const Moments exact{mu + std::sqrt(s2 / M_PI), s2 * (1.0 - 1.0 / M_PI)};
  require_close(hetstruct::bounds::sculli(d), exact, 1e-14);
  require_close(hetstruct::bounds::corlca(d), exact, 1e-14);
  require_close(hetstruct::bounds::clark_canonical(d), exact, 1e-14);
  const auto k = hetstruct::bounds::kamburowski(d);
  REQUIRE(k.upper.mean == Approx(exact.mean).epsilon(1e-14));  // independent paths: both are exact
  REQUIRE(k.lower.mean == Approx(exact.mean).epsilon(1e-14));
  REQUIRE(hetstruct::bounds::cpm(d).mean == mu);

  // Unequal moments and a correlation: Clark's printed formula.
  const Moments x{1.0, 0.5}, y{1.5, 2.0};
  for (const double rho : {-0.5, 0.0, 0.3, 0.9}) {
    INFO("rho " << rho);
    require_close(hetstruct::bounds::clark_max(x, y, rho), clark_textbook(x, y, rho), 1e-13);
  }
  // Identical times (rho 1, equal variances): the max is either.
  require_close(hetstruct::bounds::clark_max(x, {1.0, 0.5}, 1.0), x, 0.0);
}

TEST_CASE("a shared task's variance is not counted twice by the lower bound", "[dag_estimates]") {
  // root (N(2,1)) feeds a and b; b feeds c; a and c join. Both paths carry root's variance: the
  // exact mean is 2 + E[max(a, b + c)] (near-constant tails), so a lower bound counting root's
  // variance in both terms as independent would exceed it.
  Graph g;
  g.task = {{2.0, 1.0}, {1.0, 1e-8}, {0.5, 1e-8}, {0.5, 1e-8}, {0.0, 0.0}};
  g.preds = {{}, {0}, {0}, {2}, {1, 3}};
  set_sinks(g);
  const auto k = hetstruct::bounds::kamburowski(to_dag(g));
  const double exact = 2.0 + clark_textbook({1.0, 1e-8}, {1.0, 2e-8}, 0.0).mean;
  REQUIRE(k.lower.mean <= exact);
  REQUIRE(k.upper.mean >= exact);
  REQUIRE(k.lower.variance == 0.0);      // the join has two predecessors
  REQUIRE(k.upper.variance == Approx(1.0 + 2e-8));
}

TEST_CASE("bad DAG input is an InputError naming the graph", "[dag_estimates]") {
  StochasticDag d = to_dag(diamond());
  d.variance[1] = -1.0;
  REQUIRE_THROWS_AS(hetstruct::bounds::sculli(d), hetstruct::InputError);
  d = to_dag(diamond());
  d.preds[0] = 3;  // task 1 waiting for task 3: not topological
  REQUIRE_THROWS_AS(hetstruct::bounds::cpm(d), hetstruct::InputError);
  d = to_dag(diamond());
  d.sinks.clear();
  REQUIRE_THROWS_AS(hetstruct::bounds::corlca(d), hetstruct::InputError);
}

namespace {

// CPM <= E always; Kamburowski's bounds around E when the times are normal. Checked against the
// simulation: the simulated mean within 4 standard errors.
void require_bracketed(const hetstruct::engine::Plan& plan, const std::string& name) {
  INFO(name);
  const auto dag = hetstruct::engine::stochastic_dag(plan);
  hetstruct::engine::RunOptions options;
  options.seed = 1;
  options.reps = 20000;
  options.threads = 2;
  const auto mc = hetstruct::engine::run(plan, options);
  const double slack = 4.0 * mc.stderr_;
  const auto cpm = hetstruct::bounds::cpm(dag);
  const auto k = hetstruct::bounds::kamburowski(dag);
  INFO("mc " << mc.mean << " +- " << mc.stderr_ << ", cpm " << cpm.mean << ", kamburowski [" << k.lower.mean << ", "
             << k.upper.mean << "], normal " << dag.normal);
  REQUIRE(cpm.mean <= mc.mean + slack);
  if (!dag.normal) return;
  REQUIRE(k.lower.mean <= mc.mean + slack);
  REQUIRE(k.upper.mean >= mc.mean - slack);
}

// The same plan with each law replaced by the normal law of its mean and variance.
hetstruct::engine::Plan normalized(hetstruct::engine::Plan plan) {
  using hetstruct::distributions::Law;
  plan.samplers.clear();
  plan.uniform_draws.clear();
  plan.normal_draws.clear();
  for (auto& law : plan.laws) {
    law = law.variance() > 0.0 ? Law::normal(law.mean(), law.variance()) : Law::constant(law.mean());
    plan.samplers.emplace_back(law);
  }
  return plan;
}

}  // namespace

TEST_CASE("CPM and Kamburowski's bounds bracket the simulated mean of every test graph", "[dag_estimates]") {
  for (const char* file : {"diamond.dot", "fork_join.dot", "same_processor.dot", "shared_fork.dot", "wavefront.dot", "cholesky5.dot"}) {
    const auto plan = hetstruct::engine::compile(hetstruct::structures::read_dot(data_dir + "/" + file));
    require_bracketed(plan, file);
    const auto normal = normalized(plan);
    REQUIRE(hetstruct::engine::stochastic_dag(normal).normal);
    require_bracketed(normal, std::string(file) + " with normal laws");
  }
  // Wilson's structures compiled as DAGs at zero communication.
  using hetstruct::structures::StructureKind;
  for (const auto kind : {StructureKind::asynchronous, StructureKind::synchronous, StructureKind::nearest_neighbor}) {
    for (const char* law : {"uniform", "normal"}) {
      const auto s = hetstruct::engine::Model::wilson(kind, 6, 2, "1/2", law, 20).build();
      hetstruct::engine::CompileOptions generic;
      generic.generic = true;
      require_bracketed(hetstruct::engine::compile(s, generic), s.name + " " + law);
    }
  }
}

// With uniform laws the normal recursions are not bounds: the max of two u(0,1) (2/3) exceeds
// Kamburowski's upper value (1/2 + sqrt(1/6) phi(0) = 0.663), and the records leave the bound out.
TEST_CASE("Kamburowski's values are bounds for normal times only", "[dag_estimates]") {
  const auto plan = hetstruct::engine::compile(hetstruct::structures::read_dot(data_dir + "/fork_join.dot"));
  const auto dag = hetstruct::engine::stochastic_dag(plan);
  REQUIRE_FALSE(dag.normal);
  const auto k = hetstruct::bounds::kamburowski(dag);
  REQUIRE(k.upper.mean == Approx(0.5 + 0.5 + std::sqrt(1.0 / 6.0) / std::sqrt(2.0 * M_PI)).epsilon(1e-12));
  REQUIRE(k.upper.mean < 0.5 + 2.0 / 3.0);
  for (const auto& e : hetstruct::bounds::dag_estimates(dag)) {
    INFO(e.method);
    REQUIRE(e.lower_bound == (e.method == "cpm"));
    REQUIRE_FALSE(e.upper_bound);
  }
  const auto normal_estimates = hetstruct::bounds::dag_estimates(hetstruct::engine::stochastic_dag(normalized(plan)));
  REQUIRE(normal_estimates[1].lower_bound);
  REQUIRE(normal_estimates[2].upper_bound);
}

TEST_CASE("the estimators of Wilson's structures beside their exact closed forms", "[dag_estimates]") {
  using hetstruct::structures::StructureKind;
  // Async with normal laws: n independent sums of normals. Sculli, CorLCA and Clark's canonical
  // form see independent paths and give Clark's iterated max, whose error against the exact
  // expectation is small; a chain per processor makes Kamburowski's bounds bracket it.
  const auto model = hetstruct::engine::Model::wilson(StructureKind::asynchronous, 4, 2, "1/2", "normal", 50);
  const auto s = model.build();
  const auto dag = hetstruct::engine::stochastic_dag(s);
  const double exact = hetstruct::bounds::asynchronous_mean(s.laws, s.levels).value;
  const auto k = hetstruct::bounds::kamburowski(dag);
  REQUIRE(k.lower.mean <= exact);
  REQUIRE(k.upper.mean >= exact);
  for (const auto& e : hetstruct::bounds::dag_estimates(dag)) {
    INFO(e.method << " " << e.moments.mean << " vs " << exact);
    if (e.method == "sculli" || e.method == "corlca" || e.method == "clark_canonical")
      REQUIRE(std::abs(e.moments.mean - exact) < 0.01 * exact);
  }
  // Sync with one level: the max of independent laws; at two processors Clark is exact.
  const auto one = hetstruct::engine::Model::wilson(StructureKind::synchronous, 2, 1, "1/2", "normal", 1).build();
  const auto sync_dag = hetstruct::engine::stochastic_dag(one);
  const double sync_exact = hetstruct::bounds::synchronous_mean(one.laws, 1);
  REQUIRE(hetstruct::bounds::sculli(sync_dag).mean == Approx(sync_exact).epsilon(1e-9));
  REQUIRE(hetstruct::bounds::corlca(sync_dag).mean == Approx(sync_exact).epsilon(1e-9));
  // The task pool has no fixed DAG.
  const auto ms = hetstruct::engine::Model::wilson(StructureKind::master_slave, 3, 1, "1/2", "normal", 5).build();
  REQUIRE_THROWS_AS(hetstruct::engine::stochastic_dag(ms), hetstruct::InputError);
}

TEST_CASE("the comparison records: difference, z and percent of the simulated mean", "[dag_estimates]") {
  hetstruct::engine::Estimate mc;
  mc.reps = 100;
  mc.mean = 10.0;
  mc.stderr_ = 0.25;
  mc.stddev = 2.5;
  const std::vector<hetstruct::bounds::DagEstimate> estimates = {{"cpm", {9.0, 4.0}, true, false},
                                                                 {"sculli", {10.5, 1.0}}};
  const auto rows = hetstruct::engine::comparison_records("g", estimates, mc, 7);
  REQUIRE(rows.size() == 2);
  REQUIRE(rows[0].names() == std::vector<std::string>{"structure", "method", "bound", "mean", "sd", "mc_mean",
                                                      "mc_stderr", "mc_sd", "reps", "seed", "difference", "z",
                                                      "difference_pct"});
  REQUIRE(rows[0].text("bound") == "lower");
  REQUIRE(rows[0].text("sd") == "2");
  REQUIRE(rows[0].text("difference") == "-1");
  REQUIRE(rows[0].text("z") == "-4");
  REQUIRE(rows[0].text("difference_pct") == "-10");
  REQUIRE(rows[1].text("bound").empty());
  REQUIRE(rows[1].text("z") == "2");
  REQUIRE(rows[1].text("difference_pct") == "5");
  // One replication: no standard error, so no z.
  mc.reps = 1;
  REQUIRE(hetstruct::engine::comparison_records("g", estimates, mc, 7)[0].text("z").empty());
  // The mean compared with: auto simulates; a named estimator is kept.
  using hetstruct::engine::Estimator;
  REQUIRE(hetstruct::engine::comparison_estimator(Estimator::automatic) == Estimator::mc);
  REQUIRE(hetstruct::engine::comparison_estimator(Estimator::cv) == Estimator::cv);

  const auto closed = hetstruct::engine::estimate_records("g", 3, estimates, hetstruct::bounds::ClosedForm{12.0, "eq6"});
  REQUIRE(closed[0].text("tasks") == "3");
  REQUIRE(closed[0].text("closed_form_method") == "eq6");
  REQUIRE(closed[0].text("difference_pct") == "-25");
  REQUIRE(hetstruct::engine::estimate_records("g", 3, estimates, std::nullopt)[1].text("closed_form").empty());
}

// The estimates run on the plan the simulation runs: a graph's messages are edge weights and its
// processors' scales scale its tasks. With constant times the makespan is the weighted longest
// path, so CPM (and every estimator: a constant has no variance) equals the simulation exactly.
TEST_CASE("a graph's messages and speeds enter the estimates as the simulation sees them", "[dag_estimates]") {
  const auto s = hetstruct::structures::parse_dot(R"dot(digraph g {
    a [processor=0, law="c(1)"]; b [processor=0, law="c(2)"]; c [processor=1, law="c(1)"]; d [processor=1, law="c(1)"];
    a -> b; a -> c [comm="c(3)"]; b -> d; c -> d;
  })dot", "inline");
  hetstruct::engine::CompileOptions options;
  options.comm_cost = 0.5;  // b -> d crosses without its own law: C
  auto plan = hetstruct::engine::compile(s, options);
  // a(1) -> c: message 3, c(1), then d(1) on the same processor: 6; a -> b -> d: 1 + 2 + 0.5 + 1 = 4.5.
  const auto dag = hetstruct::engine::stochastic_dag(plan);
  REQUIRE(dag.has_edge_weights());
  REQUIRE(hetstruct::bounds::cpm(dag).mean == 6.0);
  REQUIRE(hetstruct::bounds::sculli(dag).mean == 6.0);
  hetstruct::engine::RunOptions run;
  run.reps = 4;
  REQUIRE(hetstruct::engine::run(plan, run).mean == 6.0);
  // Processor 1 twice as fast: a -> c -> d is 1 + 3 + 0.5 + 0.5 = 5; a -> b -> d 1 + 2 + 0.5 + 0.5 = 4.
  auto fast = s;
  fast.processor_scale = {1.0, 0.5};
  const auto fast_plan = hetstruct::engine::compile(fast, options);
  REQUIRE(hetstruct::bounds::cpm(hetstruct::engine::stochastic_dag(fast_plan)).mean == 5.0);
  REQUIRE(hetstruct::engine::run(fast_plan, run).mean == 5.0);
  // One-port estimates are not offered: the estimators model the free port.
  options.port = hetstruct::engine::Port::one_port;
  REQUIRE_THROWS_AS(hetstruct::engine::stochastic_dag(hetstruct::engine::compile(s, options)), hetstruct::InputError);
}

}  // namespace dag_estimates_test
