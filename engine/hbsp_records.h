// What `hbsp replay` prints, for any front end: the program to replay (a CSV file or a built-in
// algorithm with its parameters, as texts) and the replay's records, one per superstep and a total
// (engine/hbsp_replay.h costs them). Errors are InputError naming the parameter in the paper's
// words (size, item size, root, workload, accounting, cost form, metrics, ...).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bounds/hbsp.h"
#include "engine/hbsp_replay.h"
#include "engine/record.h"

namespace hetstruct::engine::hbsp {

// "1000" (items), or bytes with a unit: "4096B", "100KB", "2MB" (binary units) -> items of
// `item_size` packets; units only where `bytes_allowed` (InputError on size).
double parse_size(const std::string& text, double item_size, bool bytes_allowed);

// A replay as asked: a program file or an algorithm (exactly one), the algorithm's parameters as
// their texts, and the cost form (auto: the algorithm's, hbsp1 for a file).
struct ReplaySettings {
  std::string program_path;
  std::string algorithm;
  std::string size = "1000";
  double item_size = 1.0;
  std::string root = "fastest";
  std::string workload = "balanced";
  std::string accounting = "paper";
  double oversampling = 32.0;
  std::string form = "auto";
};

// The program to replay on the first `p` processors of `m`, its algorithm's parameters (an
// algorithm only) and the cost form.
struct ReplayInput {
  Program program;
  std::optional<model::AlgorithmParams> params;
  model::CostForm form = model::CostForm::hbsp1;
};
ReplayInput replay_input(const model::Machine& m, int p, const ReplaySettings& settings);

// The replay's rows: one per superstep and the total, each starting with program, p, form, trace.
// `options` with a trace makes it a Monte Carlo replay (`monte_carlo`: mean cost per row, its
// spread and the total's quantiles; options.progress as given); `metrics`: Zhang and Yan's
// measures on the total row (not with `monte_carlo`). Every row has the total row's fields (the
// superstep rows' measures none), so that they make one table.
std::vector<Record> replay_records(const model::Machine& m, int p, const ReplayInput& input,
                                   const std::optional<Trace>& trace, bool monte_carlo, const BootstrapOptions& options,
                                   bool metrics);

}  // namespace hetstruct::engine::hbsp
