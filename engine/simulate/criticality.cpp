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
    refuse("the communication protocols (" + std::string(plan.protocol->name) + ") do not expose each task's start and finish",
           "give the communication cost (comm_cost) 0: Wilson's structures at zero communication, or a graph");
  if (s.kind == StructureKind::master_slave)
    refuse("the master-slave structure deals its tasks at run time: it has no fixed task graph",
           "async, sync, nn or a graph");
  if (s.kind != StructureKind::custom) {
    CompileOptions generic = options;
    generic.generic = true;
    return compile(s, generic);
  }
  if (plan.multicore())
    refuse("on processors of several cores a task also waits for a free core, which these rules do not follow",
           "one core per processor: leave the processors' cores (processor_cores) at 1");
  if (plan.port != Port::free && !plan.messages.empty())
    refuse("under the one-port models a start also waits for ports, which these rules do not follow",
           "use the free port (port free)");
  return plan;
}

std::string task_name(const structures::Structure& s, const Plan& plan, std::uint32_t position) {
  const auto& task = s.graph()[plan.task_vertex[position]];
  if (s.kind != structures::StructureKind::custom)
    return "p" + std::to_string(task.processor) + "_l" + std::to_string(task.level);
  return task.name.empty() ? "v" + std::to_string(plan.task_vertex[position]) : task.name;
}

void schedule_replication(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                          ReplicationSchedule& out) {
  draw_dag_times(plan, seed, rep, ws);
  const std::size_t tasks = plan.task_sampler.size();
  out.start.resize(tasks);
  out.finish.resize(tasks);
  out.latest_finish.resize(tasks);
  out.critical.assign(tasks, 0);
  const double* d = ws.durations.data();
  const double* message = ws.message_times.data();
  double* start = out.start.data();
  double* finish = out.finish.data();
  // An edge's arrival at its successor: as propagate_free computes it (plan.cpp), the same bits.
  const auto arrival = [&](std::uint32_t j) {
    const int m = plan.pred_message[j];
    return m < 0 ? finish[plan.preds[j]] : finish[plan.preds[j]] + message[m];
  };
  for (std::size_t t = 0; t < tasks; ++t) {
    double s = plan.pred_begin[t] == plan.pred_begin[t + 1] ? 0.0 : minus_infinity;
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) s = std::max(s, arrival(j));
    start[t] = s;
    finish[t] = s + d[t];
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  out.makespan = makespan;
  // Critical: backwards from the sinks that end last, along every edge that set its successor's start.
  std::uint8_t* critical = out.critical.data();
  for (const auto t : plan.sinks)
    if (finish[t] == makespan) critical[t] = 1;
  for (std::size_t t = tasks; t-- > 0;) {
    if (!critical[t]) continue;
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j)
      if (arrival(j) == start[t]) critical[plan.preds[j]] = 1;
  }
  // Latest finishes: the backward pass through every precedence and message.
  double* latest = out.latest_finish.data();
  std::size_t sink = plan.sinks.size();  // sinks ascend: walk them backwards with t
  for (std::size_t t = tasks; t-- > 0;) {
    double lf = plus_infinity;
    if (sink > 0 && plan.sinks[sink - 1] == t) {
      lf = makespan;
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
  const auto add = [&plan, seed = options.seed, tasks](CriticalityBlock& block, std::uint64_t r, State& state) {
    schedule_replication(plan, seed, r, state.ws, state.schedule);
    if (block.critical.empty()) {
      block.critical.assign(tasks, 0);
      block.slack.resize(tasks);
    }
    const auto& sch = state.schedule;
    for (std::size_t t = 0; t < tasks; ++t) {
      block.critical[t] += sch.critical[t];
      block.slack[t].add(sch.slack(t));
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
  const double n = static_cast<double>(options.reps);
  for (const auto t : compute) {
    TaskCriticality c;
    c.task = task_name(s, plan, t);
    c.position = t;
    c.critical = total.critical.empty() ? 0 : total.critical[t];
    c.criticality = static_cast<double>(c.critical) / n;
    c.criticality_stderr = std::sqrt(c.criticality * (1.0 - c.criticality) / n);
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
    r.add("slack", t.slack.mean).add("slack_stderr", t.slack.stderr_).add("critical", t.critical);
    r.add("reps", run.makespan.reps).add("seed", seed);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace hetstruct::engine
