// Wilson's Tables 1-8 as data (engine/wilson/data/wilson-tables.csv, embedded in this library at build
// time), their regeneration by simulation, the cells where the paper contradicts itself, and the
// per-table summaries of how close the simulation comes. A front end only prints the records
// (cell_record) and formats the summaries (summarize).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bounds/communication_bounds.h"
#include "engine/driver/monte_carlo.h"
#include "engine/estimators/estimators.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine {

struct PaperCell {
  int table;
  std::string law;        // uniform | normal
  std::string a;          // as the paper writes it: 1/2, 2/3, 4/5
  double comm;            // C
  std::string structure;  // as the paper labels it: asynch | synch | nn | ms
  int n, m;
  double paper;           // the paper's mean, rounded to an integer
  structures::StructureKind kind;  // the structure the label names
};

std::vector<PaperCell> wilson_cells();

// Tables whose cells hetstruct regenerates.
std::vector<int> supported_tables();

// For every cell, "inconsistent" where the paper contradicts itself, else empty. A homogeneous
// (n,0) cell cannot depend on a, so the cells of a table that differ only in a must agree; those
// that differ from the strict majority of their group are flagged (all of them, if none has one).
// A row printed twice, in the uniform and the normal table, is flagged "copy_of_table_N".
std::vector<std::string> contradiction_flags(const std::vector<PaperCell>& cells);

struct CellResult {
  PaperCell cell;
  Estimate estimate;
  std::uint64_t seed = 0;  // of the run that gave `estimate`
  double deviation_pct = 0.0;  // 100 (mean - paper) / paper
  // "inconsistent" or "copy_of_table_N" (see contradiction_flags), "contradicts_eq6" (a
  // synchronous uniform cell farther from the paper's own Eq. 6 than its rounding and Monte Carlo
  // error allow), or empty.
  std::string flag;
  std::optional<bounds::Bounds> bounds;  // Wilson's Section 5 bounds (none for async)
  Estimator estimator = Estimator::mc;  // the one that gave `estimate`
  double variance_factor = 1.0;         // against plain sampling, measured on the cell's run
  std::optional<bool> target_met = std::nullopt;  // with a target: whether the cell met it before the cap
  // The cell's exact expectation where one is known (sync at C = 0, async with normal laws), and
  // how it was obtained: printed beside the simulated mean, never instead of it.
  std::optional<double> exact = std::nullopt;
  std::string exact_method = "";
  // Wall seconds this cell took (nearly 0 when it shares an earlier cell's run): for the
  // summaries, never in the records (they are bit-identical).
  double seconds = 0.0;
  bool own_run = false;  // the first cell of its run (its replications count in the summary)
};

struct TableRun {
  std::uint64_t reps = 10000;
  std::uint64_t seed = 1;
  int threads = 0;
  int levels = 1000;  // p, the paper's 1000 tasks per processor
  // Replications for the master-slave tables (5, 8), whose event simulation is the slowest;
  // none: the same as reps. 0 is refused (InputError on master_slave_reps).
  std::optional<std::uint64_t> master_slave_reps;
  // How each cell is estimated (engine/estimators/estimators.h) and when it may stop early (the
  // replications above are then the caps). A table is a simulation: `auto` picks the best
  // sampling estimator, and `exact` is refused (the exact value is a column of its own).
  Estimator estimator = Estimator::mc;
  StopRule stop;
};

// Simulates the cells of the given tables. Cells that are the same configuration (an (n,0) cell
// in every a row) are simulated once. `progress` gets (cells done, cells total). InputError for a
// table that is not 1..8.
std::vector<CellResult> regenerate(const std::vector<int>& tables, const TableRun& run,
                                   const std::function<void(std::size_t, std::size_t)>& progress = {});

// One cell as a record, its names the CSV header:
// table,law,a,comm,structure,n,m,paper,mean,stderr,deviation_pct,flag,lower,upper,ci_low,ci_high,reps,seed,
// estimator,variance_factor,exact,exact_method, and target_met (true or false) when the run has a target
Record cell_record(const CellResult& result);

// How close one table's regenerated cells come to the paper. Flagged cells are counted apart and
// left out of everything else.
struct TableSummary {
  // The acceptance bound: a cell "agrees" when within this many percent of the paper.
  static constexpr double acceptance_pct = 0.5;

  int table = 0;
  std::size_t checked = 0;  // cells not flagged
  std::size_t within = 0;   // of those, within acceptance_pct of the paper
  std::size_t flagged = 0;
  double mean_abs_deviation_pct = 0.0;  // over the checked cells
  std::optional<CellResult> worst;      // the checked cell with the largest |deviation|; none if no cell is checked
  // How the table was estimated, over all its cells: wall seconds and replications of the runs it
  // started, cells per estimator, and the median and smallest variance factor (NaN: none).
  double seconds = 0.0;
  std::uint64_t replications = 0;
  std::map<Estimator, std::size_t> estimators;
  double median_variance_factor = 0.0;
  double min_variance_factor = 0.0;
};

// One summary per table of `tables`, in that order, over the cells of `results`.
std::vector<TableSummary> summarize(const std::vector<CellResult>& results, const std::vector<int>& tables);

}  // namespace hetstruct::engine
