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

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bounds/hbsp.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/hbsp_replay.h"
#include "engine/monte_carlo.h"
#include "engine/plan.h"
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

inline void check_dot(const std::string& text) {
  try {
    const structures::Structure s = structures::parse_dot(text, "fuzz.dot");
    const auto n = boost::num_vertices(s.graph());
    require(n >= 1, "an accepted graph has no vertices");
    require(s.width >= 1 && s.levels >= 1, "an accepted graph has no processor or no level");
    for (std::size_t v = 0; v < n; ++v) {
      const auto& t = s.graph()[v];
      require(t.processor >= 0 && t.processor < s.width, "a task's processor is outside [0, width)");
      require(t.law >= 0 && t.law < static_cast<int>(s.laws.size()), "a task's law index is out of range");
      require(t.level >= 0 && t.level < s.levels, "a task's level is outside [0, levels)");
    }
    // The engine must take every graph the reader accepts.
    const engine::Plan plan = engine::compile(s);
    engine::RunOptions options;
    options.seed = 1;
    options.reps = 2;
    options.threads = 1;
    (void)engine::run(plan, options);
  } catch (const InputError&) {
  }
}

// ---- HBSP inputs (bounds/hbsp.h, engine/hbsp_replay.h) ----------------------------------------

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
        (void)model::closed_form(m, a);
        (void)model::paper_form(m, a);
        const replay::Program prog = replay::generate(m, a);
        (void)replay::replay(m, prog, model::CostForm::hbsp1);
        (void)replay::replay(m, prog, model::CostForm::cj);
      } catch (const InputError&) {
      }
    }
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
      (void)replay::replay(m, prog, form, &trace);
    replay::BootstrapOptions options;
    options.seed = 1;
    options.reps = 3;
    options.threads = 1;
    (void)replay::monte_carlo_replay(m, prog, model::CostForm::cj, trace, options);
  } catch (const InputError&) {
  }
}

}  // namespace hetstruct::fuzz
