#include "engine/wilson/tables.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "distributions/input_error.h"
#include "bounds/closed_forms.h"
#include "bounds/structure_bounds.h"
#include "engine/simulate/model.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/simulation.h"

namespace hetstruct::engine {

extern const char wilson_tables_csv[];  // generated from engine/wilson/data/wilson-tables.csv

std::vector<PaperCell> wilson_cells() {
  std::vector<PaperCell> cells;
  std::istringstream in(wilson_tables_csv);
  std::string line;
  std::getline(in, line);  // header: table,law,a,comm,structure,n,m,paper
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream row(line);
    std::string f[8];
    for (auto& field : f) std::getline(row, field, ',');
    cells.push_back({std::stoi(f[0]), f[1], f[2], std::stod(f[3]), f[4], std::stoi(f[5]), std::stoi(f[6]),
                     std::stod(f[7]), structures::parse_structure_kind(f[4])});
  }
  return cells;
}

std::vector<int> supported_tables() { return {1, 2, 3, 4, 5, 6, 7, 8}; }

namespace {

// Homogeneous (n,0) cells of one table that differ only in a, skipping cells already flagged.
std::map<std::tuple<int, double, std::string, int>, std::vector<std::size_t>> homogeneous_groups(
    const std::vector<PaperCell>& cells, const std::vector<std::string>& flags) {
  std::map<std::tuple<int, double, std::string, int>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i].m == 0 && flags[i].empty()) groups[{cells[i].table, cells[i].comm, cells[i].structure, cells[i].n}].push_back(i);
  return groups;
}

// Whether the (n,0) cells of the row agree with the same table's other rows (other a).
bool row_agrees_with_its_table(const std::vector<PaperCell>& cells, const std::vector<std::size_t>& row) {
  for (const auto i : row) {
    if (cells[i].m != 0) continue;
    for (const auto& o : cells)
      if (o.table == cells[i].table && o.structure == cells[i].structure && o.comm == cells[i].comm && o.n == cells[i].n &&
          o.m == 0 && o.a != cells[i].a && o.paper != cells[i].paper)
        return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> contradiction_flags(const std::vector<PaperCell>& cells) {
  std::vector<std::string> flags(cells.size());
  // A row printed twice: the same structure, a and C in the uniform and the normal table, every
  // value equal. Two laws giving nine identical means is a copy; the copy is the row whose (n,0)
  // cells disagree with the rest of its own table (both rows, if that does not tell).
  using RowKey = std::tuple<int, std::string, std::string, double>;  // table, structure, a, comm
  std::map<RowKey, std::vector<std::size_t>> rows;
  for (std::size_t i = 0; i < cells.size(); ++i) rows[{cells[i].table, cells[i].structure, cells[i].a, cells[i].comm}].push_back(i);
  auto values = [&](const std::vector<std::size_t>& row) {
    std::vector<double> v;
    for (const auto i : row) v.push_back(cells[i].paper);
    return v;
  };
  for (const auto& [key, row] : rows)
    for (const auto& [other_key, other] : rows) {
      if (std::get<0>(other_key) == std::get<0>(key) || std::get<1>(other_key) != std::get<1>(key) ||
          std::get<2>(other_key) != std::get<2>(key) || std::get<3>(other_key) != std::get<3>(key) ||
          cells[row[0]].law == cells[other[0]].law || values(row) != values(other))
        continue;
      const bool this_fits = row_agrees_with_its_table(cells, row), other_fits = row_agrees_with_its_table(cells, other);
      if (this_fits && !other_fits) continue;  // the other row is the copy
      for (const auto i : row) flags[i] = "copy_of_table_" + std::to_string(std::get<0>(other_key));
    }
  // Then the (n,0) cells that differ only in a must agree: flag those off the strict majority of
  // their group, or all of them if there is none.
  for (const auto& [group, members] : homogeneous_groups(cells, flags)) {
    std::map<double, std::size_t> votes;
    for (const auto i : members) ++votes[cells[i].paper];
    if (votes.size() < 2) continue;
    double majority = 0.0;
    bool has_majority = false;
    for (const auto& [value, count] : votes)
      if (2 * count > members.size()) { majority = value; has_majority = true; }
    for (const auto i : members)
      if (!has_majority || cells[i].paper != majority) flags[i] = "inconsistent";
  }
  return flags;
}

namespace {

Model model_of(const PaperCell& c, double comm, int levels) {
  return Model::wilson(c.kind, c.n, c.m, c.a, c.law, levels, comm);
}

// The paper says its synchronous uniform simulations agree with Eq. 6. A cell farther from Eq. 6
// than its rounding (0.5) plus 4 of the paper's own standard errors (our standard deviation over
// the paper's 10,000 replications) contradicts that.
bool contradicts_eq6(const PaperCell& c, const Estimate& e, int levels) {
  if (c.kind != structures::StructureKind::synchronous || c.law != "uniform" || c.comm != 0.0 || !e.has_error()) return false;
  const double exact = bounds::synchronous_uniform_mean(c.n, c.m, distributions::parse_number(c.a, "a"), levels);
  return std::abs(c.paper - exact) > 0.5 + 4.0 * e.stddev / std::sqrt(10000.0);
}

}  // namespace

std::vector<CellResult> regenerate(const std::vector<int>& tables, const TableRun& run,
                                   const std::function<void(std::size_t, std::size_t)>& progress) {
  const auto supported = supported_tables();
  for (const int t : tables)
    if (std::find(supported.begin(), supported.end(), t) == supported.end())
      throw InputError("table " + std::to_string(t), "not a table of the paper", "give 1..8 or all");
  if (run.reps == 0) throw InputError("reps", "the number of replications must be at least 1");
  if (run.estimator == Estimator::exact)
    throw InputError("estimator", "a table simulates every cell; the exact expectation is its column 'exact'",
                     "choose auto, cv, antithetic, antithetic-cv or mc");
  if (run.master_slave_reps && *run.master_slave_reps == 0)
    throw InputError("master_slave_reps", "the number of replications must be at least 1");
  const auto all = wilson_cells();
  const auto flags = contradiction_flags(all);

  std::vector<CellResult> results;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (std::find(tables.begin(), tables.end(), all[i].table) != tables.end())
      results.push_back({all[i], {}, run.seed, 0.0, flags[i], std::nullopt});

  // One simulation per distinct configuration: a homogeneous cell does not depend on a.
  using Config = std::tuple<std::string, std::string, int, int, std::string, double>;
  struct Simulated {
    EstimatorResult result;
    std::optional<double> exact;
    std::string exact_method;
    mutable bool reported = false;  // its time and replications counted on a cell already
  };
  std::map<Config, Simulated> done;
  std::map<Config, std::optional<Estimate>> surrogates;  // by configuration at C = 0
  auto simulate = [&](const PaperCell& c, double comm) -> const Simulated& {
    const Config key{c.structure, c.law, c.n, c.m, c.m == 0 ? std::string() : c.a, comm};
    auto it = done.find(key);
    if (it != done.end()) return it->second;
    const Model model = model_of(c, comm, run.levels);
    RunOptions options;
    options.seed = run.seed;
    options.reps = c.kind == structures::StructureKind::master_slave ? run.master_slave_reps.value_or(run.reps) : run.reps;
    options.threads = run.threads;
    Simulation sim = prepare(model);
    Simulated out;
    out.exact = sim.estimators.exact;
    out.exact_method = sim.estimators.exact_method;
    if (run.estimator == Estimator::mc && !run.stop.active()) {
      out.result.estimate = engine::run(sim.plan, options);
      return done.emplace(key, out).first->second;
    }
    sim.estimators.exact.reset();  // the cell is simulated; its exact value is a column beside
    // The nn cells of a configuration share one estimate of their surrogate's mean.
    share_surrogate_mean(sim.estimators, run.estimator,
                         surrogates[Config{c.structure, c.law, c.n, c.m, c.m == 0 ? std::string() : c.a, 0.0}], options,
                         run.stop);
    engine::run(sim, options, false, run.estimator, run.stop);
    out.result.estimate = sim.estimate;
    out.result.estimator = sim.estimator;
    out.result.variance_factor = sim.variance_factor;
    out.result.target_met = sim.target_met;
    return done.emplace(key, out).first->second;
  };
  std::size_t count = 0;
  for (auto& r : results) {
    const auto t0 = std::chrono::steady_clock::now();
    const PaperCell& c = r.cell;
    const auto& simulated = simulate(c, c.comm);
    r.estimate = simulated.result.estimate;
    r.estimator = simulated.result.estimator;
    r.variance_factor = simulated.result.variance_factor;
    r.target_met = simulated.result.target_met;
    r.exact = simulated.exact;
    r.exact_method = simulated.exact_method;
    r.own_run = !simulated.reported;
    simulated.reported = true;
    r.deviation_pct = 100.0 * (r.estimate.mean - c.paper) / c.paper;
    if (r.flag.empty() && contradicts_eq6(c, r.estimate, run.levels)) r.flag = "contradicts_eq6";
    const Model model = model_of(c, c.comm, run.levels);
    // E(nn) at C = 0 under the reading of Tables 1-2: the paper's bounds build on its own E(nn).
    const double nn_zero = c.kind == structures::StructureKind::nearest_neighbor ? simulate(c, 0.0).result.estimate.mean : 0.0;
    if (const auto b = bounds::comm_bounds(model.build(), model.is_paper_uniform(), model.scale.value, c.comm, nn_zero))
      r.bounds = b->bounds;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress) progress(++count, results.size());
  }
  return results;
}

Record cell_record(const CellResult& r) {
  const PaperCell& c = r.cell;
  Record record;
  record.add("table", c.table).add("law", c.law).add("a", c.a).add("comm", c.comm).add("structure", c.structure);
  record.add("n", c.n).add("m", c.m).add("paper", c.paper).add("mean", r.estimate.mean).add("stderr", r.estimate.stderr_);
  record.add("deviation_pct", r.deviation_pct).add("flag", r.flag);
  if (r.bounds) record.add("lower", r.bounds->lower).add("upper", r.bounds->upper);
  else record.add_none("lower").add_none("upper");
  record.add("ci_low", r.estimate.ci_low).add("ci_high", r.estimate.ci_high);
  record.add("reps", r.estimate.reps).add("seed", r.seed);
  record.add("estimator", to_string(r.estimator)).add("variance_factor", r.variance_factor);
  if (r.exact) record.add("exact", *r.exact).add("exact_method", r.exact_method);
  else record.add_none("exact").add_none("exact_method");
  if (r.target_met) record.add_flag("target_met", *r.target_met);  // a run with a target only
  return record;
}

std::vector<TableSummary> summarize(const std::vector<CellResult>& results, const std::vector<int>& tables) {
  std::vector<TableSummary> summaries;
  for (const int t : tables) {
    TableSummary s;
    s.table = t;
    double sum_abs = 0.0;
    std::vector<double> factors;
    for (const auto& r : results) {
      if (r.cell.table != t) continue;
      ++s.estimators[r.estimator];
      if (std::isfinite(r.variance_factor)) factors.push_back(r.variance_factor);
      s.seconds += r.seconds;
      if (r.own_run) s.replications += r.estimate.reps;
      if (!r.flag.empty()) {
        ++s.flagged;
        continue;
      }
      const double dev = std::abs(r.deviation_pct);
      ++s.checked;
      sum_abs += dev;
      if (dev <= TableSummary::acceptance_pct) ++s.within;
      if (!s.worst || dev > std::abs(s.worst->deviation_pct)) s.worst = r;
    }
    if (s.checked) s.mean_abs_deviation_pct = sum_abs / s.checked;
    std::sort(factors.begin(), factors.end());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.min_variance_factor = factors.empty() ? nan : factors.front();
    s.median_variance_factor = factors.empty()           ? nan
                               : factors.size() % 2 == 1 ? factors[factors.size() / 2]
                                                         : (factors[factors.size() / 2 - 1] + factors[factors.size() / 2]) / 2.0;
    summaries.push_back(std::move(s));
  }
  return summaries;
}

}  // namespace hetstruct::engine
