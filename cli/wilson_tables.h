// Wilson's Tables 1-8 as data (embedded from cli/data/wilson-tables.csv at build time), and their
// regeneration by simulation.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <optional>

#include "bounds/communication_bounds.h"
#include "engine/monte_carlo.h"

namespace hetstruct::cli {

struct PaperCell {
  int table;
  std::string law;        // uniform | normal
  std::string a;          // as the paper writes it: 1/2, 2/3, 4/5
  double comm;            // C
  std::string structure;  // asynch | synch | nn | ms
  int n, m;
  double paper;           // the paper's mean, rounded to an integer
};

std::vector<PaperCell> wilson_cells();

// Tables whose cells hetstruct regenerates.
std::vector<int> supported_tables();

// For every cell, "inconsistent" where the paper contradicts itself, else empty. A homogeneous
// (n,0) cell cannot depend on a, so the cells of a table that differ only in a must agree; those
// that differ from the strict majority of their group are flagged (all of them, if none has one).
std::vector<std::string> contradiction_flags(const std::vector<PaperCell>& cells);

struct CellResult {
  PaperCell cell;
  engine::Estimate estimate;
  double deviation_pct;  // 100 (mean - paper) / paper
  // "inconsistent" (see contradiction_flags), "contradicts_eq6" (a synchronous uniform cell
  // farther from the paper's own Eq. 6 than its rounding and Monte Carlo error allow), or empty.
  std::string flag;
  std::optional<bounds::Bounds> bounds;  // Wilson's Section 5 bounds (none for async)
};

struct TableRun {
  std::uint64_t reps = 10000;
  std::uint64_t seed = 1;
  int threads = 0;
  int levels = 1000;  // p, the paper's 1000 tasks per processor
  // Replications for the master-slave tables (5, 8), whose event simulation is the slowest;
  // 0: the same as reps.
  std::uint64_t master_slave_reps = 0;
};

// Simulates the cells of the given tables. Cells that are the same configuration (an (n,0) cell
// in every a row) are simulated once. `progress` gets (cells done, cells total).
std::vector<CellResult> regenerate(const std::vector<int>& tables, const TableRun& run,
                                   const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace hetstruct::cli
