// A sweep: every configuration of a grid (engine/sweep/grid.h) simulated with one seed (common
// random numbers), each with its closed form and bounds where they exist, its paired differences
// against its comparisons' targets, and its Monte Carlo estimate, as records.
//
// Runs: a configuration's rows need its own plan (mc), a paired run per comparison whose target can
// be built (difference), and for nn the C = 0 run of its shape (Eq. 12), which the configurations
// of one shape share: the first of them in the sweep owns it. plan_runs lays them out; each run is
// cut into blocks of replications (engine/driver/monte_carlo.h), and deal_blocks cuts the runs laid end to
// end into consecutive stretches of equal work, one per worker (an MPI rank, say: this module knows
// nothing of how pieces travel). compute_piece computes a piece; fold_pieces folds every run's
// pieces in block order, the fold of one process, so the result never depends on the deal.
//
// Records: per configuration, in grid order, its columns saying what ran (Entry::ran), then the
// rows closed_form, lower_bound, upper_bound (where they exist), difference and ratio (per
// comparison), sd, quantile (per level), p_deadline (per deadline) when asked for, and the mean,
// always last: a configuration is complete in a file when its mean row is there (what resuming
// relies on). The mean row's estimator is the one that ran (mc, cv, antithetic, antithetic-cv):
// plain blocks by default; another estimator, or a target precision, estimates each configuration's
// mean whole (engine/estimators/estimators.h estimate_mean), as one indivisible piece of work, so that it is
// the same on any thread or rank count.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "distributions/input_error.h"
#include "engine/estimators/distribution.h"
#include "engine/estimators/estimators.h"
#include "engine/driver/monte_carlo.h"
#include "engine/estimators/paired.h"
#include "engine/simulate/record.h"
#include "engine/driver/statistics.h"
#include "engine/sweep/grid.h"

namespace hetstruct::engine {

// A configuration (or a comparison's target) that cannot be built. The message names the
// configuration, the comparison (if any) and the cause, whose parameter a front end may respell.
class InvalidConfiguration : public InputError {
 public:
  InvalidConfiguration(const SweepConfig& c, std::string comparison, const InputError& cause);
  const std::string& configuration() const { return configuration_; }  // describe(c)
  const std::string& comparison() const { return comparison_; }        // its label; empty: the configuration
  const InputError& cause() const { return cause_; }

 private:
  std::string configuration_, comparison_;
  InputError cause_;
};

inline constexpr std::size_t no_run = std::numeric_limits<std::size_t>::max();

// One configuration of the sweep and its runs (indices into plan_runs' result).
struct Entry {
  std::size_t row = 0;                               // its position among the grid's valid configurations
  SweepConfig c;
  std::shared_ptr<const GraphSettings> graph;        // a graph's settings (to_model); null: the defaults
  SweepConfig ran;  // what ran, the rows' columns: c with the protocol's name where one runs and the
                    // exchange only where it applies (nn at C = 0), empty otherwise
  std::vector<std::optional<SweepConfig>> targets;  // per comparison; empty: left out (skip_invalid)
  // Per comparison, its target's graph settings: the entry's, or with Wilson's machine where the
  // comparison sets m or a on a graph (GraphSettings::wilson_machine); null: the defaults.
  std::vector<std::shared_ptr<const GraphSettings>> target_graphs;
  std::size_t nn_zero_run = no_run;
  std::vector<std::size_t> difference_runs;          // per comparison; no_run when left out
  std::size_t mc_run = no_run;
};

// The grid's configurations that can be built, in grid order, with their comparisons' targets.
struct SweepEntries {
  std::vector<Entry> entries;
  std::uint64_t invalid = 0;               // configurations left out
  std::uint64_t comparisons_left_out = 0;  // difference rows left out
  std::uint64_t not_applicable = 0;        // difference rows a comparison has no meaning for (a graph's)
  std::uint64_t no_effect = 0;             // difference rows whose comparison would not change the model
};

// Builds (and compiles) every configuration and every comparison's target before anything runs.
// One that cannot be built throws InvalidConfiguration, or with `skip_invalid` is left out (a
// target: its difference row). Throws InputError when no configuration can be built.
SweepEntries build_entries(const SweepGrid& grid, const std::vector<Comparison>& comparisons, bool skip_invalid);
// The entries of several grids, one after the other (Wilson's structures, then graphs, each with
// the options that act on it), in one numbering of rows.
SweepEntries build_entries(const std::vector<SweepGrid>& grids, const std::vector<Comparison>& comparisons,
                           bool skip_invalid);
// The same with `graph` set on every graph's model (and its comparisons' targets).
SweepEntries build_entries(const std::vector<SweepGrid>& grids, const std::vector<Comparison>& comparisons,
                           bool skip_invalid, const GraphSettings& graph);

enum class RunKind { nn_zero, difference, mc };

// How the mean rows are estimated when not by plain blocks: `estimator` (auto: the best the
// configuration offers but the exact value, which is its closed_form row), stopping on `stop`.
struct MeanEstimator {
  Estimator estimator = Estimator::automatic;
  StopRule stop;
};

// The sweep's MeanEstimator for the estimator `requested` and `stop`; none where the plain blocks
// serve (mc without a stop rule). `distribution`: the distribution's rows are asked for; they read
// plain replications, so auto then means mc, and any other estimator or a stop rule is an
// InputError, as exact always is.
// `slowdowns`: the sweep has correlated slowdowns, under which only mc applies (auto means mc; any
// other estimator is an InputError, as in simulate).
std::optional<MeanEstimator> mean_estimator(Estimator requested, const StopRule& stop, bool distribution,
                                            bool slowdowns = false);

struct RunSpec {
  RunKind kind;
  std::size_t entry;           // the configuration (position in the entries) whose plans it runs
  std::size_t comparison = 0;  // a difference's comparison
  double work = 0.0;           // seconds per replication (estimated): for the deal and for progress
  std::optional<MeanEstimator> whole;  // an mc run estimated whole: one piece of one block
};

// Lays out the runs of the entries, in order: per configuration, its shape's C = 0 run if it is
// the first of the shape, then one difference per comparison, then mc (estimated whole by `mean`
// when given); sets the entries' run indices.
std::vector<RunSpec> plan_runs(std::vector<Entry>& entries, const std::optional<MeanEstimator>& mean = std::nullopt);

// A run's blocks for a cap of `reps` replications: block_count(reps), or 1 for a run estimated whole.
std::uint64_t blocks_of(const RunSpec& run, std::uint64_t reps);
// The estimated work of one of them: the run's work per replication, times block_count(reps) for
// a run estimated whole (what it costs when it does not stop early).
double block_work(const RunSpec& run, std::uint64_t reps);
// What deal_blocks deals: per run, its blocks and the work of one.
std::vector<std::pair<std::uint64_t, double>> run_work(const std::vector<RunSpec>& runs, std::uint64_t reps);

// A piece of work: blocks [first, last) of run `run`.
struct SweepPiece {
  std::uint64_t run = 0, first = 0, last = 0;
};

// Deals runs (runs[i] = {blocks, work per block}) to `ranks` workers: the runs laid end to end in
// order and cut at block boundaries into `ranks` consecutive stretches of nearly equal work;
// result[r] lists worker r's pieces in order. Every block is in exactly one piece; a run is cut
// only where a stretch ends, so only a worker's first piece may start inside a run.
std::vector<std::vector<SweepPiece>> deal_blocks(const std::vector<std::pair<std::uint64_t, double>>& runs, int ranks);

// A piece computed: its per-block statistics in block order, except that a piece starting at
// block 0 carries the one Accumulator of their fold (fold_blocks), which continues the fold
// exactly as the blocks would.
// Beside them, a difference run's PairedMoments the same way (one folded from block 0, else one a
// block), and an mc run that keeps its makespans (keep_makespans) the piece's makespans in
// replication order; a difference run that keeps them (keep_makespans with quantiles or deadlines
// asked, for the paired rows) both makespans of each replication, interleaved (a_0, b_0, a_1, ...:
// run_paired_sample_blocks). A run estimated whole is one piece [0, 1) that holds its result alone.
struct BlockPiece {
  std::uint64_t run = 0, first = 0, last = 0;
  std::vector<Accumulator> blocks;
  std::vector<PairedMoments> paired;  // difference runs
  std::vector<double> makespans;      // mc runs with keep_makespans
  std::optional<EstimatorResult> estimated;  // a run estimated whole
};

// What a run gives beyond its Estimate: a difference run's ratio of the means and, with quantiles or
// deadlines asked, its paired differences of them (describe_paired), an mc run's distribution (when
// asked for), and the estimator that made an mc run's mean where it was estimated whole (none:
// plain blocks).
struct RunExtras {
  std::optional<RatioEstimate> ratio;
  std::optional<PairedDistribution> paired;
  std::optional<Distribution> distribution;
  std::optional<EstimatorResult> estimator;
};

// A configuration's structure and plans, compiled when first needed.
struct Job {
  Model model;
  structures::Structure s;
  Plan plan;
  std::vector<std::optional<Plan>> bases;
  std::optional<Plan> nn_zero_plan;
  std::optional<EstimatorSetup> estimators;

  std::shared_ptr<const GraphSettings> graph;  // null: the defaults

  Job(const SweepConfig& c, std::size_t comparisons);
  Job(const Entry& entry, std::size_t comparisons);  // with the entry's graph settings
  Job(const SweepConfig& c, std::size_t comparisons, std::shared_ptr<const GraphSettings> settings);
  // Comparison i's target plan with the entry's settings for it (Entry::target_graphs).
  const Plan& base(const Entry& entry, std::size_t i);
  const Plan& nn_zero();
  // The controls and twin the configuration offers (no exact value: the sweep simulates its mean).
  EstimatorSetup& setup();
};

// The surrogates' estimated means a worker has made (EstimatorSetup::surrogate_mean), by
// configuration with C left out: configurations that differ only in C have one surrogate, the
// zero-communication plan of their shape on one seed, so one estimate serves them all, the same
// bits as each one's own (a table's nn cells share it likewise).
using SurrogateMeans = std::map<std::string, std::optional<Estimate>>;

// Computes a piece of a run of `entry` (whose Job is `job`).
// With `keep_makespans`, an mc run's piece keeps its makespans; with `surrogates`, a run estimated
// whole by cv takes its surrogate's mean from there, or adds it.
BlockPiece compute_piece(const SweepPiece& piece, const RunSpec& spec, const Entry& entry, Job& job,
                         const RunOptions& options, bool keep_makespans = false, SurrogateMeans* surrogates = nullptr);

// A worker's share of a sweep: its pieces (deal_blocks' result[r]) of `runs`, computed in order by
// compute(), one configuration's Job at a time.
struct SweepShare {
  std::vector<SweepPiece> pieces;
  bool keep_pieces = false;                 // keep every computed piece (to gather them elsewhere)
  std::function<void(double)> progress;     // estimated work done so far (after blocks, any thread)
  std::function<void(const Entry&, const Job&)> entry_done;  // after the last of an entry's pieces here
  DistributionOptions distribution;         // the mc runs' distribution (nothing asked: no makespan kept)

  std::vector<Estimate> estimates;          // per run: set where a piece covered the run whole
  std::vector<RunExtras> extras;            // per run, likewise (an mc run's distribution is dropped
                                            // after its entry_done)
  std::vector<BlockPiece> computed;         // with keep_pieces: every piece, in order
  SurrogateMeans surrogates;                // made by this worker's cv runs, shared across C

  double work(const std::vector<RunSpec>& runs, std::uint64_t reps) const;  // the pieces' estimated work (block_work)
  void compute(const std::vector<Entry>& entries, const std::vector<RunSpec>& runs, std::size_t comparisons,
               RunOptions options);
};

// Every run's estimate from its pieces (in any order, from any workers): each run's pieces folded
// in block order into an empty total, so the estimate is one process's bit for bit (a run estimated
// whole: its one piece's result). `reps`: the cap of the run (blocks_of). Throws
// std::runtime_error when a run's blocks are missing or do not follow on.
// With `extras`, every run's extras too (the distribution with `distribution`'s estimates, from the
// pieces' makespans, which it releases; a difference run's paired differences with the bootstrap of
// `run`'s seed on its threads, which a difference run that kept its makespans needs: std::logic_error
// without it).
std::vector<Estimate> fold_pieces(std::vector<BlockPiece>& pieces, const std::vector<RunSpec>& runs, std::uint64_t reps,
                                  std::vector<RunExtras>* extras = nullptr, const DistributionOptions& distribution = {},
                                  const RunOptions* run = nullptr);

// Whether difference runs keep their makespans for `distribution`: quantiles or deadlines asked.
bool keeps_pairs(const DistributionOptions& distribution);
// A difference run's paired differences from its makespans, interleaved as a piece keeps them
// (released here).
PairedDistribution describe_pairs(std::vector<double>& interleaved, const DistributionOptions& distribution,
                                  const RunOptions& run);

// A configuration's records, from its runs' estimates (indexed as plan_runs laid them out).
// With `extras` (indexed likewise), the ratio rows, the paired rows (quantile_difference per level,
// p_deadline_difference per deadline, after the comparison's ratio row) and the distribution's rows
// where they hold them.
// `target`: the mean rows stop on a target (MeanEstimator::stop), and every row has the column
// target_met (sweep_columns(true)).
std::vector<Record> config_records(const Entry& entry, const Job& job, const std::vector<Comparison>& comparisons,
                                   const std::vector<Estimate>& estimates, std::uint64_t seed,
                                   const std::vector<RunExtras>& extras = {}, bool target = false);

// The columns of a sweep's records: the dimensions, then estimator, method, compare_to, value,
// stderr, ci_low, ci_high, reps, seed, variance_factor (the mean row's, against plain sampling on
// the same run: 1 for mc; empty on the other rows); with `target` (a sweep whose means stop on a
// target), target_met last: true or false on the mean row (false: the cap, reps, came first),
// empty on the others.
// With `slowdowns` (a sweep with correlated slowdowns), the columns slowdown and machine_slowdown
// (their laws, canonical; empty where none) after variance_factor; the closed_form, lower_bound
// and upper_bound rows then have no value and the method none_with_slowdowns (they assume
// independent task times).
const std::vector<std::string>& sweep_columns(bool target = false, bool slowdowns = false);
// Whether a sweep's mean rows stop on a target (its records have the column target_met).
bool has_target(const std::optional<MeanEstimator>& mean);

// A sweep's rows (config_records') as a whole output: the CSV under `columns` (sweep_columns), and
// JSON and text rendered from the rows themselves as read_back has them, the kinds a reader of
// that CSV takes (the canonical columns that read as numbers, n=8 or a=0.5, as numbers; counts as
// numbers; empty fields as none), so that the three formats say the same.
std::string render_rows(std::span<const Record> rows, Format format, const std::vector<std::string>& columns);

// The rows of a previous sweep's CSV `text` (read from `path`, which errors name) that `entries`
// keep: per entry, its configuration's rows as written where they are complete (down to the mean
// row) with this seed and a run like this one (`reps` the cap, `mean` the mean's estimator:
// resumable); empty where it must be simulated. A configuration is known by its
// columns (Entry::ran): entries that share them (they differ only in an option that did not run,
// such as nn's exchange at C > 0) take the file's configurations of those columns in order. Throws
// InputError on another header, a line that is not a sweep row, or a configuration of no entry.
std::vector<std::string> resumed_rows(const std::vector<Entry>& entries, const std::string& text,
                                      const std::string& path, std::uint64_t reps, std::uint64_t seed,
                                      const std::optional<MeanEstimator>& mean = std::nullopt);

// Whether a mean row written with estimator `written` (its name) and `written_reps` replications
// comes from a run like this one: plain blocks (`mean` none) wrote mc and exactly `reps`; an
// estimator wrote itself (auto: any but exact) and, both twins counted, twice `reps` for pairs, at
// most that under a stop rule (the target itself is not in the file: resuming trusts it is the same).
bool resumable(const std::string& written, std::uint64_t written_reps, std::uint64_t reps,
               const std::optional<MeanEstimator>& mean);

// ---- one model as a one-configuration sweep (a model's comparisons) -----------------------------

// A model as the sweep states it: its configuration (each column's canonical text, as the grid
// makes it from the same option texts: a=1/2 is 0.5, the structure's short name, a graph's port
// model with its overlap as one-port-overlap) and, for a graph, its settings. Builds and compiles
// the model first (with its memory check), so that a model that cannot be built fails with its own
// InputError before anything is mapped.
struct ModelSweep {
  SweepConfig config;
  GraphSettings graph;
};
ModelSweep model_sweep(const Model& model);

// The records of the one-configuration sweep of `model` with `comparisons` (seed, replications and
// threads from `options`; its progress, if any, as the sweep's work done out of 1e6): the rows
// config_records gives a sweep of that one configuration, the same computation bit for bit, so a
// sweep of model_sweep(model).config prints the same numbers. `mean` and `distribution` are the
// sweep's (mean_estimator; the sd, quantile and p_deadline rows). InvalidConfiguration when a
// comparison's target cannot be built; InputError when a comparison has no meaning for the model
// (a graph's width, laws or levels).
std::vector<Record> model_sweep_records(const Model& model, const std::vector<Comparison>& comparisons,
                                        const RunOptions& options, const std::optional<MeanEstimator>& mean = std::nullopt,
                                        const DistributionOptions& distribution = {});

}  // namespace hetstruct::engine
