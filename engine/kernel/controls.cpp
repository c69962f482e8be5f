#include "engine/kernel/controls.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "distributions/input_error.h"
#include "engine/kernel/evaluators.h"

namespace hetstruct::engine {

using namespace detail;

ControlSpec control_spec(const Plan& plan, const std::vector<std::uint64_t>& shares) {
  ControlSpec spec;
  const auto levels = static_cast<std::uint64_t>(plan.levels);
  const bool pool = plan.pool();
  if (plan.kind == PlanKind::dag) {
    spec.sum_counts.assign(plan.width, 0);
    for (std::size_t t = 0; t < plan.task_sampler.size(); ++t)
      if (plan.task_sampler[t] >= 0) ++spec.sum_counts[plan.task_processor[t]];
    return spec;
  }
  if (pool) {
    if (shares.size() != static_cast<std::size_t>(plan.width))
      throw std::invalid_argument("control_spec: a task pool needs one share per processor");
    spec.sum_counts = shares;
    if (plan.kind == PlanKind::protocol) {
      // Four of the last tasks dealt: measured on master-bound cells of Tables 5 and 8 (3,000
      // replications) they take the variance factor from 1 to 1.5-12; sixteen add 0-10% more, for
      // four times the co-moments and a larger minimum of replications.
      spec.last_draws = static_cast<std::size_t>(std::min<std::uint64_t>(last_draw_controls, plan.compute_tasks()));
      // The dealing controls: where the master deals (C > 0) from the shared pool, whose end they
      // predict (a static split deals by quota, which the prediction does not follow).
      std::vector<distributions::Law> laws;
      for (const auto& law : plan.laws) {
        const auto it = std::find(laws.begin(), laws.end(), law);
        spec.dealing_law.push_back(static_cast<std::size_t>(it - laws.begin()));
        if (it == laws.end()) laws.push_back(law);
      }
      const double service = 2.0 * plan.comm.comm_cost;
      if (service > 0.0 && plan.comm.policy == DealingPolicy::dynamic &&
          bounds::DealingControls::fits(laws, service)) {
        spec.dealing = std::make_shared<const bounds::DealingControls>(std::move(laws), service);
        spec.dealing_draws = static_cast<std::size_t>(std::min<std::uint64_t>(dealing_controls, plan.compute_tasks()));
      } else {
        spec.dealing_law.clear();
      }
    }
    return spec;
  }
  spec.sum_counts.assign(plan.width, levels);
  spec.level_max = true;
  if (plan.kind == PlanKind::protocol) {
    // Squares and cubes where every law's third central moment is known (their means), squares
    // alone otherwise. Cubes add 5-20% to the squares' gain (sync, four cells).
    const bool cubes = std::all_of(plan.laws.begin(), plan.laws.end(),
                                   [](const distributions::Law& law) { return law.third_central_moment().has_value(); });
    spec.max_power = cubes ? 3 : 2;
    spec.neighbor_max = plan.structure == structures::StructureKind::nearest_neighbor;
  }
  return spec;
}

namespace {

template <class Draw>
double evaluate_regular_controls(const Plan& plan, const Draw* draws, const ControlSpec& spec, std::uint64_t seed,
                                 std::uint64_t rep, Workspace& ws, ControlTap& tap) {
  switch (plan.kind) {
    case PlanKind::asynchronous: return evaluate_asynchronous_by_level(plan, draws, seed, rep, ws, tap);
    case PlanKind::synchronous: return evaluate_synchronous(plan, draws, seed, rep, ws, TapRef{&tap});
    case PlanKind::neighbor_sequential:
    case PlanKind::neighbor_plain: return evaluate_neighbor(plan, draws, seed, rep, ws, TapRef{&tap});
    case PlanKind::task_pool: {
      const double makespan = evaluate_task_pool(plan, draws, seed, rep, ws, TapRef{&tap});
      // A processor that ran fewer tasks than its share: its next variates complete the sum.
      if (tap.sums)
        for (int i = 0; i < plan.width; ++i)
          for (std::uint64_t k = ws.counts[i]; k < spec.sum_counts[i]; ++k) tap.sums[i] += draws[i](ws.streams[i]);
      return makespan;
    }
    case PlanKind::dag:
    case PlanKind::protocol: break;
  }
  throw std::logic_error("evaluate_controls: not a regular plan");
}

// A protocol's controls from the draws it logged: processor i's j-th draw is the j-th variate of
// its stream (its task of level j for sync and nn). Where a control needs variates the protocol
// did not draw (a pool's processor that ran fewer tasks than its share), they come from the
// stream where the protocol left it: the same variates as drawing the streams again from their
// start, and the same sums in the same order, so the same bits. Level j's maximum is exact in any
// order, and the maxima are added up in level order. With `levels_out`, each processor's first
// plan.levels variates are also kept there, a row per processor (the surrogate's task times).
template <class Draw>
void protocol_controls(const Plan& plan, const Draw* draws, const ControlSpec& spec, Workspace& ws, double* controls,
                       double* levels_out) {
  const std::size_t sums = spec.sum_counts.size();
  const std::size_t pairs = spec.neighbor_maxima() ? sums - 1 : 0;
  if (pairs && !levels_out) {  // the neighbours' maxima read the task times by level
    ws.level_rows.resize(sums * static_cast<std::size_t>(plan.levels));
    levels_out = ws.level_rows.data();
  }
  const std::uint64_t levels = spec.level_max || levels_out ? static_cast<std::uint64_t>(plan.levels) : 0;
  double* maxima = nullptr;
  if (spec.level_max) {
    ws.level_maxima.assign(levels, minus_infinity);
    maxima = ws.level_maxima.data();
  }
  std::uint64_t* drawn = ws.counts.data();
  const std::uint64_t* limit = spec.sum_counts.data();
  const double* centre = plan.comm.mean_task_time.data();  // the reflected twin's means are the same
  double* squares = spec.powers() ? controls + spec.powers_at() : nullptr;
  double* cubes = spec.max_power >= 3 ? squares + sums : nullptr;
  auto take = [&](int i, double x) {
    const std::uint64_t j = drawn[i]++;
    if (j < (sums ? limit[i] : 0)) {
      controls[i] += x;
      if (squares) {
        const double d = x - centre[i], d2 = d * d;
        squares[i] += d2;
        if (cubes) cubes[i] += d2 * d;
      }
    }
    if (j < levels) {
      if (maxima) maxima[j] = std::max(maxima[j], x);
      if (levels_out) levels_out[static_cast<std::size_t>(i) * levels + j] = x;
    }
  };
  // The log by runs of one processor's draws (the nearest-neighbour protocols log theirs 32 at a
  // time): its sums then stay in registers over a run instead of going through memory at each
  // draw, a store-to-load chain that took most of this function's time (6% of an nn cv run, 2%
  // now). The same additions in the same order: the same bits.
  auto take_run = [&](int i, const double* x, std::size_t count) {
    const std::uint64_t j0 = drawn[i];
    drawn[i] += count;
    const std::uint64_t summed = std::min<std::uint64_t>(count, j0 < (sums ? limit[i] : 0) ? limit[i] - j0 : 0);
    if (summed) {
      double sum = controls[i];
      for (std::size_t k = 0; k < summed; ++k) sum += x[k];
      controls[i] = sum;
      if (squares) {
        const double c = centre[i];
        double s2 = squares[i], s3 = cubes ? cubes[i] : 0.0;
        for (std::size_t k = 0; k < summed; ++k) {
          const double d = x[k] - c, d2 = d * d;
          s2 += d2;
          s3 += d2 * d;
        }
        squares[i] = s2;
        if (cubes) cubes[i] = s3;
      }
    }
    const std::uint64_t kept = std::min<std::uint64_t>(count, j0 < levels ? levels - j0 : 0);
    if (maxima)
      for (std::size_t k = 0; k < kept; ++k) maxima[j0 + k] = std::max(maxima[j0 + k], x[k]);
    if (levels_out) std::copy(x, x + kept, levels_out + static_cast<std::size_t>(i) * levels + j0);
  };
  const DrawLog& log = ws.log;
  if (plan.structure == structures::StructureKind::nearest_neighbor) {
    for (std::size_t t = 0, size = log.value.size(); t < size;) {
      const int i = log.processor[t];
      std::size_t end = t + 1;
      while (end < size && log.processor[end] == i) ++end;
      take_run(i, log.value.data() + t, end - t);
      t = end;
    }
  } else {  // the other protocols log one draw at a time, alternating between processors
    for (std::size_t t = 0; t < log.value.size(); ++t) take(log.processor[t], log.value[t]);
  }
  for (int i = 0; i < plan.width; ++i) {
    const std::uint64_t need = std::max(sums ? limit[i] : 0, levels);
    while (drawn[i] < need) take(i, draws[i](ws.streams[i]));
  }
  if (maxima) {
    double total = 0.0;
    for (std::uint64_t k = 0; k < levels; ++k) total += maxima[k];
    controls[sums] = total;
  }
  if (pairs) {
    // Level by level along the rows: pairs (i, i+1), then triples (i, i+1, i+2).
    double* neighbors = controls + spec.neighbors_at();
    double* triples = neighbors + pairs;
    const std::size_t width = static_cast<std::size_t>(levels);
    for (std::size_t i = 0; i < pairs; ++i) {
      const double* a = levels_out + i * width;
      const double* b = a + width;
      const double* c = i + 1 < pairs ? b + width : nullptr;
      double pair = 0.0, triple = 0.0;
      for (std::size_t k = 0; k < width; ++k) {
        const double m = std::max(a[k], b[k]);
        pair += m;
        if (c) triple += std::max(m, c[k]);
      }
      neighbors[i] = pair;
      if (c) triples[i] = triple;
    }
  }
  // Draw N-1-j, less its processor's mean (0 where the protocol made fewer draws: still mean 0,
  // since whether draw t exists is decided before it is drawn).
  double* last = controls + spec.last_draws_at();
  const std::uint64_t total_draws = plan.compute_tasks();
  for (std::size_t j = 0; j < spec.last_draws; ++j) {
    const std::uint64_t t = total_draws - 1 - j;
    last[j] = t < log.value.size() ? log.value[t] - centre[log.processor[t]] : 0.0;
  }
  // Each dealing logged (the protocol logs from draw N - dealing_draws on): V~(x) - E V~(X).
  if (spec.dealing_draws) {
    double* dealt = controls + spec.dealing_at();
    const auto& laws = spec.dealing->laws();
    bounds::Dealing d;
    d.service = spec.dealing->service();
    for (const DrawLog::Dealing& r : log.dealings) {
      const std::uint64_t j = total_draws - 1 - r.draw;
      if (r.draw >= log.value.size() || j >= spec.dealing_draws) continue;
      d.start = r.start;
      d.processor = r.processor;
      d.law = &laws[spec.dealing_law[static_cast<std::size_t>(r.processor)]];
      d.remaining = static_cast<int>(std::min<std::int64_t>(r.remaining, std::numeric_limits<int>::max()));
      d.settled = r.settled;
      d.line.clear();
      for (std::size_t i = r.line_begin; i < r.line_end; ++i)
        d.line.push_back({log.line[i].ready, log.line[i].processor, &laws[spec.dealing_law[static_cast<std::size_t>(log.line[i].processor)]]});
      dealt[j] = (*spec.dealing)(d, log.value[r.draw]).control;
    }
  }
}

}  // namespace

double evaluate_controls(const Plan& plan, const ControlSpec& spec, std::uint64_t seed, std::uint64_t rep,
                         Workspace& ws, double* controls, double* task_times) {
  if (task_times && plan.kind != PlanKind::protocol)
    throw std::logic_error("evaluate_controls: task times are kept for protocol plans only");
  if (plan.slowed()) throw std::logic_error("evaluate_controls: the controls assume independent task times (no slowdowns)");
  if (spec.size() == 0 && !task_times) return evaluate(plan, seed, rep, ws);
  if (spec.max_power > 3 || ((spec.powers() || spec.neighbor_maxima()) && plan.kind != PlanKind::protocol))
    throw std::logic_error("evaluate_controls: powers (up to 3) and neighbours' maxima come from a protocol's draws only");
  const std::size_t sums = spec.sum_counts.size();
  std::fill(controls, controls + spec.size(), 0.0);
  ws.counts.assign(plan.width, 0);
  ControlTap tap{sums ? controls : nullptr, spec.sum_counts.data(), ws.counts.data(),
                 spec.level_max ? controls + sums : nullptr};
  if (plan.kind == PlanKind::dag) {
    // Each processor's busy time is the sum of all its tasks (sum_counts counts them).
    std::fill(ws.busy.begin(), ws.busy.end(), 0.0);
    const double makespan = evaluate_dag(plan, seed, rep, ws, ws.busy.data());
    std::copy(ws.busy.begin(), ws.busy.begin() + static_cast<std::ptrdiff_t>(sums), controls);
    return makespan;
  }
  if (plan.kind == PlanKind::protocol) {
    // The controls read the protocol's own draws: no second pass of draws (a normal variate
    // costs about as much as the rest of a control's work).
    ws.log.clear();
    ws.log.dealing_from = spec.dealing_draws ? static_cast<std::size_t>(plan.compute_tasks() - spec.dealing_draws)
                                             : static_cast<std::size_t>(-1);
    const double makespan = evaluate_protocol(plan, seed, rep, ws, nullptr, &ws.log);
    if (!plan.uniform_draws.empty()) protocol_controls(plan, plan.uniform_draws.data(), spec, ws, controls, task_times);
    else if (!plan.normal_draws.empty()) protocol_controls(plan, plan.normal_draws.data(), spec, ws, controls, task_times);
    else protocol_controls(plan, plan.samplers.data(), spec, ws, controls, task_times);
    return makespan;
  }
  if (!plan.uniform_draws.empty()) return evaluate_regular_controls(plan, plan.uniform_draws.data(), spec, seed, rep, ws, tap);
  if (!plan.normal_draws.empty()) return evaluate_regular_controls(plan, plan.normal_draws.data(), spec, seed, rep, ws, tap);
  return evaluate_regular_controls(plan, plan.samplers.data(), spec, seed, rep, ws, tap);
}

}  // namespace hetstruct::engine
