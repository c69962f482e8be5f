#include "engine/estimators/estimators.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include <boost/math/distributions/students_t.hpp>

#include "bounds/control_means.h"
#include "distributions/input_error.h"
#include "engine/driver/blocks.h"

namespace hetstruct::engine {

namespace {

struct EstimatorName {
  Estimator estimator;
  const char* name;
};
constexpr EstimatorName estimator_table[] = {
    {Estimator::automatic, "auto"},           {Estimator::mc, "mc"},
    {Estimator::cv, "cv"},                    {Estimator::antithetic, "antithetic"},
    {Estimator::antithetic_cv, "antithetic-cv"}, {Estimator::exact, "exact"},
};

}  // namespace

Estimator parse_estimator(const std::string& name) {
  for (const auto& e : estimator_table)
    if (name == e.name) return e.estimator;
  throw InputError("estimator", "unknown estimator '" + name + "' (choose auto, mc, cv, antithetic, antithetic-cv or exact)");
}

const char* to_string(Estimator estimator) {
  for (const auto& e : estimator_table)
    if (estimator == e.estimator) return e.name;
  return "?";
}

std::vector<std::string> estimator_names() {
  std::vector<std::string> names;
  for (const auto& e : estimator_table) names.emplace_back(e.name);
  return names;
}

// ---- co-moments ----------------------------------------------------------------------------------

void CoMoments::add(const double* z, std::size_t dim) {
  if (count == 0) {
    mean.assign(dim, 0.0);
    m2.assign(dim * dim, 0.0);
  }
  ++count;
  const double n = static_cast<double>(count);
  // delta before the mean moves, (z - mean) after: M += delta (z - mean)', upper triangle.
  double delta[64];
  std::vector<double> big;
  double* d = delta;
  if (dim > 64) {
    big.resize(dim);
    d = big.data();
  }
  for (std::size_t i = 0; i < dim; ++i) {
    d[i] = z[i] - mean[i];
    mean[i] += d[i] / n;
  }
  for (std::size_t i = 0; i < dim; ++i)
    for (std::size_t j = i; j < dim; ++j) m2[i * dim + j] += d[i] * (z[j] - mean[j]);
}

void CoMoments::merge(const CoMoments& o) {
  single.merge(o.single);
  if (o.count == 0) return;
  if (count == 0) {
    count = o.count;
    mean = o.mean;
    m2 = o.m2;
    return;
  }
  const std::size_t dim = mean.size();
  const double na = static_cast<double>(count), nb = static_cast<double>(o.count), n = na + nb;
  std::vector<double> delta(dim);
  for (std::size_t i = 0; i < dim; ++i) delta[i] = o.mean[i] - mean[i];
  for (std::size_t i = 0; i < dim; ++i)
    for (std::size_t j = i; j < dim; ++j) m2[i * dim + j] += o.m2[i * dim + j] + delta[i] * delta[j] * na * nb / n;
  for (std::size_t i = 0; i < dim; ++i) mean[i] += delta[i] * nb / n;
  count += o.count;
}

// ---- the regression ------------------------------------------------------------------------------

std::uint64_t regression_min_reps(std::size_t controls) {
  return std::max<std::uint64_t>(100, 4 * (static_cast<std::uint64_t>(controls) + 1));
}

EstimatorResult summarize_regression(const CoMoments& total, const std::vector<double>& mu, bool pairs,
                                     double confidence, const std::vector<double>& mean_variances) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EstimatorResult out;
  out.estimator = pairs ? (mu.empty() ? Estimator::antithetic : Estimator::antithetic_cv) : Estimator::cv;
  Estimate& e = out.estimate;
  const Accumulator& s = total.single;
  e.reps = s.count;
  e.min = s.min;
  e.max = s.max;
  e.stddev = s.count > 1 ? std::sqrt(s.m2 / (static_cast<double>(s.count) - 1.0)) : nan;
  const std::size_t dim = total.mean.size(), J = dim == 0 ? 0 : dim - 1;
  const auto M = [&](std::size_t i, std::size_t j) { return i <= j ? total.m2[i * dim + j] : total.m2[j * dim + i]; };
  const double R = static_cast<double>(total.count);
  e.mean = total.count ? total.mean[0] : nan;

  // Cholesky of S_KK in a fixed order; a control (nearly) collinear with the ones before it is
  // dropped, so that a constant or duplicated control cannot make the solve blow up. So is one
  // whose spread is below 1e-12 of the makespans' (rounding noise, such as a dealing control
  // whose draw changes nothing but the last bits): fitting it would only fit noise.
  std::vector<double> L(J * J, 0.0);
  std::vector<char> kept(J, 0);
  for (std::size_t j = 0; j < J; ++j) {
    double pivot = M(j + 1, j + 1);
    for (std::size_t k = 0; k < j; ++k) pivot -= L[j * J + k] * L[j * J + k];
    if (!(pivot > 1e-10 * M(j + 1, j + 1)) || !(M(j + 1, j + 1) > 1e-24 * M(0, 0))) continue;
    kept[j] = 1;
    L[j * J + j] = std::sqrt(pivot);
    for (std::size_t i = j + 1; i < J; ++i) {
      double v = M(i + 1, j + 1);
      for (std::size_t k = 0; k < j; ++k) v -= L[i * J + k] * L[j * J + k];
      L[i * J + j] = v / L[j * J + j];
    }
  }
  // Forward solves: u = L^-1 s_KY, w = L^-1 d (over the kept controls only).
  auto forward = [&](auto value) {
    std::vector<double> u(J, 0.0);
    for (std::size_t j = 0; j < J; ++j) {
      if (!kept[j]) continue;
      double v = value(j);
      for (std::size_t k = 0; k < j; ++k)
        if (kept[k]) v -= L[j * J + k] * u[k];
      u[j] = v / L[j * J + j];
    }
    return u;
  };
  const auto u = forward([&](std::size_t j) { return M(0, j + 1); });
  const auto w = forward([&](std::size_t j) { return total.mean[j + 1] - mu[j]; });
  double explained = 0.0, q = 0.0, shift = 0.0;
  std::size_t used = 0;
  for (std::size_t j = 0; j < J; ++j) {
    if (!kept[j]) continue;
    ++used;
    explained += u[j] * u[j];
    q += w[j] * w[j];
    shift += u[j] * w[j];  // beta'd = (L^-T u)'(L w') ... = u'w with w = L^-1 d
  }
  out.controls = used;
  e.mean -= shift;
  const double df = R - static_cast<double>(used) - 1.0;
  if (total.count == 0 || !(df >= 1.0)) {
    e.stderr_ = e.ci_low = e.ci_high = nan;
    out.variance_factor = nan;
    return out;
  }
  const double sse = std::max(0.0, M(0, 0) - explained);
  const double residual = sse / df;
  // An estimated control mean mu_j moves the estimate by beta_j (mu_j's error): beta = L^-T u.
  double from_means = 0.0;
  if (!mean_variances.empty()) {
    std::vector<double> beta(J, 0.0);
    for (std::size_t j = J; j-- > 0;) {
      if (!kept[j]) continue;
      double v = u[j];
      for (std::size_t i = j + 1; i < J; ++i)
        if (kept[i]) v -= L[i * J + j] * beta[i];
      beta[j] = v / L[j * J + j];
      from_means += beta[j] * beta[j] * mean_variances[j];
    }
  }
  e.stderr_ = std::sqrt(residual * (1.0 / R + q) + from_means);
  const double effective = residual + R * from_means;  // per replication, the estimated means' share included
  const boost::math::students_t t(df);
  const double half = boost::math::quantile(t, 0.5 + confidence / 2.0) * e.stderr_;
  e.ci_low = e.mean - half;
  e.ci_high = e.mean + half;
  // Per evaluation: a pair costs two makespans.
  const double plain = s.count > 1 ? s.m2 / (static_cast<double>(s.count) - 1.0) : nan;
  // A residual at rounding level (the controls, or a pair's reflection, explain the makespans
  // exactly up to their last bits: one processor's sum of draws) is no variance: the factor is
  // undefined, not the 1e29 that noise over noise gave. No real estimator gains 1e12.
  const double per_evaluation = (pairs ? 2.0 : 1.0) * effective;
  out.variance_factor = per_evaluation > 1e-12 * plain ? plain / per_evaluation : nan;
  return out;
}

// ---- the setup -------------------------------------------------------------------------------------

EstimatorSetup estimator_setup(const structures::Structure& s, const Plan& plan, std::optional<double> exact,
                               const std::string& exact_method) {
  EstimatorSetup setup;
  setup.exact = exact;
  setup.exact_method = exact_method;
  const bool pool = plan.pool();
  setup.master_slave = pool;
  const bool custom = s.kind == structures::StructureKind::custom;
  std::vector<std::uint64_t> shares;
  if (pool && !custom)
    shares = bounds::speed_shares(std::vector<distributions::Law>(s.laws.begin(), s.laws.begin() + plan.width),
                                  static_cast<std::uint64_t>(plan.width) * static_cast<std::uint64_t>(plan.levels));
  setup.controls = control_spec(plan, shares);
  // The nearest-neighbour protocols draw each processor's tasks from the streams the
  // zero-communication recurrence draws them from: that recurrence is the surrogate.
  if (plan.structure == structures::StructureKind::nearest_neighbor && !custom) {
    setup.surrogate = compile(s);
    const EstimatorSetup own = estimator_setup(s, *setup.surrogate, std::nullopt, "");
    setup.surrogate_controls = own.controls;
    setup.surrogate_control_means = own.control_means;
  }
  if (custom) {
    // Each processor's busy time: the sum of its tasks' means, each task at its processor's scale
    // (the busy time adds the scaled times the evaluator draws).
    setup.control_means.assign(plan.width, 0.0);
    for (std::size_t t = 0; t < plan.task_sampler.size(); ++t)
      if (plan.task_sampler[t] >= 0)
        setup.control_means[plan.task_processor[t]] +=
            (plan.task_scale.empty() ? 1.0 : plan.task_scale[t]) * s.laws[plan.task_sampler[t]].mean();
  } else {
    const std::vector<distributions::Law> laws(s.laws.begin(), s.laws.begin() + plan.width);
    setup.control_means = bounds::processor_sum_means(laws, setup.controls.sum_counts);
    if (setup.controls.level_max) setup.control_means.push_back(bounds::level_max_sum_mean(laws, plan.levels));
    const auto powers = bounds::processor_power_means(laws, setup.controls.sum_counts, setup.controls.max_power);
    setup.control_means.insert(setup.control_means.end(), powers.begin(), powers.end());
    if (setup.controls.neighbor_max) {
      const auto neighbors = bounds::neighbor_max_sum_means(laws, plan.levels);
      setup.control_means.insert(setup.control_means.end(), neighbors.begin(), neighbors.end());
    }
    setup.control_means.resize(setup.controls.size(), 0.0);  // the last draws' deviations: mean 0
  }
  fit_controls(setup, std::numeric_limits<std::uint64_t>::max());
  // A processor whose tasks are constant gives a constant control: no information, left out by
  // the regression's pivoting. The twin:
  Plan twin = plan;
  for (auto& sampler : twin.samplers) {
    auto r = sampler.reflected();
    if (!r) {
      setup.no_twin = "a truncated normal, exponential, gamma, lognormal, Weibull or empirical law has no measure-preserving reflection";
      return setup;
    }
    sampler = *r;
  }
  twin.uniform_draws.clear();
  twin.normal_draws.clear();
  if (!plan.uniform_draws.empty())
    for (const auto& d : twin.samplers) twin.uniform_draws.push_back(d.uniform_draw());
  if (!plan.normal_draws.empty())
    for (const auto& d : twin.samplers) twin.normal_draws.push_back(d.normal_draw());
  setup.twin = std::move(twin);
  return setup;
}

void fit_controls(EstimatorSetup& setup, std::uint64_t reps) {
  ControlSpec& spec = setup.controls;
  std::vector<double>& means = setup.control_means;
  const std::size_t sums = spec.sum_counts.size();
  auto drop = [&](std::size_t first, std::size_t count) {
    means.erase(means.begin() + static_cast<std::ptrdiff_t>(first), means.begin() + static_cast<std::ptrdiff_t>(first + count));
  };
  auto fits = [&] {
    const std::size_t J = spec.size() + (setup.surrogate ? 1 : 0);
    return J <= max_controls && reps >= regression_min_reps(J);
  };
  // The dealing controls' rare pieces for this cap (bounds::DealingControls): each kept piece of
  // V~ seen about 10 times.
  if (spec.dealing) {
    const double rare = std::max(dealing_rare, 10.0 / static_cast<double>(std::max<std::uint64_t>(reps, 1)));
    if (rare != spec.dealing->rare())
      spec.dealing = std::make_shared<const bounds::DealingControls>(spec.dealing->laws(), spec.dealing->service(), rare);
  }
  // The dealing controls go first, the earliest draws first (the last draws carry the most): a
  // wide master-slave machine or a small cap keeps its sums and last draws, as before them.
  while (!fits() && spec.dealing_draws > 0) {
    --spec.dealing_draws;
    drop(spec.size(), 1);
  }
  if (spec.dealing_draws == 0) spec.dealing.reset();
  while (!fits() && (spec.max_power > 0 || spec.neighbor_max)) {
    if (spec.max_power == 3) {
      drop(spec.powers_at() + sums, sums);  // the cubes follow the squares
      spec.max_power = 2;
    } else if (spec.neighbor_max) {
      drop(spec.neighbors_at(), spec.neighbor_maxima());
      spec.neighbor_max = false;
    } else {
      drop(spec.powers_at(), sums);
      spec.max_power = 0;
    }
  }
}

Estimator resolve_estimator(Estimator requested, const EstimatorSetup& setup, std::uint64_t reps) {
  const std::size_t J = setup.controls.size() + (setup.surrogate ? 1 : 0);
  switch (requested) {
    case Estimator::automatic:
      if (setup.exact) return Estimator::exact;
      if (J == 0 || J > max_controls || reps < regression_min_reps(J)) return Estimator::mc;
      return setup.master_slave && setup.twin ? Estimator::antithetic_cv : Estimator::cv;
    case Estimator::mc: return Estimator::mc;
    case Estimator::exact:
      if (!setup.exact)
        throw InputError("estimator", "no exact expectation for this model",
                         "exact: synchronous at zero communication, asynchronous with normal, gamma, uniform or constant laws or their mixtures");
      return Estimator::exact;
    case Estimator::cv:
    case Estimator::antithetic_cv:
      if (J == 0) throw InputError("estimator", "this model has no control variates");
      if (J > max_controls)
        throw InputError("estimator", "this model has " + std::to_string(J) + " control variates, more than the " +
                                          std::to_string(max_controls) + " the regression keeps",
                         "one per processor: use at most " + std::to_string(max_controls - 1) + " processors, or mc");
      if (reps < J + 3)
        throw InputError("reps", "the control-variate estimator on " + std::to_string(J) + " controls needs at least " +
                                     std::to_string(J + 3) + " replications");
      [[fallthrough]];
    case Estimator::antithetic:
      if (requested != Estimator::cv && !setup.twin)
        throw InputError("estimator", "no antithetic twin: " + setup.no_twin,
                         "antithetic pairs need uniform, normal or constant laws, scaled or mixed");
      if (requested == Estimator::antithetic && reps < 2)
        throw InputError("reps", "antithetic pairs need at least 2 replications");
      return requested;
  }
  return Estimator::mc;
}

// ---- the driver -------------------------------------------------------------------------------------

namespace {

// The standard error that meets every target of `stop` for the estimate so far, raised to the
// floor (infinite: none applies yet).
double stop_target(const StopRule& stop, const Estimate& e) {
  double target = std::numeric_limits<double>::infinity();
  if (stop.target_se > 0.0) target = stop.target_se;
  if (stop.target_rel > 0.0 && e.stderr_ > 0.0) {
    const double half = (e.ci_high - e.ci_low) / 2.0;
    target = std::min(target, stop.target_rel * std::abs(e.mean) * e.stderr_ / half);
  }
  if (stop.target_reps > 0 && e.stddev >= 0.0)
    target = std::min(target, e.stddev / std::sqrt(static_cast<double>(stop.target_reps)));
  if (stop.se_floor > 0.0) target = std::isinf(target) ? stop.se_floor : std::max(target, stop.se_floor);
  return target;
}

// Blocks [0, b) folded, b growing in waves until the stop rule is met or the cap is reached. The
// next wave's end depends only on the folded total, so every thread count takes the same waves.
template <class Block, class MakeState, class Add, class Summary>
auto fold_until(const RunOptions& options, MakeState make_state, Add add, const StopRule& stop, Summary summary,
                std::uint64_t first_check_reps) {
  const std::uint64_t cap = block_count(options.reps);
  Block total;
  std::uint64_t done = 0;
  std::uint64_t next = stop.active() ? std::min(cap, std::max<std::uint64_t>(block_count(first_check_reps), 2)) : cap;
  for (;;) {
    compute_blocks<Block>(options, BlockRange{done, next}, make_state, add,
                          [&](std::span<const Block> wave) { fold_blocks(total, wave); });
    done = next;
    auto result = summary(total);
    if (done == cap || !stop.active()) return result;
    const Estimate& e = result.estimate;
    if (!(e.stderr_ >= 0.0)) {  // undefined yet: double
      next = std::min(cap, 2 * done);
      continue;
    }
    const double target = stop_target(stop, e);
    if (e.stderr_ <= target) return result;
    // Standard errors fall as 1/sqrt(R): aim 10% past the predicted need, at most 4x at once.
    const double ratio = e.stderr_ / target;
    const double predicted = std::ceil(static_cast<double>(done) * ratio * ratio * 1.1);
    const std::uint64_t want = predicted >= static_cast<double>(cap) ? cap : static_cast<std::uint64_t>(predicted);
    next = std::min(cap, std::max(done + 1, std::min(4 * done, want)));
  }
}

struct McResult {
  Estimate estimate;
};

struct CvState {
  Workspace ws, twin;  // twin: the antithetic twin's, or the surrogate's
  std::vector<double> z, zt;
  std::vector<double> task_times;  // the surrogate's: the protocol's draws, a row per processor
};

}  // namespace

namespace {

EstimatorResult run_until(const Plan& plan, const EstimatorSetup& setup, Estimator estimator, const RunOptions& options,
                          const StopRule& stop) {
  EstimatorResult out;
  out.estimator = estimator;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (estimator) {
    case Estimator::exact: {
      Estimate& e = out.estimate;
      e.reps = 0;
      e.mean = e.ci_low = e.ci_high = *setup.exact;
      e.stderr_ = 0.0;
      e.stddev = e.min = e.max = nan;  // nothing sampled
      out.variance_factor = nan;
      return out;
    }
    case Estimator::mc:
    case Estimator::automatic: {
      out.estimator = Estimator::mc;
      if (!stop.active()) {
        out.estimate = run(plan, options);
        return out;
      }
      const std::uint64_t seed = options.seed;
      out.estimate = fold_until<Accumulator>(
                         options, [&plan] { return Workspace(plan); },
                         [&plan, seed](Accumulator& acc, std::uint64_t r, Workspace& ws) { acc.add(evaluate(plan, seed, r, ws)); },
                         stop, [](const Accumulator& acc) { return McResult{summarize(acc)}; }, 100)
                         .estimate;
      return out;
    }
    case Estimator::cv:
    case Estimator::antithetic:
    case Estimator::antithetic_cv: break;
  }
  const bool pairs = estimator != Estimator::cv;
  const bool with_controls = estimator != Estimator::antithetic;
  const ControlSpec none;
  const ControlSpec& spec = with_controls ? setup.controls : none;
  std::vector<double> means = with_controls ? setup.control_means : std::vector<double>{};
  // The multi-fidelity control, last: with cv alone (a twin would need a reflected surrogate).
  const Plan* surrogate = estimator == Estimator::cv && setup.surrogate && setup.surrogate_mean ? &*setup.surrogate : nullptr;
  std::vector<double> mean_variances;
  if (surrogate) {
    mean_variances.assign(means.size(), 0.0);
    means.push_back(setup.surrogate_mean->mean);
    mean_variances.push_back(setup.surrogate_mean->stderr_ * setup.surrogate_mean->stderr_);
  }
  const std::size_t dim = spec.size() + (surrogate ? 1 : 0) + 1;
  const Plan& twin = pairs ? *setup.twin : plan;
  const std::uint64_t seed = options.seed;
  auto make_state = [&] {
    return CvState{Workspace(plan), Workspace(surrogate ? *surrogate : twin), std::vector<double>(dim), std::vector<double>(dim),
                   std::vector<double>(surrogate ? static_cast<std::size_t>(plan.width) * plan.levels : 0)};
  };
  auto add = [&plan, &twin, &spec, surrogate, pairs, dim, seed](CoMoments& block, std::uint64_t r, CvState& st) {
    // The surrogate runs on the protocol's own draws (the same variates its streams would give).
    st.z[0] = evaluate_controls(plan, spec, seed, r, st.ws, st.z.data() + 1, surrogate ? st.task_times.data() : nullptr);
    if (surrogate) st.z[dim - 1] = evaluate_on_task_times(*surrogate, st.task_times.data(), st.twin);
    block.single.add(st.z[0]);
    if (pairs) {
      st.zt[0] = evaluate_controls(twin, spec, seed, r, st.twin, st.zt.data() + 1);
      block.single.add(st.zt[0]);
      for (std::size_t i = 0; i < dim; ++i) st.z[i] = (st.z[i] + st.zt[i]) / 2.0;
    }
    block.add(st.z.data(), dim);
  };
  return fold_until<CoMoments>(
      options, make_state, add, stop,
      [&means, &mean_variances, pairs](const CoMoments& total) {
        return summarize_regression(total, means, pairs, 0.95, mean_variances);
      },
      regression_min_reps(dim - 1));
}

}  // namespace

bool stop_met(const StopRule& stop, const Estimate& e) { return e.stderr_ >= 0.0 && e.stderr_ <= stop_target(stop, e); }

EstimatorResult run_estimator(const Plan& plan, const EstimatorSetup& setup, Estimator estimator,
                              const RunOptions& options, const StopRule& stop) {
  EstimatorResult out = run_until(plan, setup, estimator, options, stop);
  if (stop.active()) out.target_met = stop_met(stop, out.estimate);
  return out;
}

EstimatorResult estimate_mean(const Plan& plan, EstimatorSetup& setup, Estimator requested, const RunOptions& options,
                              const StopRule& stop) {
  fit_controls(setup, options.reps);
  const Estimator resolved = requested == Estimator::automatic ? choose_automatic(plan, setup, options)
                                                               : resolve_estimator(requested, setup, options.reps);
  if (resolved == Estimator::cv && setup.surrogate && !setup.surrogate_mean)
    setup.surrogate_mean = estimate_surrogate(setup, options, stop);
  return run_estimator(plan, setup, resolved, options, stop);
}

Estimator choose_automatic(const Plan& plan, const EstimatorSetup& setup, const RunOptions& options) {
  const Estimator resolved = resolve_estimator(Estimator::automatic, setup, options.reps);
  if (resolved != Estimator::antithetic_cv) return resolved;
  RunOptions pilot = options;
  pilot.seed = surrogate_seed(options.seed);
  pilot.reps = std::min(options.reps, regression_min_reps(setup.controls.size()));
  pilot.progress = nullptr;
  // Pairs where the slaves bound the makespan, the controls alone (the last draws) where the
  // master does; each factor is per makespan evaluated, so a pair's two count.
  auto factor = [&](Estimator e) {
    const double f = run_estimator(plan, setup, e, pilot).variance_factor;
    return f >= 0.0 ? f : 0.0;  // NaN (a zero residual or a constant makespan): no gain known
  };
  const double pairs = factor(Estimator::antithetic_cv), single = factor(Estimator::cv);
  if (std::max(pairs, single) < pilot_min_factor) return Estimator::mc;
  // A pair's twin costs more than its first (the reflected draws take the generic sampler): pairs
  // must win clearly. Master-bound pools, with the dealing controls, measure 8.2 against 8.1.
  return pairs >= pilot_pair_margin * single ? Estimator::antithetic_cv : Estimator::cv;
}

std::uint64_t surrogate_reps(std::uint64_t reps) { return 4 * std::min<std::uint64_t>(reps, 50000); }

void share_surrogate_mean(EstimatorSetup& setup, Estimator requested, std::optional<Estimate>& shared,
                          const RunOptions& options, const StopRule& stop) {
  fit_controls(setup, options.reps);
  if (!setup.surrogate || resolve_estimator(requested, setup, options.reps) != Estimator::cv) return;
  if (!shared) shared = estimate_surrogate(setup, options, stop);
  setup.surrogate_mean = shared;
}

std::uint64_t surrogate_seed(std::uint64_t seed) { return seed ^ 0x9e3779b97f4a7c15ULL; }  // the golden ratio's bits

Estimate estimate_surrogate(const EstimatorSetup& setup, const RunOptions& options, const StopRule& stop) {
  RunOptions own = options;
  own.seed = surrogate_seed(options.seed);
  own.reps = surrogate_reps(options.reps);
  own.progress = nullptr;
  EstimatorSetup controls;
  controls.controls = setup.surrogate_controls;
  controls.control_means = setup.surrogate_control_means;
  // A standard error sqrt(surrogate_share) times the cell's target (the relative half-width
  // likewise; target_reps counts variance, so it grows by 1 / surrogate_share).
  StopRule tight;
  const double scale = std::sqrt(surrogate_share);
  tight.target_se = stop.target_se * scale;
  tight.target_rel = stop.target_rel * scale;
  tight.se_floor = stop.se_floor * scale;
  tight.target_reps = stop.target_reps == 0 ? 0
                                            : static_cast<std::uint64_t>(std::ceil(static_cast<double>(stop.target_reps) / surrogate_share));
  return run_estimator(*setup.surrogate, controls, resolve_estimator(Estimator::automatic, controls, own.reps), own, tight)
      .estimate;
}

}  // namespace hetstruct::engine
