// What each fuzz harness does with one input, shared by the libFuzzer harnesses (fuzz_*.cpp) and
// the Catch2 regression test (tests/fuzz_regression_test.cpp), which replays the committed corpus
// (tests/fuzz/corpus/<name>/) through the same functions.
//
// The contract of every text input of hetstruct: bad input throws hetstruct::InputError, which is
// a normal outcome here and is caught. Anything else is a finding:
//   - a crash, a sanitizer report (ASan/UBSan in the fuzz build), a hang;
//   - an exception of another type (it escapes these functions: libFuzzer reports it as a crash,
//     the regression test as a failure);
//   - an accepted input whose result breaks a documented property: these throw FuzzFinding.
// Beyond parsing, each check drives the parsed value through the code that consumes it (moments
// and cdf of a law, compiling and running a DAG, costing and replaying HBSP programs), since a
// parser that accepts what its consumers cannot handle is the same bug.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bounds/hbsp/model.h"
#include "cli/output.h"
#include "cli/sweep.h"
#include "engine/simulate/record.h"
#include "engine/sweep/grid.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/hbsp/replay.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/custom.h"
#include "structures/schedule.h"
#include "structures/task_graphs.h"
#include "structures/structure.h"

namespace hetstruct::fuzz {

// An accepted input whose result breaks a documented property.
struct FuzzFinding : std::logic_error {
  using std::logic_error::logic_error;
};

inline void require(bool ok, const std::string& what) {
  if (!ok) throw FuzzFinding(what);
}

// ---- law strings (distributions/law.h) -------------------------------------------------------

inline void check_law(const std::string& text) {
  namespace d = distributions;
  try {
    const d::Law law = d::parse_law(text);
    // Properties every accepted law has: finite moments (values near overflow are refused with a
    // message, not carried as inf or NaN), a cdf in [0, 1], a finite support.
    const double mean = law.mean(), variance = law.variance();
    require(std::isfinite(mean), "law '" + text + "': mean is not finite");
    require(std::isfinite(variance) && variance >= 0.0, "law '" + text + "': variance is not finite and >= 0");
    const auto [lo, hi] = law.support();
    require(std::isfinite(lo) && std::isfinite(hi) && lo <= hi, "law '" + text + "': support is not a finite interval");
    for (const double x : {lo, hi, mean, 0.0, 0.5 * (lo + hi)}) {
      const double p = law.cdf(x);
      require(p >= 0.0 && p <= 1.0, "law '" + text + "': cdf outside [0, 1]");
      (void)law.pdf(x);
    }
    require(law.negative_probability() >= 0.0 && law.negative_probability() <= 1.0,
            "law '" + text + "': P(X < 0) outside [0, 1]");
    // Nor near underflow: scale factors are normal doubles, and only point masses have variance 0.
    bool point_masses = true;
    for (const auto& c : law.components()) {
      require(std::isfinite(c.leaf.scale) && c.leaf.scale >= std::numeric_limits<double>::min(),
              "law '" + text + "': a scale factor that is not a normal double");
      point_masses = point_masses && c.leaf.kind == d::LeafKind::constant;
    }
    require(point_masses || variance > 0.0, "law '" + text + "': not a constant, but its variance is 0");
    (void)law.breakpoints();
    // law.h: "parse(to_string()) gives back an equal law". Exact equality can fail on the
    // weights of a mixture that adds up to 1 only within the accepted 1e-9, so the round trip
    // is checked on the moments.
    const std::string canonical = law.to_string();
    d::Law back = d::Law::constant(0.0);
    try {
      back = d::parse_law(canonical);
    } catch (const InputError& e) {
      throw FuzzFinding("law '" + text + "': its canonical text '" + canonical + "' does not parse: " + e.what());
    }
    const auto close = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); };
    require(close(back.mean(), mean) && close(back.variance(), variance),
            "law '" + text + "': its canonical text '" + canonical + "' reads back as another law");
  } catch (const InputError&) {
  }
  try {
    const double x = distributions::parse_number(text, "--a");
    require(std::isfinite(x), "number '" + text + "' is not finite");
  } catch (const InputError&) {
  }
}

// ---- DOT graphs (structures/structure.h) -----------------------------------------------------

// Every custom DAG a reader accepts: its tasks in range, its edges' message laws in range, and the
// engine takes it.
inline void check_custom(const structures::Structure& s) {
  const auto n = boost::num_vertices(s.graph());
  require(n >= 1, "an accepted graph has no vertices");
  require(s.width >= 1 && s.levels >= 1, "an accepted graph has no processor or no level");
  require(s.processor_scale.empty() || s.processor_scale.size() == static_cast<std::size_t>(s.width),
          "processor_scale does not give one scale per processor");
  require(s.processor_cores.empty() || s.processor_cores.size() == static_cast<std::size_t>(s.width),
          "processor_cores does not give one count per processor");
  for (const int c : s.processor_cores) require(c >= 1, "a processor has no core");
  require(!s.recorded_makespan || (*s.recorded_makespan >= 0.0 && std::isfinite(*s.recorded_makespan)),
          "a recorded makespan is negative or not finite");
  for (std::size_t v = 0; v < n; ++v) {
    const auto& t = s.graph()[v];
    require(t.processor >= 0 && t.processor < s.width, "a task's processor is outside [0, width)");
    const int cores = s.processor_cores.empty() ? 1 : s.processor_cores[static_cast<std::size_t>(t.processor)];
    require(t.cores >= 1 && t.cores <= cores, "a task takes no core, or more cores than its processor has");
    require(t.law >= 0 && t.law < static_cast<int>(s.laws.size()), "a task's law index is out of range");
    require(t.level >= 0 && t.level < s.levels, "a task's level is outside [0, levels)");
  }
  for (const auto e : boost::make_iterator_range(boost::edges(s.graph()))) {
    const int law = s.graph()[e].comm_law;
    require(law >= -1 && law < static_cast<int>(s.laws.size()), "an edge's message law is out of range");
  }
  // The engine must take every graph the reader accepts.
  const engine::Plan plan = engine::compile(s);
  engine::RunOptions options;
  options.seed = 1;
  options.reps = 2;
  options.threads = 1;
  (void)engine::run(plan, options);
}

inline void check_dot(const std::string& text) {
  try {
    check_custom(structures::parse_dot(text, "fuzz.dot"));
    // The multi-core attributes as the reader hands them over: cores >= 1 on every task, one core
    // count >= 1 per processor the tasks use (or none).
    const auto dag = structures::parse_dot_dag(text, "fuzz.dot");
    int width = 0;
    for (const auto& t : dag.tasks) {
      require(t.cores >= 1, "DOT: a task with cores < 1");
      require(t.costs.size() == dag.tasks.front().costs.size(), "DOT: costs of different lengths");
      width = std::max({width, t.processor + 1, static_cast<int>(t.costs.size())});
    }
    require(dag.processor_cores.empty() || dag.processor_cores.size() == static_cast<std::size_t>(width),
            "DOT: processor_cores does not give one count per processor");
    for (const int c : dag.processor_cores) require(c >= 1, "DOT: a processor with cores < 1");
  } catch (const InputError&) {
  }
  // Every schedule of the graph, applied as a mapping, builds and runs; HEFT's and CPOP's times
  // are their as-soon-as-possible replay's.
  for (const auto algorithm : {structures::ScheduleAlgorithm::heft, structures::ScheduleAlgorithm::cpop,
                               structures::ScheduleAlgorithm::heft_sd}) {
    try {
      auto dag = structures::parse_dot_dag(text, "fuzz.dot");
      if (dag.tasks.size() > 2000) return;
      structures::ScheduleOptions options;
      options.algorithm = algorithm;
      options.comm_cost = 0.5;
      const auto problem = structures::scheduling_problem(dag, options, "fuzz.dot");
      const auto schedule = structures::schedule(problem, algorithm);
      if (algorithm != structures::ScheduleAlgorithm::heft_sd)
        require(structures::replay(schedule, problem).makespan == schedule.makespan, "schedule: replay differs");
      structures::apply_schedule(schedule, dag);
      check_custom(structures::build_custom(dag, "fuzz.dot"));
      // The schedule written as a mapping file (`schedule --output-mapping`) and read back
      // (`simulate --mapping`) places every task where the schedule did, in its order.
      std::vector<std::string> names;
      for (const auto& t : dag.tasks) names.push_back(t.name);
      const std::string text_map = structures::mapping_text(schedule, names);
      auto mapped = structures::parse_dot_dag(text, "fuzz.dot");
      structures::apply_mapping(structures::parse_mapping(text_map, "fuzz.map"), mapped);
      for (std::size_t v = 0; v < mapped.tasks.size(); ++v)
        require(mapped.tasks[v].processor == dag.tasks[v].processor, "schedule: its mapping file places a task elsewhere");
      check_custom(structures::build_custom(mapped, "fuzz.dot"));
    } catch (const InputError&) {
    }
  }
}

// The task graph readers with a schedule computed on the fly (`--schedule` on an STG or WfFormat
// file, whose machine the scales give), each algorithm.
template <class Parse>
void check_scheduled(const Parse& parse) {
  for (const auto algorithm : {structures::ScheduleAlgorithm::heft, structures::ScheduleAlgorithm::cpop,
                               structures::ScheduleAlgorithm::heft_sd}) {
    try {
      structures::TaskGraphOptions options;
      structures::ScheduleOptions schedule;
      schedule.algorithm = algorithm;
      schedule.scales = {1.0, 0.5, 2.0};
      schedule.comm_cost = 0.25;
      options.schedule = schedule;
      const structures::Structure s = parse(options);
      require(s.schedule.has_value(), "a scheduled graph keeps no schedule");
      check_custom(s);
    } catch (const InputError&) {
    }
  }
}

// A mapping file applied to a fixed graph (sample.stg's tasks 1 to 5, of tests/data): every task
// mapped once onto a processor of the machine, or an InputError (a task missing, a name not in
// the graph: a mapping for another graph).
inline const char* const mapped_stg_text = R"(          5
          0          0          0
          1          3          1          0
          2          4          1          1
          3          2          1          1
          4          6          2          2          3
          5          1          1          3
          6          0          2          4          5
)";

inline void check_mapping(const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("hetstruct-fuzz-mapping-" + std::to_string(::getpid()) + ".map"))
                               .string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  try {
    structures::TaskGraphOptions options;
    options.mapping = path;
    const structures::Structure s = structures::parse_stg(mapped_stg_text, "fuzz.stg", options);
    require(boost::num_vertices(s.graph()) == 5, "a mapping changed the graph's tasks");
    check_custom(s);
  } catch (const InputError&) {
  }
  std::remove(path.c_str());
}

// An STG file, with constant and normal task laws; the same text as a mapping file.
inline void check_stg(const std::string& text) {
  try {
    check_custom(structures::parse_stg(text, "fuzz.stg"));
    structures::TaskGraphOptions normal;
    normal.law = {structures::TaskLawShape::normal, 0.1};
    check_custom(structures::parse_stg(text, "fuzz.stg", normal));
  } catch (const InputError&) {
  }
  try {
    (void)structures::parse_mapping(text, "fuzz.map");
  } catch (const InputError&) {
  }
  check_mapping(text);
  check_scheduled([&](const structures::TaskGraphOptions& options) { return structures::parse_stg(text, "fuzz.stg", options); });
}

// A WfFormat file, with and without a bandwidth (messages from file sizes).
inline void check_wfformat(const std::string& text) {
  try {
    check_custom(structures::parse_wfformat(text, "fuzz.json"));
    structures::TaskGraphOptions messages;
    messages.bandwidth = 1000;
    messages.law = {structures::TaskLawShape::uniform, 0.2};
    check_custom(structures::parse_wfformat(text, "fuzz.json", messages));
  } catch (const InputError&) {
  }
  // Both dispatch rules on every machine, whatever the trace records (the default reads ready only
  // where a machine records no starts).
  for (const auto dispatch : {structures::Dispatch::ordered, structures::Dispatch::ready}) {
    try {
      structures::TaskGraphOptions options;
      options.dispatch = dispatch;
      check_custom(structures::parse_wfformat(text, "fuzz.json", options));
    } catch (const InputError&) {
    }
  }
  check_scheduled([&](const structures::TaskGraphOptions& options) { return structures::parse_wfformat(text, "fuzz.json", options); });
}

// ---- HBSP inputs (bounds/hbsp/model.h, engine/hbsp/replay.h) ----------------------------------------

namespace model = bounds::hbsp;
namespace replay = engine::hbsp;

// The machine the program and trace harnesses read against: short names for the fuzzer, an L for
// some p only, speeds and r_j all different.
inline const char* const machine_text = R"(g 0.5
L 10
L p=2 5
processor a r=1 index=4
processor b r=2.5 index=1
processor c r=1.5 index=2
processor d r=4 index=0.5
)";
// The program harness reads programs on the first program_p processors (so that d is refused).
inline constexpr int program_p = 3;

inline const model::Machine& fuzz_machine() {
  static const model::Machine m = [] {
    std::istringstream in(machine_text);
    return model::parse_machine(in, "fuzz-machine.txt");
  }();
  return m;
}

// The built-in algorithms on the machine: closed form, generated program and its replay in both
// forms. InputError (no L for p, ...) is a normal outcome.
inline void exercise_algorithms(const model::Machine& m, int p) {
  using model::Algorithm;
  for (const Algorithm alg : {Algorithm::scatter, Algorithm::broadcast_one_phase, Algorithm::broadcast_two_phase,
                              Algorithm::prefix_sums, Algorithm::matrix_multiplication, Algorithm::sample_sort}) {
    for (const auto root : {model::RootChoice::fastest, model::RootChoice::slowest}) {
      try {
        model::AlgorithmParams a;
        a.algorithm = alg;
        a.p = p;
        a.n = 1000.0;
        a.root.kind = root;
        // bounds/hbsp/model.h, "Ranges": no cost is inf or NaN (refused with InputError instead).
        require(std::isfinite(model::closed_form(m, a)) && std::isfinite(model::paper_form(m, a)),
                "a closed form is not finite");
        const replay::Program prog = replay::generate(m, a);
        for (const auto form : {model::CostForm::hbsp1, model::CostForm::cj})
          require(std::isfinite(replay::replay(m, prog, form).total), "a generated program's replay is not finite");
      } catch (const InputError&) {
      }
    }
  }
}

// `hbsp predict`'s ratios (bounds/hbsp/predictions.h): T_s/T_f and T_u/T_b of scatter and two-phase
// broadcast at the figures' smallest and largest n, which the machine's ranges keep finite and > 0.
inline void check_predict_ratios(const model::Machine& m, int p) {
  model::AlgorithmParams a;
  a.p = p;
  a.item_size = 1.0;
  for (const auto alg : {model::Algorithm::scatter, model::Algorithm::broadcast_two_phase})
    for (const auto accounting : {model::Accounting::paper, model::Accounting::exact})
      for (const double n : {100.0 * 1024.0, 1000.0 * 1024.0}) {
        a.algorithm = alg;
        a.accounting = accounting;
        a.n = n;
        a.workload = model::Workload::equal;
        a.root.kind = model::RootChoice::slowest;
        const double ts = model::closed_form(m, a);
        a.root.kind = model::RootChoice::fastest;
        const double tf = model::closed_form(m, a);  // also T_u
        a.workload = model::Workload::balanced;
        const double tb = model::closed_form(m, a);
        for (const double ratio : {ts / tf, tf / tb})
          require(std::isfinite(ratio) && ratio > 0.0, "a predicted ratio (hbsp predict) is not finite and > 0");
      }
}

inline void check_machine(const std::string& text) {
  try {
    std::istringstream in(text);
    const model::Machine m = model::parse_machine(in, "fuzz-machine.txt");
    require(m.size() >= 1 && m.g > 0.0, "an accepted machine has no processor or g <= 0");
    // The model's quantities for a few p (all of them would be quadratic in the file's size).
    for (const int p : {1, 2, 3, 4, m.size()}) {
      if (p > m.size()) continue;
      m.check_p(p);
      // Speeds are > 0, so shares are in (0, 1] and relative speeds >= 1, all finite.
      for (int j = 0; j < p; ++j) {
        const double share = m.share(j, p), relative = m.relative_speed(j, p);
        require(share > 0.0 && share <= 1.0 + 1e-12, "a share c_j is not in (0, 1]");
        require(std::isfinite(relative) && relative >= 1.0 - 1e-12, "a relative speed c_j is not finite and >= 1");
      }
      require(std::isfinite(m.total_relative_speed(p)), "the total relative speed c is not finite");
      (void)m.r_max(p);
      const int f = m.fastest(p), s = m.slowest(p);
      require(f >= 0 && f < p && s >= 0 && s < p, "fastest or slowest outside the first p");
      try {
        (void)m.latency(p);
      } catch (const InputError&) {
      }
      if (p >= 2 && p <= 8) exercise_algorithms(m, p);
      if (p >= 2) {
        try {
          check_predict_ratios(m, p);
        } catch (const InputError&) {  // no L for p
        }
      }
    }
  } catch (const InputError&) {
  }
}

inline void check_program(const std::string& text) {
  const model::Machine& m = fuzz_machine();
  try {
    std::istringstream in(text);
    const replay::Program prog = replay::parse_program(in, "fuzz-program.csv", m, program_p);
    require(prog.p == program_p && !prog.steps.empty(), "an accepted program has no supersteps");
    for (std::size_t i = 0; i < prog.steps.size(); ++i) {
      const auto& st = prog.steps[i];
      require(st.work.size() == static_cast<std::size_t>(program_p) && st.sent.size() == st.work.size() &&
                  st.received.size() == st.work.size(),
              "a superstep without p values");
      require(i == 0 || st.number == prog.steps[i - 1].number + 1, "supersteps not consecutive");
    }
    for (const auto form : {model::CostForm::hbsp1, model::CostForm::cj}) {
      const replay::Replay r = replay::replay(m, prog, form);
      require(r.steps.size() == prog.steps.size(), "a replay without one step per superstep");
      // Within the ranges of bounds/hbsp/model.h a program's costs are finite: the replay prints no inf.
      require(std::isfinite(r.total), "a replay's total is not finite");
    }
  } catch (const InputError&) {
  }
}

inline void check_trace(const std::string& text) {
  const model::Machine& m = fuzz_machine();
  try {
    std::istringstream in(text);
    const replay::Trace trace = replay::parse_trace(in, "fuzz-trace.txt", m);
    // The r_j in force at clocks before, at, between and far after the measurements.
    for (int j = 0; j < m.size(); ++j) {
      if (!trace.traces(j)) continue;
      const auto& pt = *trace.processors[static_cast<std::size_t>(j)];
      require(!pt.at.empty() && pt.at.size() == pt.r.size(), "a traced processor without measurements");
      for (const double clock : {0.0, pt.at.front(), pt.at.back(), 0.5 * (pt.at.front() + pt.at.back()),
                                 pt.at.back() + 1.0, 3.0 * pt.at.back() + 7.5, 1e9, 1e300}) {
        const double r = pt.value_at(clock, m.processors[static_cast<std::size_t>(j)].r);
        require(r > 0.0 && std::isfinite(r), "value_at gives an r_j that is not finite and > 0");
      }
    }
    // A generated program (7 supersteps: superstep clocks 0..6) replayed under the trace, then
    // a small bootstrap.
    model::AlgorithmParams a;
    a.algorithm = model::Algorithm::sample_sort;
    a.p = 4;
    a.n = 1000.0;
    static const replay::Program prog = [&] {
      replay::Program p = replay::generate(m, a);
      auto more = replay::generate(m, [&] { auto b = a; b.algorithm = model::Algorithm::prefix_sums; return b; }());
      for (auto& st : more.steps) {
        st.number = static_cast<long>(p.steps.size());
        p.steps.push_back(st);
      }
      return p;
    }();
    for (const auto form : {model::CostForm::hbsp1, model::CostForm::cj})
      require(std::isfinite(replay::replay(m, prog, form, &trace).total), "a replay under the trace is not finite");
    replay::BootstrapOptions options;
    options.seed = 1;
    options.reps = 3;
    options.threads = 1;
    const auto b = replay::monte_carlo_replay(m, prog, model::CostForm::cj, trace, options);
    for (const double x : {b.total.mean, b.total.stderr_, b.total.ci_low, b.total.ci_high, b.gh.mean, b.w, b.L})
      require(std::isfinite(x), "a Monte Carlo replay's statistic is not finite");
  } catch (const InputError&) {
  }
}

// ---- sweep lists and ranges (engine/sweep/grid.h), CSV records, TOML configs (cli/sweep.h) ----

// The expansions' limit here (the CLI passes --max-configs, 10^6 by default): small enough that
// checking a range value by value stays cheap.
inline constexpr std::uint64_t sweep_limit = 1000;

inline std::string sweep_trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The bounds of a range item "start:stop[:step]", trimmed as split_list trims.
inline std::vector<std::string> sweep_range_parts(const std::string& item) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (auto colon = item.find(':'); colon != std::string::npos; colon = item.find(':', start = colon + 1))
    parts.push_back(sweep_trim(item.substr(start, colon - start)));
  parts.push_back(sweep_trim(item.substr(start)));
  if (parts.size() == 2) parts.push_back("1");
  return parts;
}

inline void check_sweep_list(const std::string& option, const std::string& text) {
  try {
    for (const auto& item : engine::split_list(option, text)) {
      require(!item.empty() && item == sweep_trim(item), option + " '" + text + "': an empty or untrimmed item");
      // Items are split at depth 0, so an item splits alone into itself.
      require(engine::split_list(option, item) == std::vector<std::string>{item},
              option + " '" + text + "': the item '" + item + "' splits further");
    }
  } catch (const InputError&) {
  }
}

// engine/sweep/grid.h: whole numbers and inclusive ranges a:b[:s] (step 1 by default), no repeated value, at
// most `limit` values; a list's values are its items' values in order.
inline void check_sweep_integers(const std::string& option, const std::string& text) {
  std::vector<long long> values;
  try {
    values = engine::expand_integers(option, text, sweep_limit);
  } catch (const InputError&) {
    return;
  }
  const std::string what = option + " '" + text + "': ";
  require(!values.empty() && values.size() <= sweep_limit, what + "no value, or more than the limit");
  auto sorted = values;
  std::sort(sorted.begin(), sorted.end());
  require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), what + "a repeated value");
  std::size_t at = 0;
  for (const auto& item : engine::split_list(option, text)) {
    const auto part = engine::expand_integers(option, item, sweep_limit);  // accepted in the list: alone too
    require(at + part.size() <= values.size() && std::equal(part.begin(), part.end(), values.begin() + at),
            what + "the values are not its items' values in order");
    at += part.size();
    if (item.find(':') == std::string::npos) continue;
    const auto bounds = sweep_range_parts(item);
    // long double holds any difference of two long longs exactly (64-bit mantissa).
    const long double lo = std::stoll(bounds[0]), hi = std::stoll(bounds[1]), step = std::stoll(bounds[2]);
    require(part.front() == lo, what + "the range '" + item + "' does not start at its start");
    for (std::size_t i = 1; i < part.size(); ++i)
      require(static_cast<long double>(part[i]) - part[i - 1] == step,
              what + "the range '" + item + "' skips or repeats");
    require(part.back() <= hi && hi - part.back() < step, what + "the range '" + item + "' does not end at its stop");
  }
  require(at == values.size(), what + "more values than its items give");
}

// engine/sweep/grid.h: numbers (fractions allowed) and inclusive ranges, finite, no repeated value (as numbers:
// 0 and -0 are one value), at most `limit`; a range starts at its start, increases, and ends
// within its stop (the end included within a relative 1e-9).
inline void check_sweep_numbers(const std::string& option, const std::string& text) {
  std::vector<double> values;
  try {
    values = engine::expand_numbers(option, text, sweep_limit);
  } catch (const InputError&) {
    return;
  }
  const std::string what = option + " '" + text + "': ";
  require(!values.empty() && values.size() <= sweep_limit, what + "no value, or more than the limit");
  for (const double v : values) require(std::isfinite(v), what + "a value is not finite");
  auto sorted = values;
  std::sort(sorted.begin(), sorted.end());
  require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), what + "a repeated value");
  const auto same = [](double a, double b) { return a == b && std::signbit(a) == std::signbit(b); };
  std::size_t at = 0;
  for (const auto& item : engine::split_list(option, text)) {
    const auto part = engine::expand_numbers(option, item, sweep_limit);
    require(at + part.size() <= values.size() && std::equal(part.begin(), part.end(), values.begin() + at, same),
            what + "the values are not its items' values in order");
    at += part.size();
    if (item.find(':') == std::string::npos) continue;
    const auto bounds = sweep_range_parts(item);
    const double lo = distributions::parse_number(bounds[0], option);
    const double hi = distributions::parse_number(bounds[1], option);
    const double step = distributions::parse_number(bounds[2], option);
    require(part.front() == lo, what + "the range '" + item + "' does not start at its start");
    for (std::size_t i = 1; i < part.size(); ++i)
      require(part[i] > part[i - 1], what + "the range '" + item + "' does not increase");
    require(part.back() <= hi, what + "the range '" + item + "' goes past its stop");
    require(hi - part.back() < step * (1.0 + 1e-9), what + "the range '" + item + "' stops a step short");
  }
  require(at == values.size(), what + "more values than its items give");
}

// engine/simulate/record.h: one CSV record (RFC 4180 quotes); false exactly when a quote is left open. What
// csv_field writes reads back as the same fields (how --resume reads its --out).
inline void check_csv_record(const std::string& line) {
  std::vector<std::string> fields;
  const bool complete = engine::parse_csv_line(line, fields);
  require(!fields.empty(), "a CSV record without fields");
  require(complete == (std::count(line.begin(), line.end(), '"') % 2 == 0), "a CSV record's open quote misjudged");
  if (!complete) return;
  std::string written;
  for (std::size_t i = 0; i < fields.size(); ++i) written += (i ? "," : "") + engine::csv_field(fields[i]);
  std::vector<std::string> back;
  require(engine::parse_csv_line(written, back) && back == fields,
          "CSV fields written by csv_field read back as other fields");
}

// A TOML config read as `hetstruct sweep --config FILE` reads it (SweepCommand through CLI::App);
// --reps 0, which the file cannot override, stops execute() right after the file is applied.
// Then the values the file gave go through the expansions execute() applies to them.
inline void check_sweep_config(const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("hetstruct-fuzz-sweep-" + std::to_string(::getpid()) + ".toml"))
                               .string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  cli::SweepCommand sweep;
  CLI::App app{"hetstruct"};
  sweep.add_to(app);
  const char* const argv[] = {"hetstruct", "sweep", "--config", path.c_str(), "--reps", "0", "--quiet"};
  app.parse(static_cast<int>(std::size(argv)), argv);
  bool refused = false;
  try {
    sweep.execute();
  } catch (const InputError&) {
    refused = true;
  }
  std::remove(path.c_str());
  require(refused, "sweep --config FILE --reps 0 ran");
  for (const auto* v : {&sweep.n, &sweep.m, &sweep.levels})
    for (const auto& t : *v) check_sweep_integers("--n", t);
  for (const auto* v : {&sweep.a, &sweep.comm})
    for (const auto& t : *v) check_sweep_numbers("--a", t);
  for (const auto* v : {&sweep.structure, &sweep.law, &sweep.fast_law, &sweep.protocol, &sweep.policy, &sweep.exchange})
    for (const auto& t : *v) check_sweep_list("--law", t);
  for (const auto* t : {&sweep.seed_text, &sweep.max_configs_text}) {
    try {
      (void)cli::parse_count("--seed", *t, std::numeric_limits<std::uint64_t>::max());
    } catch (const InputError&) {
    }
  }
}

// One input through every sweep reader: as a list, as whole numbers, as numbers, as a CSV record
// and as a TOML config file.
inline void check_sweep(const std::string& text) {
  check_sweep_list("--law", text);
  check_sweep_integers("--n", text);
  check_sweep_numbers("--comm", text);
  check_csv_record(text);
  check_sweep_config(text);
}

}  // namespace hetstruct::fuzz
