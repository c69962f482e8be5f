// The one place where a Python call's keyword arguments become the library's inputs: each call's
// model, run options, estimator and targets, from keywords named as the command line's options
// (structure=, n=, m=, a=, law=, comm=, graph=, reps=, seed=, estimator=, quantiles=, deadline=,
// ...). Numbers may be Python numbers or the command line's texts (a="1/2"); a float is read as its
// shortest round-trip text, so that it parses to the same double. A keyword that the call does not
// read, or one that would do nothing, is refused: InputError naming the keyword, which the module
// raises as ValueError.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "bounds/hbsp/model.h"
#include "engine/fit/fit.h"
#include "engine/estimators/distribution.h"
#include "engine/estimators/estimators.h"
#include "engine/hbsp/records.h"
#include "engine/simulate/model.h"
#include "engine/simulate/schedule_comparison.h"
#include "engine/driver/monte_carlo.h"
#include "engine/sweep/sweep.h"
#include "engine/wilson/figures.h"
#include "engine/wilson/tables.h"

namespace hetstruct::python {

namespace py = pybind11;

// The keyword of a library parameter ("width" -> "n", "comm_cost" -> "comm"); the name itself when
// it has none (a file's path, a law's text).
std::string keyword_of(const std::string& parameter);
// A library text (an error's problem or hint, a warning) with the settings it names spelled as
// keywords: "memory_check off" -> "memory_check=False", "(processor_cores)" -> "(cores=)".
std::string keyword_text(std::string text);

struct SimulateCall {
  engine::Model model;
  engine::RunOptions run;
  bool metrics = false;
  bool keep = false;  // the makespans as an array (plain Monte Carlo)
  engine::Estimator estimator = engine::Estimator::automatic;
  engine::StopRule stop;
  engine::DistributionOptions distribution;
  bool criticality = false;  // one record per task, as simulate --criticality
  bool estimates = false;    // the analytic DAG estimates' rows, as simulate --estimates
  std::string histogram_out;  // histogram_out=: the histogram's CSV written there too, as --histogram-out
  // Paired comparisons (compare_to): the sweep's rows of the model and its targets, as simulate
  // --compare-to prints them, with their mean estimator (mc unless estimator says otherwise).
  std::vector<engine::Comparison> comparisons;
  std::optional<engine::MeanEstimator> mean;
  // compare_to=['schedule=B', ...]: the graph's schedule against each B, as simulate --compare-to
  // schedule=B prints them (engine::compare_schedules), instead of the sweep's rows.
  std::vector<engine::ScheduleChoice> schedules;
};
SimulateCall simulate_call(const py::kwargs& kwargs);

struct BoundsCall {
  engine::Model model;
  bool estimates = false;
  engine::RunOptions nn_run;  // E(nn) at C = 0
};
BoundsCall bounds_call(const py::kwargs& kwargs);

// schedule(): the graph's model with its schedule (algorithm=, default heft; sd_weight=) and the
// mapping file to write (output_mapping=).
struct ScheduleCall {
  engine::Model model;
  std::string mapping_out;
};
ScheduleCall schedule_call(const py::kwargs& kwargs);

// fit(): the runs' source (samples=, graph= one path or a list, sacct=), by=, laws=, seed=,
// out_graph= (with graph=).
struct FitCall {
  engine::FitInputs inputs;
  std::string out_graph;
  engine::Grouping grouping;
  engine::FitOptions options;
};
FitCall fit_call(const py::kwargs& kwargs);

// compare(): schedules= (a list of names, or one text of names joined by commas) and baseline=
// (engine::parse_schedule_set), and simulate()'s model, sampling and distribution keywords; what
// compare cannot act on (compare_to, schedule, metrics, keep, criticality, estimates, histogram,
// histogram_out, an estimator or a target) refused by its keyword.
struct CompareCall {
  SimulateCall simulate;  // the model with the baseline's schedule, the run and the distribution
  engine::ScheduleSet schedules;
};
CompareCall compare_call(const py::kwargs& kwargs);

struct PoliciesCall {
  engine::Model model;
  engine::RunOptions run;
  engine::Estimator estimator = engine::Estimator::automatic;
  engine::StopRule stop;
};
PoliciesCall policies_call(const py::kwargs& kwargs);

struct SweepCall {
  std::vector<engine::SweepGrid> grids;
  std::vector<engine::Comparison> comparisons;
  bool skip_invalid = false;
  engine::GraphSettings graph;
  engine::DistributionOptions distribution;
  std::optional<engine::MeanEstimator> mean;
  engine::RunOptions run;
};
SweepCall sweep_call(const py::kwargs& kwargs);

struct TableCall {
  std::vector<int> tables;
  engine::TableRun run;
};
TableCall table_call(const py::object& which, const py::kwargs& kwargs);

struct FigureCall {
  engine::FigureSpec spec;
  engine::FigureRun run;
};
FigureCall figure_call(const py::object& which, const py::kwargs& kwargs);

struct ReplayCall {
  bounds::hbsp::Machine machine;
  int p = 0;
  engine::hbsp::ReplayInput input;
  std::optional<engine::hbsp::Trace> trace;
  bool monte_carlo = false;
  engine::hbsp::BootstrapOptions options;
  bool metrics = false;
};
ReplayCall replay_call(const py::kwargs& kwargs);

}  // namespace hetstruct::python
