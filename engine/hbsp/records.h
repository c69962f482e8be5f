// The records of `hetstruct hbsp`, for any front end: a replay's rows (one a superstep and the
// total, with the Monte Carlo statistics and Zhang and Yan's measures when asked for) and the
// HBSP^1 paper's predictions (bounds/hbsp/predictions.h) as rows. cli/hbsp/command.cpp parses the
// flags into these typed options, calls these and prints the records (engine/simulate/record.h).
//
// A replay's rows, all with the total row's columns (a superstep row leaves the total's columns
// empty, the total row the superstep's):
//   program, p, form, trace                      the replay's identity, on every row
//   row                                          superstep | total
//   superstep, w, gh, L, cost                    the superstep's terms (the total: their sums)
//   work_critical, comm_critical                 the processors that set w and g*h (none: empty)
//   reps, seed, stderr, ci_low, ci_high, min,    a Monte Carlo replay's statistics of the row's
//   q05, q25, q50, q75, q95, max                 cost (the quantiles on the total row only)
//   closed_form, paper_form                      a built-in algorithm's closed forms (total row)
//   power_weights, heterogeneity, p_deg,         with metrics, on the total row: Zhang and Yan's
//   speedup, speedup_property, efficiency        measures of the replay (bounds/heterogeneity.h)
//
// Errors are InputError naming the parameter: "metrics", "trace".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bounds/hbsp/model.h"
#include "bounds/hbsp/predictions.h"
#include "engine/hbsp/replay.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine::hbsp {

// What a replay costs: the program, the parameters of the built-in algorithm that generated it
// (its closed forms go on the total row; none for a program file), and the cost form.
struct ReplayInput {
  Program program;
  std::optional<model::AlgorithmParams> params;
  model::CostForm form = model::CostForm::hbsp1;
};

// A built-in algorithm's program on a.p processors, costed in a.form.
ReplayInput algorithm_input(const model::Machine& m, const model::AlgorithmParams& a);
// A program CSV (replay.h) on the first p processors, costed in `form` (none: auto, which for a
// file is model::auto_cost_form(std::nullopt)).
ReplayInput program_input(const std::string& path, const model::Machine& m, int p,
                          std::optional<model::CostForm> form);

// A replay's inputs as a front end states them: a program file or a built-in algorithm with its
// parameters, as texts (the defaults are the command line's and Python's).
struct ReplayTexts {
  std::string program;    // a program CSV, or
  std::string algorithm;  // a built-in algorithm's name
  std::string form = "auto";
  std::string size = "1000";
  double item_size = 1.0;
  std::string root = "fastest";
  std::string workload = "balanced";
  std::string accounting = "paper";
  double oversampling = 32.0;
};
// The replay's input on the first p processors of `m`, parsed once for every front end. Errors
// name the parameters in the table's words (engine/simulate/parameters.h: "hbsp replay", "size",
// "item size", "cost form", ...); "{program}" in a message is a token each front end spells.
ReplayInput replay_input(const model::Machine& m, int p, const ReplayTexts& texts);

struct ReplayRecordOptions {
  // The r_j in force (a static replay), or the values a Monte Carlo replay draws from; none: the
  // machine's r_j.
  const Trace* trace = nullptr;
  // Given: a Monte Carlo replay of bootstrap->reps replications (needs a trace); its progress
  // callback, if any, is called as in monte_carlo_replay.
  std::optional<BootstrapOptions> bootstrap;
  // Zhang and Yan's measures on the total row: of one replay, so not with a bootstrap.
  bool metrics = false;
};

// The replay's rows: one a superstep, then the total.
std::vector<Record> replay_records(const model::Machine& m, const ReplayInput& input,
                                   const ReplayRecordOptions& options);

// One row per model::predict row: figure, operation, panel, ratio, accounting, p, n_kb, n_bytes,
// numerator, denominator, factor.
std::vector<Record> prediction_records(const model::Machine& m, const model::Prediction& prediction);

}  // namespace hetstruct::engine::hbsp
