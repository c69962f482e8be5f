// Estimators beside plain Monte Carlo: regression control variates, antithetic twins, exact
// expectations, and stopping on a target precision (issue 11; docs/estimators.md gives the
// measured variance factors behind the choices).
//
// Control variates: each replication gives z = (Y, K_1..K_J), where Y is the makespan and the K
// are statistics of the same task times with exactly known means mu_K (engine/kernel/plan.h ControlSpec,
// bounds/control_means.h). Blocks accumulate co-moments (CoMoments, a Block of engine/driver/blocks.h),
// folded in block order like every estimate; the regression is solved once from the folded total:
// beta = S_KK^-1 s_KY, estimate m_Y - beta'(m_K - mu_K), standard error
// s_e sqrt(1/R + d' S_KK^-1 d) with d = m_K - mu_K and s_e^2 = SSE / (R - J - 1), interval Student t
// with R - J - 1 degrees of freedom. No thread or rank count changes a bit.
//
// Antithetic twins: replication r is evaluated twice on the same streams, once with every draw
// reflected about its mean (distributions::Sampler::reflected); the observation is the pair's mean
// (and its controls' pair means), R counts pairs.
//
// Stopping: with a target standard error or relative half-width, blocks run in waves whose sizes
// depend only on the folded total so far, and the run stops after the first wave that meets the
// target: the decision is the same on any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/controls.h"
#include "engine/kernel/plan.h"
#include "engine/driver/statistics.h"
#include "structures/structure.h"

namespace hetstruct::engine {

enum class Estimator {
  automatic,      // the best the model offers: exact, else controls (with twins for ms), else mc
  mc,             // plain Monte Carlo, engine::run
  cv,             // regression control variates
  antithetic,     // antithetic pairs
  antithetic_cv,  // control variates on antithetic pairs
  exact,          // the exact expectation (quadrature), no sampling
};
// auto, mc, cv, antithetic, antithetic-cv, exact; InputError on `estimator` otherwise.
Estimator parse_estimator(const std::string& name);
const char* to_string(Estimator estimator);
std::vector<std::string> estimator_names();

// Co-moments of the observation vector z = (Y, K_1..K_J) of a block's replications (Welford's
// update, vector form), plus the plain statistics of every makespan evaluated (both members of an
// antithetic pair). merge() is Chan's update; the fold order is the block order.
struct CoMoments {
  std::uint64_t count = 0;
  std::vector<double> mean;  // dim
  std::vector<double> m2;    // dim x dim, row-major; the upper triangle is kept
  Accumulator single;        // every makespan evaluated

  void add(const double* z, std::size_t dim);
  void merge(const CoMoments& o);
};

// Stop once the standard error is at most target_se, the 95% half-width at most
// target_rel * |mean|, and the standard error at most s / sqrt(target_reps), the standard error of
// target_reps plain replications (s: the makespans' standard deviation, measured on the same run;
// the paper's precision is target_reps = 10000), each when > 0; RunOptions::reps stays the cap.
// se_floor (when > 0): a standard error at which the targets count as met whatever they ask, or
// the target itself when none is set. A table prints whole time units: precision far beyond its
// digits costs replications and changes nothing printed. The variance study's rule, se <=
// max(0.05, the 10,000-replication se), is target_reps = 10000 with se_floor = 0.05; it is not
// the paper's precision where the makespans' sd is below 5 (master-bound ms cells: about 0.25).
struct StopRule {
  double target_se = 0.0;
  double target_rel = 0.0;
  std::uint64_t target_reps = 0;
  double se_floor = 0.0;
  bool active() const { return target_se > 0.0 || target_rel > 0.0 || target_reps > 0 || se_floor > 0.0; }
};

// What a model offers the estimators: its controls with their exact means, its antithetic twin
// and its exact expectation, each where it exists.
struct EstimatorSetup {
  ControlSpec controls;
  std::vector<double> control_means;
  std::optional<Plan> twin;
  std::string no_twin;                // why there is no twin
  std::optional<double> exact;        // the exact expected makespan
  std::string exact_method;           // how it was obtained (eq6, quadrature, normal_exact, cf_inversion, ...)
  bool master_slave = false;          // where antithetic pairs pay most (processor-bound pools)
  // The multi-fidelity control (nearest neighbour with communication): the zero-communication
  // recurrence evaluated on the same streams, a cheap surrogate that tracks the protocol. Its mean
  // is not known: it is estimated from surrogate_reps(cap) replications of its own
  // (estimate_surrogate, on a seed of its own), and that estimate's variance enters the standard
  // error. Used by `cv` when surrogate_mean is set (run() in engine/simulate/simulation.h sets it).
  std::optional<Plan> surrogate;
  ControlSpec surrogate_controls;  // its own controls (sums, level maxima), with exact means
  std::vector<double> surrogate_control_means;
  std::optional<Estimate> surrogate_mean;
};

// The surrogate's replications for a run capped at `reps`: 4 reps, at most 200,000 (its
// evaluations cost a twentieth of the protocol's; the study's optimum is 3-60 of them per protocol
// replication, and a run that stops early on a target has used fewer than its cap).
std::uint64_t surrogate_reps(std::uint64_t reps);
// The surrogate's mean: at most surrogate_reps(options.reps) replications on the seed
// surrogate_seed(options.seed), independent of the run's own streams, with the surrogate's own
// control variates (whose means are exact): measured, this brings the surrogate's share of the
// standard error down as much as 5 times more replications would. When the run stops on a target
// (`stop`), so does the surrogate, on the same target tightened to surrogate_share of its variance
// (see below).
Estimate estimate_surrogate(const EstimatorSetup& setup, const RunOptions& options, const StopRule& stop = {});
// The share of a cell's target variance the surrogate's estimated mean takes when both stop on a
// target. Its error enters the cell's as beta^2 var(mean_S) with beta about 1, and the six cells
// of a configuration share it, so the cost is least at f / (1 - f) = sqrt(c_S b / (6 c_Y a)) (c:
// cost per replication, a and b: residual variance per replication of the cell and of the
// surrogate). Measured on Table 4, c_S / c_Y = 0.12-0.17 and b / a = 1.1-1.6: f = 0.15. Taking
// 40,000 surrogate replications whatever the target, as before, cost more than the six cells
// together at n = 3.
inline constexpr double surrogate_share = 0.15;
std::uint64_t surrogate_seed(std::uint64_t seed);

// For cells that differ only in C (a table's, a figure's points, a sweep's configurations): their
// surrogate is one zero-communication plan on one seed, so one estimate of its mean serves them
// all, the same bits as each one's own. Fits the controls to options.reps (fit_controls), then,
// where `requested` runs cv with the surrogate (resolve_estimator), sets setup.surrogate_mean to
// `shared`, estimating it first (estimate_surrogate) when `shared` is empty.
void share_surrogate_mean(EstimatorSetup& setup, Estimator requested, std::optional<Estimate>& shared,
                          const RunOptions& options, const StopRule& stop);

// `closed_form`: the structure's exact expectation when known (bounds::closed_form at C = 0,
// method other than normal_approx). `plan` compiled from `s`.
EstimatorSetup estimator_setup(const structures::Structure& s, const Plan& plan, std::optional<double> exact,
                               const std::string& exact_method);

// The result of an estimator: the estimate (reps: makespans evaluated, both twins counted; min,
// max and stddev over them), which estimator ran, and the variance factor against plain sampling
// at equal evaluations, measured on the same run (the makespans' sample variance over the
// residual variance per evaluation; 1 for mc, NaN for exact or a zero residual).
struct EstimatorResult {
  Estimate estimate;
  Estimator estimator = Estimator::mc;
  double variance_factor = 1.0;
  std::size_t controls = 0;  // J used (after dropping collinear ones)
  // With a stop rule: whether the estimate met it (false: the cap, RunOptions::reps, came first).
  std::optional<bool> target_met;
};

// Whether an estimate meets every target of `stop` (an undefined standard error does not).
bool stop_met(const StopRule& stop, const Estimate& e);

// The most controls a regression takes: each block keeps a (J+1)^2 co-moment matrix, and a wave
// holds 1024 blocks (65 controls: 35 MB).
inline constexpr std::size_t max_controls = 65;

// Drops the optional controls, the dealing controls first (master-slave; from the earliest draw),
// then the cubes (they add least), then the neighbours' maxima, then the squares, while the
// regression would hold more than max_controls or need more than `reps` replications
// (regression_min_reps), keeping control_means in step: a wide machine keeps the sums and the
// level maxima (master-slave: the sums and the last draws), and a run with a small cap the
// controls that fit it (so that `auto` still takes cv there). estimator_setup fits to
// max_controls; a run fits to its cap before resolving. The dealing controls that stay merge the
// pieces of V~ rarer than max(dealing_rare, 10 / reps) (bounds::DealingControls).
void fit_controls(EstimatorSetup& setup, std::uint64_t reps);
inline constexpr double dealing_rare = 1e-3;

// Which estimator `requested` means for this setup and replication cap (auto resolved; the others
// checked: InputError on `estimator` where the model does not offer it, on `reps` where the cap is
// below what the regression needs).
Estimator resolve_estimator(Estimator requested, const EstimatorSetup& setup, std::uint64_t reps);

// What `auto` runs: resolve_estimator's answer, except for master-slave with a twin, where a pilot
// of regression_min_reps replications on surrogate_seed(seed) compares the controls on antithetic
// pairs (3-76 times on processor-bound pools) with the controls alone (the last draws: 1.5-12
// times where the master bounds the makespan and a pair gains nothing), per makespan evaluated;
// the better runs, or plain mc when neither reaches pilot_min_factor. Deterministic: the pilot
// depends on the seed only.
inline constexpr double pilot_min_factor = 1.5;
inline constexpr double pilot_pair_margin = 1.25;  // pairs run where their factor is 1.25 times the controls' alone
Estimator choose_automatic(const Plan& plan, const EstimatorSetup& setup, const RunOptions& options);

// The mean of `plan` by `requested`, as simulate, policies and the sweep run it: the optional
// controls fitted to the cap (fit_controls), `auto` resolved (choose_automatic, the others
// checked by resolve_estimator), the surrogate's mean estimated where cv takes it and `setup` has
// none yet (it stays in `setup`), then run_estimator.
EstimatorResult estimate_mean(const Plan& plan, EstimatorSetup& setup, Estimator requested, const RunOptions& options,
                              const StopRule& stop = {});

// Runs `estimator` (resolve_estimator's answer). Plain mc without a stop rule is engine::run,
// bit for bit.
EstimatorResult run_estimator(const Plan& plan, const EstimatorSetup& setup, Estimator estimator,
                              const RunOptions& options, const StopRule& stop = {});

// The regression estimate of a folded total (`pairs`: observations are antithetic pair means).
// `mean_variances` (empty: all 0): the variance of each control's mean where it is estimated, not
// known; beta_j^2 times it is added to the squared standard error.
EstimatorResult summarize_regression(const CoMoments& total, const std::vector<double>& control_means, bool pairs,
                                     double confidence = 0.95, const std::vector<double>& mean_variances = {});

// The fewest replications (pairs) the regression on J controls accepts, and the first stopping
// check: max(100, 4 (J + 1)) as the study advises, so that the standard error itself is sound.
std::uint64_t regression_min_reps(std::size_t controls);

}  // namespace hetstruct::engine
