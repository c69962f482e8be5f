#include "engine/simulate/criticality.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "distributions/input_error.h"
#include "engine/driver/blocks.h"

namespace hetstruct::engine {

namespace {

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
constexpr double plus_infinity = std::numeric_limits<double>::infinity();

// Each block keeps a count and an accumulator per task: chunks of blocks keep a wave's memory
// under this many bytes (a wave of compute_blocks holds up to 1024 blocks).
constexpr std::uint64_t chunk_bytes = std::uint64_t{64} << 20;

void refuse(const std::string& problem, const std::string& hint) { throw InputError("criticality", problem, hint); }

}  // namespace

Plan criticality_plan(const structures::Structure& s, const Plan& plan, const CompileOptions& options) {
  using structures::StructureKind;
  if (plan.kind == PlanKind::protocol)
    refuse("the communication protocols (" + std::string(plan.protocol->name) +
               ") run their messages inside the protocol and do not record what set each task's start",
           "give the communication cost (comm_cost) 0: Wilson's structures at zero communication, or a graph");
  if (s.kind == StructureKind::master_slave)
    refuse("the master-slave structure deals its tasks at run time: it has no fixed task graph",
           "async, sync, nn or a graph");
  if (s.kind != StructureKind::custom) {
    CompileOptions generic = options;
    generic.generic = true;
    return compile(s, generic);
  }
  return plan;
}

bool has_slack(const Plan& plan) {
  return !plan.multicore() && !plan.ready_dispatch() && (plan.port == Port::free || plan.messages.empty());
}

std::string task_name(const structures::Structure& s, const Plan& plan, std::uint32_t position) {
  const auto& task = s.graph()[plan.task_vertex[position]];
  if (s.kind != structures::StructureKind::custom)
    return "p" + std::to_string(task.processor) + "_l" + std::to_string(task.level);
  return task.name.empty() ? "v" + std::to_string(plan.task_vertex[position]) : task.name;
}

void schedule_replication(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                          ReplicationSchedule& out) {
  using Bound = DagTrace::Bound;
  DagTrace& trace = out.trace;
  out.makespan = trace_dag(plan, seed, rep, ws, trace);
  const std::size_t tasks = plan.task_sampler.size();
  const double* d = ws.durations.data();
  const double* finish = trace.finish.data();
  // Critical: back from the sinks that end last along every binder. A task reached through its
  // finish is critical; one reached through its start only (a processor's start order) is not,
  // but what bound its start is followed.
  out.critical.assign(tasks, 0);
  out.expanded.assign(tasks, 0);
  out.message_seen.assign(plan.messages.size(), 0);
  auto& stack = out.stack;
  stack.clear();
  for (const auto t : plan.sinks)
    if (finish[t] == out.makespan) stack.push_back({Bound::finish, t});
  while (!stack.empty()) {
    const DagTrace::Binder b = stack.back();
    stack.pop_back();
    DagTrace::Range range;
    if (b.bound == Bound::arrival) {
      if (out.message_seen[b.item]) continue;
      out.message_seen[b.item] = 1;
      range = trace.message_binders[b.item];
    } else {
      if (b.bound == Bound::finish) out.critical[b.item] = 1;
      if (out.expanded[b.item]) continue;
      out.expanded[b.item] = 1;
      range = trace.task_binders[b.item];
    }
    stack.insert(stack.end(), trace.binders.begin() + range.begin, trace.binders.begin() + range.end);
  }
  if (!has_slack(plan)) {
    out.latest_finish.clear();
    return;
  }
  // Latest finishes (free port, one core a processor): the backward pass through every precedence
  // and message.
  out.latest_finish.resize(tasks);
  const double* message = ws.message_times.data();
  double* latest = out.latest_finish.data();
  std::size_t sink = plan.sinks.size();  // sinks ascend: walk them backwards with t
  for (std::size_t t = tasks; t-- > 0;) {
    double lf = plus_infinity;
    if (sink > 0 && plan.sinks[sink - 1] == t) {
      lf = out.makespan;
      --sink;
    }
    for (auto j = plan.succ_begin[t]; j < plan.succ_begin[t + 1]; ++j) {
      const auto w = plan.succs[j];
      const int m = plan.succ_message[j];
      const double latest_start = latest[w] - d[w];
      lf = std::min(lf, m < 0 ? latest_start : latest_start - message[m]);
    }
    latest[t] = lf;
  }
}

namespace {

struct CriticalityBlock {
  std::vector<std::uint64_t> critical;  // per plan position (empty: nothing added yet)
  std::vector<Accumulator> slack;
  Accumulator makespan;
  void merge(const CriticalityBlock& o) {
    makespan.merge(o.makespan);
    if (o.critical.empty()) return;
    if (critical.empty()) {
      critical.assign(o.critical.size(), 0);
      slack.resize(o.slack.size());
    }
    for (std::size_t t = 0; t < critical.size(); ++t) {
      critical[t] += o.critical[t];
      slack[t].merge(o.slack[t]);
    }
  }
};

struct State {
  explicit State(const Plan& plan) : ws(plan) {}
  Workspace ws;
  ReplicationSchedule schedule;
};

}  // namespace

CriticalityRun run_criticality(const structures::Structure& s, const Plan& plan, const RunOptions& options) {
  if (plan.kind != PlanKind::dag) throw std::logic_error("run_criticality: not a DAG plan (criticality_plan)");
  const std::size_t tasks = plan.task_sampler.size();
  std::vector<std::uint32_t> compute;  // the positions reported, in vertex order
  for (std::uint32_t t = 0; t < tasks; ++t)
    if (plan.task_sampler[t] >= 0) compute.push_back(t);
  std::sort(compute.begin(), compute.end(),
            [&](std::uint32_t a, std::uint32_t b) { return plan.task_vertex[a] < plan.task_vertex[b]; });

  CriticalityBlock total;
  const std::uint64_t blocks = block_count(options.reps);
  const std::uint64_t per_block = std::max<std::uint64_t>(1, tasks) * (sizeof(std::uint64_t) + sizeof(Accumulator));
  const std::uint64_t chunk = std::clamp<std::uint64_t>(chunk_bytes / per_block, 1, 1024);
  RunOptions run = options;
  std::uint64_t done_before = 0;
  if (options.progress)
    run.progress = [&](std::uint64_t done, std::uint64_t) { options.progress(done_before + done, options.reps); };
  const bool slack = has_slack(plan);
  const auto add = [&plan, seed = options.seed, tasks, slack](CriticalityBlock& block, std::uint64_t r, State& state) {
    schedule_replication(plan, seed, r, state.ws, state.schedule);
    if (block.critical.empty()) {
      block.critical.assign(tasks, 0);
      block.slack.resize(tasks);
    }
    const auto& sch = state.schedule;
    for (std::size_t t = 0; t < tasks; ++t) {
      block.critical[t] += sch.critical[t];
      if (slack) block.slack[t].add(sch.slack(t));
    }
    block.makespan.add(sch.makespan);
  };
  for (std::uint64_t first = 0; first < blocks; first += chunk) {
    const BlockRange range{first, std::min(blocks, first + chunk)};
    compute_blocks<CriticalityBlock>(
        run, range, [&plan] { return State(plan); }, add,
        [&](std::span<const CriticalityBlock> wave) { fold_blocks(total, wave); });
    done_before = std::min(range.last * block_size, options.reps);
  }

  CriticalityRun result;
  result.makespan = summarize(total.makespan);
  result.slack = slack;
  const double n = static_cast<double>(options.reps);
  for (const auto t : compute) {
    TaskCriticality c;
    c.task = task_name(s, plan, t);
    c.position = t;
    c.critical = total.critical.empty() ? 0 : total.critical[t];
    c.criticality = static_cast<double>(c.critical) / n;
    c.criticality_stderr = std::sqrt(c.criticality * (1.0 - c.criticality) / n);
    // Wilson's score interval: the fractions p whose test |c - p| <= z sqrt(p (1 - p) / n) accepts.
    constexpr double z = 1.959963984540054;
    const double centre = (c.criticality + z * z / (2.0 * n)) / (1.0 + z * z / n);
    const double half = z * std::sqrt(c.criticality * (1.0 - c.criticality) / n + z * z / (4.0 * n * n)) / (1.0 + z * z / n);
    // At 0 and 1 the interval ends there exactly (rounding would leave 3e-18 or 1 - 2e-16).
    c.criticality_ci_low = c.critical == 0 ? 0.0 : std::max(0.0, centre - half);
    c.criticality_ci_high = static_cast<double>(c.critical) == n ? 1.0 : std::min(1.0, centre + half);
    c.slack = total.slack.empty() ? Estimate{} : summarize(total.slack[t]);
    result.tasks.push_back(std::move(c));
  }
  return result;
}

std::vector<Record> criticality_records(const CriticalityRun& run, std::uint64_t seed) {
  std::vector<Record> rows;
  for (const auto& t : run.tasks) {
    Record r;
    r.add("task", t.task).add("criticality", t.criticality).add("criticality_stderr", t.criticality_stderr);
    r.add("criticality_ci_low", t.criticality_ci_low).add("criticality_ci_high", t.criticality_ci_high);
    if (run.slack)
      r.add("slack", t.slack.mean).add("slack_stderr", t.slack.stderr_);
    else
      r.add_none("slack").add_none("slack_stderr");
    r.add("critical", t.critical);
    r.add("reps", run.makespan.reps).add("seed", seed);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace hetstruct::engine
