#include "engine/sweep/sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>

#include "bounds/structure_bounds.h"
#include "distributions/format.h"
#include "distributions/law.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/resources.h"
#include "engine/simulate/simulation.h"
#include "structures/structure.h"
#include "structures/schedule.h"

namespace hetstruct::engine {

InvalidConfiguration::InvalidConfiguration(const SweepConfig& c, std::string comparison, const InputError& cause)
    : InputError("sweep", "configuration " + describe(c) + ": " + (comparison.empty() ? "" : "compare_to " + comparison + ": ") + cause.what(),
                 "or skip_invalid"),
      configuration_(describe(c)), comparison_(std::move(comparison)), cause_(cause) {}

namespace {

// A configuration built and compiled with one level: what ran (the rows' columns) and what the
// model is, column by column, for telling whether a comparison changes it.
struct Validated {
  SweepConfig ran;     // the protocol by its name where one runs, the exchange where it applies (nn at C = 0)
  SweepColumns model;  // ran with the policy only where tasks are dealt (ms: its default named), C only
                      // where messages may travel (not async), a only where it scales fast processors
                      // (m > 0, no fast_law), fast_law only at m > 0, and for a graph its machine (the
                      // processors' scales, in the a column; none: equal) instead of m and a, and its
                      // port and C only where a message travels
};

Validated validate_model(const SweepConfig& c, const GraphSettings& graph) {
  Model m = to_model(c, graph);
  m.levels = 1;
  const structures::Structure s = m.build();
  const Plan plan = compile(s, m.compile_options());
  Validated v;
  SweepConfig& ran = v.ran;
  ran = c;
  ran.protocol = plan.kind == PlanKind::protocol ? plan.protocol->name : "";
  if (!m.graph.empty()) {  // a graph's port model, named even at C = 0, and none of the regular columns
    ran.protocol = c.protocol.empty() ? "free" : c.protocol;
    ran.law.clear();
    ran.levels.reset();
  }
  const bool exchange = plan.kind == PlanKind::neighbor_sequential || plan.kind == PlanKind::neighbor_plain;
  if (!exchange) ran.exchange.reset();
  SweepColumns& model = v.model;
  model = ran.columns();
  model[SweepDim::policy] = !plan.pool() ? "" : to_string(c.policy.value_or(DealingPolicy::dynamic));
  if (!m.graph.empty()) {
    std::string scales;
    if (std::any_of(s.processor_scale.begin(), s.processor_scale.end(), [](double a) { return a != 1.0; }))
      for (const double a : s.processor_scale) scales += (scales.empty() ? "" : ";") + distributions::format_exact(a);
    model[SweepDim::m] = "";
    model[SweepDim::a] = scales;
    // No message travels (C = 0 and no edge law, or no edge across processors): the port model
    // and C change nothing.
    if (plan.messages.empty()) model[SweepDim::protocol] = model[SweepDim::comm] = "";
  } else {
    if (m.fast_count == 0) model[SweepDim::fast_law] = "";
    if (m.fast_count == 0 || m.fast_law) model[SweepDim::a] = "";
    if (s.kind == structures::StructureKind::asynchronous) model[SweepDim::comm] = "";
    // At C = 0 messages take no time: every synchronous protocol is the level barrier, bit for bit.
    if (s.kind == structures::StructureKind::synchronous && m.comm.value == 0.0) model[SweepDim::protocol] = "";
  }
  return v;
}

// Why a comparison whose target differs from `c` leaves its model as it is (`base`, `target`:
// their Validated::model), or nothing when it changes it.
std::optional<std::string> no_effect(const Comparison& cmp, const SweepConfig& c, const SweepConfig& t,
                                     const SweepColumns& base, const SweepColumns& target) {
  const bool graph = is_graph(c.structure);
  // On a graph, a at m = 0 would compare with equal processors under another name: a = 1 says so.
  if (graph && cmp.sets(SweepDim::a) && t.m == 0 && t.a.value != 1.0)
    return std::string("names no machine: it sets a, the scale of the m fast processors, and m is 0 (give m=M,a=A for M "
                       "processors at A, or m=0 or a=1 for equal processors)");
  if (t == c || base != target) return std::nullopt;
  const auto sets = [&](std::size_t d) { return cmp.sets(d) && t.column(d) != c.column(d); };
  const std::string same = "would not change the model: it ";
  if (graph && (sets(SweepDim::protocol) || sets(SweepDim::comm)))
    return same + "sets the port model or C, and no message travels on this graph (no edge crosses processors "
                  "with a time: C = 0 and no edge law)";
  if (sets(SweepDim::exchange)) return same + "sets the exchange, which applies to nn at C = 0 only";
  if (sets(SweepDim::protocol)) return same + "sets the protocol, and at C = 0 every synchronous protocol is the level barrier";
  if (sets(SweepDim::comm)) return same + "sets C, and the asynchronous structure has no communication";
  if (sets(SweepDim::fast_law) || sets(SweepDim::a))
    return same + (t.m == 0 ? "sets the fast processors' law or scale, and m is 0"
                                         : "sets a, and fast_law replaces a * law on the fast processors");
  return same + "leaves every option the model uses as it is";
}

// The entry of a configuration that builds: its comparisons' targets, or none where they cannot be.
// `reasons`: per comparison, why it had no effect on a configuration (the first one).
Entry make_entry(const SweepConfig& c, const Validated& v, const std::vector<Comparison>& comparisons,
                 bool skip_invalid, const std::shared_ptr<const GraphSettings>& graph, SweepEntries& out,
                 std::vector<std::string>& reasons) {
  Entry entry;
  entry.c = c;
  entry.ran = v.ran;
  if (is_graph(c.structure)) entry.graph = graph;
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    const Comparison& cmp = comparisons[i];
    entry.target_graphs.push_back(entry.graph);
    if (!cmp.applies_to(c)) {
      ++out.not_applicable;
      entry.targets.emplace_back();
      continue;
    }
    try {
      const SweepConfig t = cmp.target(c);
      if (const auto& choice = cmp.schedule()) {  // the same configuration under another schedule
        auto settings = std::make_shared<GraphSettings>(*graph);
        apply_schedule_choice(*choice, settings->task_graph, settings->processor_scales);
        entry.target_graphs.back() = std::move(settings);
      } else if (entry.graph && (cmp.sets(SweepDim::m) || cmp.sets(SweepDim::a))) {
        auto settings = std::make_shared<GraphSettings>(*graph);
        settings->wilson_machine = true;
        entry.target_graphs.back() = std::move(settings);
      }
      const Validated tv = validate_model(t, entry.target_graphs.back() ? *entry.target_graphs.back() : *graph);
      if (const auto why = no_effect(cmp, c, t, v.model, tv.model)) {
        ++out.no_effect;
        if (reasons[i].empty()) reasons[i] = *why;
        entry.targets.emplace_back();
        continue;
      }
      entry.targets.emplace_back(t);
    } catch (const InputError& e) {
      if (!skip_invalid) throw InvalidConfiguration(c, cmp.label(), e);
      ++out.comparisons_left_out;
      entry.targets.emplace_back();
    }
  }
  return entry;
}

// A replication's estimated time (engine/driver/resources.h): event-driven protocols cost ~30 times a loop
// plan per task, so the ranks' shares are weighed by time, not by tasks.
double tasks(const SweepConfig& c) {
  if (is_graph(c.structure)) return run_seconds(PlanKind::dag, 1000.0, 1.0, 1);  // a rough weight
  const double count = static_cast<double>(c.n.value_or(0)) * c.levels.value_or(0);
  const auto kind = structures::parse_structure_kind(c.structure);
  const bool comm = c.comm.value > 0.0;
  PlanKind plan = PlanKind::synchronous;
  if (comm && kind != structures::StructureKind::asynchronous) plan = PlanKind::protocol;
  else if (kind == structures::StructureKind::master_slave) plan = PlanKind::task_pool;
  else if (kind == structures::StructureKind::nearest_neighbor) plan = PlanKind::neighbor_sequential;
  return run_seconds(plan, count, 1.0, 1);
}


}  // namespace

SweepEntries build_entries(const SweepGrid& grid, const std::vector<Comparison>& comparisons, bool skip_invalid) {
  return build_entries(std::vector<SweepGrid>{grid}, comparisons, skip_invalid);
}

SweepEntries build_entries(const std::vector<SweepGrid>& grids, const std::vector<Comparison>& comparisons,
                           bool skip_invalid) {
  return build_entries(grids, comparisons, skip_invalid, GraphSettings{});
}

SweepEntries build_entries(const std::vector<SweepGrid>& grids, const std::vector<Comparison>& comparisons,
                           bool skip_invalid, const GraphSettings& settings) {
  const auto graph = std::make_shared<const GraphSettings>(settings);  // one copy, shared by the graphs' entries
  // A schedule comparison needs the graphs' schedule, and another one.
  for (const Comparison& cmp : comparisons) {
    const auto& choice = cmp.schedule();
    if (!choice) continue;
    const auto& own = settings.task_graph.schedule;
    if (!own)
      throw InputError("compare_to", "'" + cmp.label() + "' compares each graph's schedule with " + choice->name() +
                                         ", and no schedule is set",
                       "give the schedule (" + structures::schedule_names() + ") to compare it with");
    if (*choice == ScheduleChoice(own->algorithm))
      throw InputError("compare_to", "'" + cmp.label() + "' compares the schedule " + choice->name() + " with itself",
                       "compare it with another algorithm");
  }
  SweepEntries out;
  std::vector<std::string> reasons(comparisons.size());
  for (const auto& grid : grids)
    for (std::uint64_t i = 0; i < grid.size(); ++i) {
      const SweepConfig c = grid.at(i);
      Validated v;
      try {
        v = validate_model(c, *graph);
      } catch (const InputError& e) {
        if (!skip_invalid) throw InvalidConfiguration(c, "", e);
        ++out.invalid;
        continue;
      }
      out.entries.push_back(make_entry(c, v, comparisons, skip_invalid, graph, out, reasons));
      out.entries.back().row = out.entries.size() - 1;
    }
  if (out.entries.empty()) throw InputError("sweep", "no configuration of the grid can be built");
  for (std::size_t k = 0; k < comparisons.size(); ++k) {
    const Comparison& cmp = comparisons[k];
    if (std::none_of(out.entries.begin(), out.entries.end(), [&cmp](const Entry& e) { return cmp.applies_to(e.c); })) {
      if (cmp.schedule())
        throw InputError("compare_to", "'" + cmp.label() + "' compares graphs' schedules, and no configuration is a graph",
                         "give graphs, or compare the structures on their options (m=0, ...)");
      throw InputError("compare_to", "'" + cmp.label() + "' has no meaning for a graph: its width, laws and levels are its file's",
                       "compare graphs on m, a, comm or port");
    }
    // A comparison that changes no configuration's model would give differences of 0 by doing nothing.
    if (!reasons[k].empty() && std::none_of(out.entries.begin(), out.entries.end(), [k](const Entry& e) {
          return e.targets[k].has_value();
        }))
      throw InputError("compare_to", "'" + cmp.label() + "' " + reasons[k]);
  }
  return out;
}

std::optional<MeanEstimator> mean_estimator(Estimator requested, const StopRule& stop, bool distribution, bool slowdowns) {
  if (slowdowns && requested != Estimator::mc && requested != Estimator::automatic)
    throw InputError("estimator", std::string(to_string(requested)) + ": " + slowdown_reason,
                     "with slowdowns only plain Monte Carlo (mc) applies");
  if (slowdowns) requested = Estimator::mc;  // auto: nothing but mc applies
  if (requested == Estimator::exact)
    throw InputError("estimator", "a sweep simulates every configuration's mean; the exact expectation is its closed_form row",
                     "choose auto, cv, antithetic, antithetic-cv or mc");
  if (distribution) {
    if (requested != Estimator::mc && requested != Estimator::automatic)
      throw InputError("estimator", "the distribution's rows (quantile, sd, p_deadline) read plain replications: mc only");
    if (stop.active())
      throw InputError("target_se", "the distribution's rows (quantile, sd, p_deadline) run a fixed number of replications (no target precision)");
    return std::nullopt;
  }
  if (requested == Estimator::mc && !stop.active()) return std::nullopt;
  return MeanEstimator{requested, stop};
}

// Lays out the runs of the entries, in order: per configuration, its shape's C = 0 run if it is
// the first of the shape, then one difference per comparison, then mc.
std::vector<RunSpec> plan_runs(std::vector<Entry>& entries, const std::optional<MeanEstimator>& mean) {
  std::vector<RunSpec> runs;
  std::map<std::string, std::size_t> nn_zero_of_shape;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    Entry& e = entries[k];
    // The C = 0 run feeds Eq. 12's bounds, which assume independent task times: none under slowdowns.
    const bool slowed = !e.c.slowdown.empty() || !e.c.machine_slowdown.empty();
    if (!slowed && !is_graph(e.c.structure) &&
        structures::parse_structure_kind(e.c.structure) == structures::StructureKind::nearest_neighbor) {
      SweepConfig shape = e.c;
      shape.comm = {};
      shape.protocol.clear();
      shape.policy.reset();
      const auto [it, added] = nn_zero_of_shape.emplace(config_key(shape), runs.size());
      if (added) runs.push_back({RunKind::nn_zero, k, 0, tasks(e.c), std::nullopt});
      e.nn_zero_run = it->second;
    }
    e.difference_runs.assign(e.targets.size(), no_run);
    for (std::size_t i = 0; i < e.targets.size(); ++i) {
      if (!e.targets[i]) continue;
      e.difference_runs[i] = runs.size();
      runs.push_back({RunKind::difference, k, i, tasks(e.c) + tasks(*e.targets[i]), std::nullopt});
    }
    e.mc_run = runs.size();
    runs.push_back({RunKind::mc, k, 0, tasks(e.c), mean});
  }
  return runs;
}

std::uint64_t blocks_of(const RunSpec& run, std::uint64_t reps) { return run.whole ? 1 : block_count(reps); }

double block_work(const RunSpec& run, std::uint64_t reps) {
  return run.whole ? run.work * static_cast<double>(block_count(reps)) : run.work;
}

std::vector<std::pair<std::uint64_t, double>> run_work(const std::vector<RunSpec>& runs, std::uint64_t reps) {
  std::vector<std::pair<std::uint64_t, double>> work;
  for (const auto& r : runs) work.emplace_back(blocks_of(r, reps), block_work(r, reps));
  return work;
}

std::vector<std::vector<SweepPiece>> deal_blocks(const std::vector<std::pair<std::uint64_t, double>>& runs, int ranks) {
  if (ranks < 1) throw std::invalid_argument("deal_blocks: no rank");
  std::vector<std::vector<SweepPiece>> pieces(static_cast<std::size_t>(ranks));
  long double total = 0;
  for (const auto& [blocks, work] : runs) {
    if (!(work > 0.0) || !std::isfinite(work)) throw std::invalid_argument("deal_blocks: a run's work must be > 0");
    total += static_cast<long double>(blocks) * work;
  }
  int r = 0;
  auto cut_after = [&](int rank) { return total * (rank + 1) / ranks; };  // where rank's stretch ends
  long double cut = cut_after(0), start = 0;  // start: where the current run begins
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto [blocks, work] = runs[i];
    std::uint64_t b = 0;
    while (b < blocks) {
      // Rank r takes the blocks that begin before its cut.
      std::uint64_t end = blocks;
      if (r < ranks - 1) {
        const long double x = std::ceil((cut - start) / work);  // the first block that begins at or after the cut
        end = x <= static_cast<long double>(b) ? b : x >= static_cast<long double>(blocks) ? blocks : static_cast<std::uint64_t>(x);
      }
      if (end > b) {
        pieces[static_cast<std::size_t>(r)].push_back({i, b, end});
        b = end;
      }
      if (b < blocks) cut = cut_after(++r);
    }
    start += static_cast<long double>(blocks) * work;
  }
  return pieces;
}

// Computes a piece of a run. A piece from block 0 is folded here (the fold's state after its
// blocks); any other keeps its blocks, to be folded after the pieces before it.
BlockPiece compute_piece(const SweepPiece& piece, const RunSpec& spec, const Entry& entry, Job& job,
                         const RunOptions& options, bool keep_makespans, SurrogateMeans* surrogates) {
  BlockPiece out{piece.run, piece.first, piece.last, {}, {}, {}, std::nullopt};
  const bool folded = piece.first == 0;
  Accumulator total;
  PairedMoments paired_total;
  const auto keep = [&](const Accumulator& b) {
    if (folded) total.merge(b);
    else out.blocks.push_back(b);
  };
  const BlockRange range{piece.first, piece.last};
  switch (spec.kind) {
    case RunKind::nn_zero:
      run_blocks(job.nn_zero(), options, range, [&](std::span<const Accumulator> blocks) {
        for (const auto& b : blocks) keep(b);
      });
      break;
    case RunKind::difference: {
      // The differences are run_difference_blocks()'s bits; the moments give the ratio.
      const auto take = [&](const PairedBlock& b) {
        keep(b.difference);
        if (folded) paired_total.merge(b.moments);
        else out.paired.push_back(b.moments);
      };
      if (keep_makespans)  // the same blocks with both makespans of each replication, for the paired rows
        run_paired_sample_blocks(job.plan, job.base(entry, spec.comparison), options, range,
                                 [&](std::span<const PairedSampleBlock> blocks) {
                                   for (const auto& b : blocks) {
                                     take(b.paired);
                                     out.makespans.insert(out.makespans.end(), b.values.begin(), b.values.end());
                                   }
                                 });
      else
        run_paired_blocks(job.plan, job.base(entry, spec.comparison), options, range,
                          [&](std::span<const PairedBlock> blocks) {
                            for (const auto& b : blocks) take(b);
                          });
      if (folded) out.paired = {paired_total};
      break;
    }
    case RunKind::mc:
      if (spec.whole) {
        if (piece.first != 0 || piece.last != 1) throw std::logic_error("compute_piece: a run estimated whole is one piece");
        EstimatorSetup& setup = job.setup();
        if (surrogates) {  // one estimate of the surrogate's mean per configuration with C left out
          SweepConfig shape = entry.c;
          shape.comm = {};
          share_surrogate_mean(setup, spec.whole->estimator, (*surrogates)[config_key(shape)], options, spec.whole->stop);
        }
        out.estimated = estimate_mean(job.plan, setup, spec.whole->estimator, options, spec.whole->stop);
        return out;
      }
      if (keep_makespans)
        run_sample_blocks(job.plan, options, range, [&](std::span<const SampleBlock> blocks) {
          for (const auto& b : blocks) {
            keep(b.stats);
            out.makespans.insert(out.makespans.end(), b.values.begin(), b.values.end());
          }
        });
      else
        run_blocks(job.plan, options, range, [&](std::span<const Accumulator> blocks) {
          for (const auto& b : blocks) keep(b);
        });
      break;
  }
  if (folded) out.blocks = {total};
  return out;
}

double SweepShare::work(const std::vector<RunSpec>& runs, std::uint64_t reps) const {
  double w = 0.0;
  for (const auto& p : pieces) w += static_cast<double>(p.last - p.first) * block_work(runs[p.run], reps);
  return w;
}

bool keeps_pairs(const DistributionOptions& distribution) {
  return !distribution.quantile_levels.empty() || !distribution.deadlines.empty();
}

PairedDistribution describe_pairs(std::vector<double>& interleaved, const DistributionOptions& distribution,
                                  const RunOptions& run) {
  std::vector<double> a(interleaved.size() / 2), b(interleaved.size() / 2);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = interleaved[2 * i];
    b[i] = interleaved[2 * i + 1];
  }
  std::vector<double>().swap(interleaved);
  return describe_paired(a, b, distribution, run);
}

void SweepShare::compute(const std::vector<Entry>& entries, const std::vector<RunSpec>& runs, std::size_t comparisons,
                         RunOptions options) {
  // Interruptible as a whole: a stop between two configurations keeps those complete (the
  // caller's checkpoint), as one inside a configuration's replications does.
  const CooperativeStop cooperative;
  estimates.assign(runs.size(), Estimate{});
  extras.assign(runs.size(), RunExtras{});
  const bool keep_makespans = distribution.any(), keep_pairs = keeps_pairs(distribution);
  std::vector<std::size_t> pieces_left(entries.size(), 0);  // per configuration, its pieces here
  for (const auto& p : pieces) ++pieces_left[runs[p.run].entry];
  double done = 0.0;
  std::optional<Job> job;
  std::size_t job_entry = no_run;
  for (const SweepPiece& piece : pieces) {
    throw_if_interrupted();
    const RunSpec& spec = runs[piece.run];
    const Entry& entry = entries[spec.entry];
    if (job_entry != spec.entry) {  // a share's pieces come configuration after configuration
      job.emplace(entry, comparisons);
      job_entry = spec.entry;
    }
    const double w = static_cast<double>(piece.last - piece.first) * block_work(spec, options.reps);
    options.progress = [&, w](std::uint64_t d, std::uint64_t t) {
      if (progress) progress(done + w * static_cast<double>(d) / static_cast<double>(t));
    };
    const bool keep = spec.kind == RunKind::difference ? keep_pairs : keep_makespans;
    BlockPiece result = compute_piece(piece, spec, entry, *job, options, keep, &surrogates);
    done += w;
    if (result.estimated) {
      estimates[piece.run] = result.estimated->estimate;
      extras[piece.run].estimator = result.estimated;
    } else if (piece.first == 0 && piece.last == block_count(options.reps)) {
      estimates[piece.run] = summarize(result.blocks.front());
      if (!result.paired.empty()) extras[piece.run].ratio = ratio_of_means(result.paired.front());
      if (!keep_pieces && spec.kind == RunKind::mc && keep_makespans)
        extras[piece.run].distribution = describe_distribution(result.makespans, distribution);
      if (!keep_pieces && spec.kind == RunKind::difference && keep_pairs) {
        RunOptions bootstrap = options;
        bootstrap.progress = nullptr;
        extras[piece.run].paired = describe_pairs(result.makespans, distribution, bootstrap);
      }
    }
    if (keep_pieces) computed.push_back(std::move(result));
    if (--pieces_left[spec.entry] == 0) {
      if (entry_done) entry_done(entry, *job);
      if (!keep_pieces) extras[entry.mc_run].distribution.reset();  // its rows are made: keep memory bounded
    }
    if (progress) progress(done);
  }
}

// Every run's estimate from its pieces (any order, from any ranks): each run's pieces folded in
// block order into an empty total, fold_blocks, so the estimate is one process's bit for bit.
std::vector<Estimate> fold_pieces(std::vector<BlockPiece>& pieces, const std::vector<RunSpec>& specs, std::uint64_t reps,
                                  std::vector<RunExtras>* extras, const DistributionOptions& distribution,
                                  const RunOptions* run) {
  const std::size_t runs = specs.size();
  std::sort(pieces.begin(), pieces.end(),
            [](const BlockPiece& x, const BlockPiece& y) { return std::tie(x.run, x.first) < std::tie(y.run, y.first); });
  std::vector<Accumulator> totals(runs);
  std::vector<PairedMoments> paired(runs);
  std::vector<std::vector<double>> makespans(runs);
  std::vector<std::uint64_t> next(runs, 0);
  std::vector<std::optional<EstimatorResult>> estimated(runs);
  for (auto& p : pieces) {
    const std::uint64_t expected = p.estimated ? 0 : p.first == 0 ? 1 : p.last - p.first;
    if (p.run >= runs || p.first != next[p.run] || p.last <= p.first || p.blocks.size() != expected ||
        (!p.paired.empty() && p.paired.size() != expected) || p.estimated.has_value() != specs[p.run].whole.has_value())
      throw std::runtime_error("sweep: the gathered blocks of run " + std::to_string(p.run) + " do not follow on");
    estimated[p.run] = p.estimated;
    fold_blocks(totals[p.run], std::span<const Accumulator>(p.blocks));
    fold_blocks(paired[p.run], std::span<const PairedMoments>(p.paired));
    auto& sample = makespans[p.run];
    sample.insert(sample.end(), p.makespans.begin(), p.makespans.end());
    std::vector<double>().swap(p.makespans);
    next[p.run] = p.last;
  }
  std::vector<Estimate> estimates(runs);
  if (extras) extras->assign(runs, RunExtras{});
  for (std::size_t i = 0; i < runs; ++i) {
    if (next[i] != blocks_of(specs[i], reps)) throw std::runtime_error("sweep: blocks of run " + std::to_string(i) + " are missing");
    estimates[i] = estimated[i] ? estimated[i]->estimate : summarize(totals[i]);
    if (!extras) continue;
    (*extras)[i].estimator = estimated[i];
    if (paired[i].count > 0) (*extras)[i].ratio = ratio_of_means(paired[i]);
    if (!makespans[i].empty() && specs[i].kind == RunKind::difference) {  // pairs, interleaved
      if (makespans[i].size() != 2 * totals[i].count)
        throw std::runtime_error("sweep: the gathered makespans of run " + std::to_string(i) + " are incomplete");
      if (!run) throw std::logic_error("fold_pieces: a difference run's paired rows need the run's seed");
      RunOptions bootstrap = *run;
      bootstrap.progress = nullptr;
      (*extras)[i].paired = describe_pairs(makespans[i], distribution, bootstrap);
    } else if (!makespans[i].empty()) {
      if (makespans[i].size() != totals[i].count)
        throw std::runtime_error("sweep: the gathered makespans of run " + std::to_string(i) + " are incomplete");
      (*extras)[i].distribution = describe_distribution(makespans[i], distribution);
      std::vector<double>().swap(makespans[i]);
    }
  }
  return estimates;
}

Job::Job(const SweepConfig& c, std::size_t comparisons) : Job(c, comparisons, nullptr) {}

Job::Job(const Entry& entry, std::size_t comparisons) : Job(entry.c, comparisons, entry.graph) {}

Job::Job(const SweepConfig& c, std::size_t comparisons, std::shared_ptr<const GraphSettings> settings)
    : model(to_model(c, settings ? *settings : GraphSettings{})),
      s(model.build()),
      plan(compile(s, model.compile_options())),
      bases(comparisons),
      graph(std::move(settings)) {}

const Plan& Job::base(const Entry& entry, std::size_t i) {
  if (!bases[i]) {
    const auto& settings = i < entry.target_graphs.size() ? entry.target_graphs[i] : graph;
    const Model other = to_model(*entry.targets[i], settings ? *settings : GraphSettings{});
    bases[i].emplace(compile(other.build(), other.compile_options()));
  }
  return *bases[i];
}

const Plan& Job::nn_zero() {
  if (!nn_zero_plan) nn_zero_plan.emplace(compile(s));
  return *nn_zero_plan;
}

EstimatorSetup& Job::setup() {
  if (!estimators) {
    if (plan.slowed()) {  // no control or twin: they assume independent task times (as simulate's prepare)
      estimators.emplace();
      estimators->no_twin = slowdown_reason;
    } else {
      estimators.emplace(estimator_setup(s, plan, std::nullopt, ""));
    }
  }
  return *estimators;
}

namespace {

// One row: the configuration's columns, then the estimator's; `e` gives the statistics of a
// simulated value (none for closed forms and bounds).
// `variance_factor`: the mean row's; NaN on the others (left empty).
// With slowdowns, every row names their laws (canonical, as simulate's records), after variance_factor.
Record sweep_record(const SweepConfig& c, const std::string& estimator, const std::string& method,
                    const std::string& compare_to, double value, const Estimate* e, std::uint64_t seed,
                    double variance_factor = std::nan(""), const Slowdown& slowdown = {}) {
  Record r;
  for (std::size_t d = 0; d < SweepDim::count; ++d) r.add(sweep_dimensions[d], c.column(d));
  r.add("estimator", estimator).add("method", method).add("compare_to", compare_to).add("value", value);
  if (!e) r.add_none("stderr").add_none("ci_low").add_none("ci_high").add_none("reps").add_none("seed");
  else r.add("stderr", e->stderr_).add("ci_low", e->ci_low).add("ci_high", e->ci_high).add("reps", e->reps).add("seed", seed);
  if (std::isnan(variance_factor)) r.add_none("variance_factor");
  else r.add("variance_factor", variance_factor);
  if (slowdown.any()) {
    if (!slowdown.processor.empty()) r.add("slowdown", slowdown.processor_text());
    else r.add_none("slowdown");
    if (slowdown.machine) r.add("machine_slowdown", slowdown.machine->to_string());
    else r.add_none("machine_slowdown");
  }
  return r;
}

// The statistics of a row that is not a mean: its value, standard error and interval.
Estimate with_error(std::uint64_t reps, double value, double stderr_, double ci_low, double ci_high) {
  Estimate e;
  e.reps = reps;
  e.mean = value;
  e.stderr_ = stderr_;
  e.ci_low = ci_low;
  e.ci_high = ci_high;
  return e;
}

}  // namespace

const std::vector<std::string>& sweep_columns(bool target, bool slowdowns) {
  static const std::array<std::vector<std::string>, 4> names = [] {
    const Slowdown some{{distributions::Law::constant(1.0)}, distributions::Law::constant(1.0)};
    std::array<std::vector<std::string>, 4> n;
    n[0] = sweep_record({}, "", "", "", 0.0, nullptr, 0).names();
    n[2] = sweep_record({}, "", "", "", 0.0, nullptr, 0, std::nan(""), some).names();
    for (const std::size_t k : {1, 3}) {
      n[k] = n[k - 1];
      n[k].push_back("target_met");
    }
    return n;
  }();
  return names[(slowdowns ? 2 : 0) + (target ? 1 : 0)];
}

bool has_target(const std::optional<MeanEstimator>& mean) { return mean && mean->stop.active(); }

std::string render_rows(std::span<const Record> rows, Format format, const std::vector<std::string>& columns) {
  if (format == Format::csv) return render(rows, format, columns);
  std::vector<Record> read;
  read.reserve(rows.size());
  for (const auto& r : rows) read.push_back(read_back(r));
  return render(read, format, columns);
}

std::vector<Record> config_records(const Entry& entry, const Job& job, const std::vector<Comparison>& comparisons,
                                   const std::vector<Estimate>& estimates, std::uint64_t seed,
                                   const std::vector<RunExtras>& extras, bool target) {
  std::vector<Record> rows;
  const Slowdown& slowdown = job.plan.slowdown;
  auto row = [&](const std::string& estimator, const std::string& method, const std::string& compare, double value,
                 const Estimate* e) {
    rows.push_back(sweep_record(entry.ran, estimator, method, compare, value, e, seed, std::nan(""), slowdown));
    if (target) rows.back().add_none("target_met");
  };
  const structures::Structure& s = job.s;
  const bool zero_comm = job.plan.kind != PlanKind::protocol;
  const bool paper_uniform = job.model.is_paper_uniform();
  const double a = job.model.scale.value, comm = job.model.comm.value;

  // Under slowdowns the closed forms and bounds (which assume independent task times) do not apply:
  // their rows say so, with no value, rather than print a number beside a correlated simulation.
  const bool slowed = job.plan.slowed();
  const auto independent = [&](const char* estimator, const std::string& method, double value) {
    if (slowed) row(estimator, "none_with_slowdowns", "", std::nan(""), nullptr);
    else row(estimator, method, "", value, nullptr);
  };
  if (zero_comm) {
    if (const auto closed = bounds::closed_form(s, paper_uniform, a)) independent("closed_form", closed->method, closed->value);
  }
  const double nn_zero = entry.nn_zero_run == no_run ? 0.0 : estimates[entry.nn_zero_run].mean;
  if (const auto b = bounds::comm_bounds(s, paper_uniform, a, comm, nn_zero)) {
    if (!std::isnan(b->bounds.lower)) independent("lower_bound", b->method, b->bounds.lower);
    if (!std::isnan(b->bounds.upper)) independent("upper_bound", b->method, b->bounds.upper);
  }
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    if (entry.difference_runs[i] == no_run) continue;  // its target cannot be built (skip_invalid)
    const Estimate& d = estimates[entry.difference_runs[i]];
    row("difference", "paired", comparisons[i].label(), d.mean, &d);
    if (entry.difference_runs[i] < extras.size()) {
      if (const auto& r = extras[entry.difference_runs[i]].ratio) {
        const Estimate e = with_error(r->reps, r->value, r->stderr_, r->ci_low, r->ci_high);
        row("ratio", "paired_delta", comparisons[i].label(), r->value, &e);
      }
      if (const auto& p = extras[entry.difference_runs[i]].paired) {
        for (const auto& q : p->quantiles) {
          const Estimate e = with_error(p->reps, q.value, q.stderr_, q.ci_low, q.ci_high);
          row("quantile_difference", Record().add("level", q.level).text("level"), comparisons[i].label(), q.value, &e);
        }
        for (const auto& t : p->deadlines) {
          const Estimate e = with_error(p->reps, t.value, t.stderr_, t.ci_low, t.ci_high);
          row("p_deadline_difference", Record().add("deadline", t.deadline).text("deadline"), comparisons[i].label(), t.value, &e);
        }
      }
    }
  }
  if (entry.mc_run < extras.size()) {
    if (const auto& d = extras[entry.mc_run].distribution) {
      const double none = std::nan("");
      if (d->sd_asked) {
        const Estimate e = with_error(d->reps, d->sd.value, d->sd.stderr_, d->sd.ci_low, d->sd.ci_high);
        row("sd", "sample", "", d->sd.value, &e);
      }
      for (const auto& q : d->quantiles) {
        const Estimate e = with_error(d->reps, q.value, none, q.ci_low, q.ci_high);
        row("quantile", Record().add("level", q.level).text("level"), "", q.value, &e);
      }
      for (const auto& t : d->deadlines) {
        const Estimate e = with_error(d->reps, t.p, t.stderr_, t.ci_low, t.ci_high);
        row("p_deadline", Record().add("deadline", t.deadline).text("deadline"), "", t.p, &e);
      }
    }
  }
  // The mean, last; its variance factor is measured on the run (NaN there: a zero residual, left empty).
  const Estimate& e = estimates[entry.mc_run];
  const EstimatorResult* by = entry.mc_run < extras.size() && extras[entry.mc_run].estimator ? &*extras[entry.mc_run].estimator : nullptr;
  const std::string method = zero_comm ? to_string(job.plan.kind) : job.plan.protocol ? job.plan.protocol->name : "";
  rows.push_back(sweep_record(entry.ran, by ? to_string(by->estimator) : "mc", method, "", e.mean, &e, seed,
                              by ? by->variance_factor : 1.0, slowdown));
  if (target) {
    if (by && by->target_met) rows.back().add_flag("target_met", *by->target_met);
    else rows.back().add_none("target_met");
  }
  return rows;
}

namespace {

// The estimator a mean row's estimator column names: one that samples (the other rows name what
// they are: closed_form, difference, ...; none).
std::optional<Estimator> sampling_estimator(const std::string& name) {
  try {
    const Estimator e = parse_estimator(name);
    if (e != Estimator::automatic && e != Estimator::exact) return e;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

bool parse_uint(const std::string& text, std::uint64_t& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool resumable(const std::string& written, std::uint64_t written_reps, std::uint64_t reps,
               const std::optional<MeanEstimator>& mean) {
  if (!mean) return written == "mc" && written_reps == reps;
  const auto sampled = sampling_estimator(written);
  if (!sampled) return false;
  const Estimator e = *sampled;
  if (mean->estimator != Estimator::automatic && e != mean->estimator) return false;
  const std::uint64_t evaluations = e == Estimator::antithetic || e == Estimator::antithetic_cv ? 2 * reps : reps;
  return mean->stop.active() ? written_reps <= evaluations : written_reps == evaluations;
}

std::vector<std::string> resumed_rows(const std::vector<Entry>& entries, const std::string& text,
                                      const std::string& path, std::uint64_t reps, std::uint64_t seed,
                                      const std::optional<MeanEstimator>& mean) {
  // A file written with a target has the column target_met, one without has not: either is a
  // sweep's CSV, but only a file of the same kind as this run holds rows it can keep.
  const bool target = has_target(mean);
  // With slowdowns the rows have their columns (a file without them is another sweep's), and only
  // rows of the same laws are kept.
  std::array<std::string, 2> slowdown_texts;
  if (!entries.empty()) {
    const auto& c = entries.front().c;
    slowdown_texts = {c.slowdown.empty() ? "" : Slowdown{parse_slowdown(c.slowdown).value, {}}.processor_text(),
                      c.machine_slowdown.empty() ? "" : distributions::parse_law(c.machine_slowdown).to_string()};
  }
  const bool slowdowns = !slowdown_texts[0].empty() || !slowdown_texts[1].empty();
  const bool file_target = text.rfind(csv_header(sweep_columns(!target, slowdowns)), 0) == 0 ? !target : target;
  const auto& columns = sweep_columns(file_target, slowdowns);
  const auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const std::size_t estimator = column("estimator"), reps_at = column("reps"), seed_at = column("seed");
  std::map<std::string, std::vector<std::string>> in_file;  // per key, its configurations' rows in order
  for (const auto& e : entries) in_file[config_key(e.ran)];
  std::size_t pos = 0, lineno = 0;
  std::string pending_key, pending_rows;
  std::vector<std::string> fields;
  std::set<std::string> outside;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string::npos) break;  // a last line cut short: its configuration is incomplete
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (++lineno == 1) {
      if (line + '\n' != csv_header(columns))
        throw InputError(path, "has another header than a sweep CSV; refusing to resume into it",
                         "give another output file, or remove the file");
      continue;
    }
    if (!parse_csv_line(line, fields) || fields.size() != columns.size())
      throw InputError(path + ":" + std::to_string(lineno), "not a row of a sweep CSV (" + std::to_string(fields.size()) +
                                                                " fields, expected " + std::to_string(columns.size()) + ")");
    SweepColumns c;
    std::copy_n(fields.begin(), SweepDim::count, c.begin());
    const std::string key = config_key(c);
    if (key != pending_key) pending_rows.clear();
    pending_key = key;
    pending_rows += line + '\n';
    if (!sampling_estimator(fields[estimator])) continue;  // not the mean row
    const auto it = in_file.find(key);
    std::uint64_t written_reps = 0;
    const bool same_laws = !slowdowns || (fields[column("slowdown")] == slowdown_texts[0] &&
                                          fields[column("machine_slowdown")] == slowdown_texts[1]);
    const bool same_run = file_target == target && same_laws && fields[seed_at] == std::to_string(seed) &&
                          parse_uint(fields[reps_at], written_reps) && resumable(fields[estimator], written_reps, reps, mean);
    if (it == in_file.end()) outside.insert(describe(c));
    else it->second.push_back(same_run ? pending_rows : "");  // empty: simulate it again
    pending_rows.clear();
    pending_key.clear();
  }
  if (!outside.empty())
    throw InputError(path, std::to_string(outside.size()) + " configuration(s) outside this grid (first: " +
                               *outside.begin() + "); refusing to drop them",
                     "give another output file");
  std::vector<std::string> rows(entries.size());
  std::map<std::string, std::size_t> taken;  // per key, the file's configurations taken so far
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string key = config_key(entries[i].ran);
    const auto& held = in_file[key];
    if (const std::size_t k = taken[key]++; k < held.size()) rows[i] = held[k];
  }
  return rows;
}

// ---- one model as a one-configuration sweep ------------------------------------------------------

ModelSweep model_sweep(const Model& model) {
  (void)compile(model.build(), model.compile_options());  // the model's own errors (and memory check) first
  // The option texts as the sweep's command line would give them; make_grid turns them into the
  // grid's canonical values (a=1/2 is 0.5) and fills what a graph does not have with its defaults.
  std::array<std::vector<std::string>, SweepDim::count> texts;
  const auto set = [&texts](std::size_t d, const std::string& text) {
    if (!text.empty()) texts[d] = {text};
  };
  set(SweepDim::m, std::to_string(model.fast_count));
  set(SweepDim::a, model.scale.text);
  set(SweepDim::comm, model.comm.text);
  if (model.policy) set(SweepDim::policy, to_string(*model.policy));
  ModelSweep out;
  if (!model.graph.empty()) {
    if (!is_graph(model.graph)) throw InputError("graph", "'" + model.graph + "' is not a graph file a sweep reads");
    set(SweepDim::structure, model.graph);
    set(SweepDim::protocol, sweep_port_value(model.port, model.overlap));
    out.graph.task_graph = model.task_graph;
    out.graph.processor_scales = model.processor_scales;
    out.graph.processor_cores = model.processor_cores;
  } else {
    set(SweepDim::structure, structures::to_string(*model.structure));
    set(SweepDim::law, model.law.text);
    if (model.fast_law) set(SweepDim::fast_law, model.fast_law->text);
    set(SweepDim::n, std::to_string(model.width));
    set(SweepDim::levels, std::to_string(model.levels));
    if (model.protocol) set(SweepDim::protocol, model.protocol->name);
    set(SweepDim::exchange, to_string(model.exchange));
  }
  SweepGrid grid = make_grid(texts, 1);
  if (model.slowdown) grid.slowdown = model.slowdown->text;
  if (model.machine_slowdown) grid.machine_slowdown = model.machine_slowdown->text;
  out.config = grid.at(0);
  return out;
}

std::vector<Record> model_sweep_records(const Model& model, const std::vector<Comparison>& comparisons,
                                        const RunOptions& options, const std::optional<MeanEstimator>& mean,
                                        const DistributionOptions& distribution) {
  const ModelSweep ms = model_sweep(model);
  SweepGrid grid;
  for (std::size_t d = 0; d < SweepDim::count; ++d) grid.values[d] = {ms.config.column(d)};
  grid.slowdown = ms.config.slowdown;
  grid.machine_slowdown = ms.config.machine_slowdown;
  SweepEntries valid = build_entries(std::vector<SweepGrid>{grid}, comparisons, false, ms.graph);
  const std::vector<RunSpec> runs = plan_runs(valid.entries, mean);
  // The mc run's makespans and their sorted copy; a difference run's pairs, split, and their orders.
  if (distribution.any())
    check_stored_makespans(options.reps, !comparisons.empty() && keeps_pairs(distribution) ? 6.0 : 2.0, model.memory_check);
  // One worker, as the sweep in one process: every run whole, in order.
  SweepShare share;
  share.pieces = deal_blocks(run_work(runs, options.reps), 1).front();
  share.distribution = distribution;
  if (options.progress) {
    const double total = share.work(runs, options.reps);
    share.progress = [&options, total](double done) {
      options.progress(static_cast<std::uint64_t>(1e6 * std::min(1.0, done / total)), 1000000);
    };
  }
  std::vector<Record> rows;
  share.entry_done = [&](const Entry& entry, const Job& job) {
    rows = config_records(entry, job, comparisons, share.estimates, options.seed, share.extras, has_target(mean));
  };
  RunOptions run = options;
  run.progress = nullptr;
  share.compute(valid.entries, runs, comparisons.size(), run);
  return rows;
}

}  // namespace hetstruct::engine
