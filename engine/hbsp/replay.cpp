#include "engine/hbsp/replay.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <set>
#include <sstream>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/driver/blocks.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/streams.h"

namespace hetstruct::engine::hbsp {

namespace {

using distributions::format_brief;

// A cost that overflows is refused, never printed as inf or NaN (bounds/hbsp/model.h, "Ranges").
[[noreturn]] void throw_overflow(const Program& program, const std::string& what) {
  throw InputError(program.name.empty() ? "hbsp replay" : program.name, what + " overflows a double",
                   "HBSP costs must stay finite: give smaller work, packets, g, L or r_j (or a smaller n)");
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(trim(field));
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

void open_or_throw(std::ifstream& in, const std::string& path, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, std::string("is a directory, not ") + what);
  in.open(path);
  if (!in) throw InputError(path, std::string("cannot open ") + what);
}

Superstep empty_step(long number, int p) {
  Superstep s;
  s.number = number;
  s.work.assign(static_cast<std::size_t>(p), 0.0);
  s.sent.assign(static_cast<std::size_t>(p), 0.0);
  s.received.assign(static_cast<std::size_t>(p), 0.0);
  return s;
}

}  // namespace

// ---- generated programs ----------------------------------------------------------------------

Program generate(const model::Machine& m, const model::AlgorithmParams& a) {
  model::validate(m, a);
  const int p = a.p;
  const int root = model::root_index(m, a);
  const auto f = model::shares(m, p, a.workload);
  const bool paper = a.accounting == model::Accounting::paper;
  const double n = a.n, s = a.item_size, N = n * s;
  Program prog;
  prog.name = model::to_string(a.algorithm);
  prog.p = p;
  auto step = [&](long number) -> Superstep& {
    prog.steps.push_back(empty_step(number, p));
    return prog.steps.back();
  };
  // The root sends f_j*N to each P_j (to itself only under the paper's accounting).
  auto scatter = [&](Superstep& st) {
    for (int j = 0; j < p; ++j) {
      if (j == root && !paper) continue;
      st.sent[root] += f[j] * N;
      st.received[j] += f[j] * N;
    }
  };

  switch (a.algorithm) {
    case model::Algorithm::scatter: scatter(step(0)); break;
    case model::Algorithm::broadcast_one_phase: {
      auto& st = step(0);
      for (int j = 0; j < p; ++j) {
        if (j == root && !paper) continue;
        st.sent[root] += N;
        st.received[j] += N;
      }
      break;
    }
    case model::Algorithm::broadcast_two_phase: {
      scatter(step(0));
      auto& st = step(1);  // every P_j sends its piece to every processor (all-gather)
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < p; ++i) {
          if (i == j && !paper) continue;
          st.sent[j] += f[j] * N;
          st.received[i] += f[j] * N;
        }
      break;
    }
    case model::Algorithm::prefix_sums: {
      auto& s1 = step(0);  // local prefix sums; each P_i sends its total to the root
      for (int j = 0; j < p; ++j) {
        s1.work[j] = f[j] * n;
        if (j == root && !paper) continue;
        s1.sent[j] += s;
        s1.received[root] += s;
      }
      auto& s2 = step(1);  // the root's prefix sums of the p totals, one value back to each
      s2.work[root] = p;
      for (int j = 0; j < p; ++j) {
        if (j == root && !paper) continue;
        s2.sent[root] += s;
        s2.received[j] += s;
      }
      auto& s3 = step(2);  // each adds its offset
      for (int j = 0; j < p; ++j) s3.work[j] = f[j] * n;
      break;
    }
    case model::Algorithm::matrix_multiplication: {
      const double block = n * n / p * s;  // n/p columns of B, n items each
      for (int round = 0; round < p; ++round) {
        auto& st = step(round);
        for (int j = 0; j < p; ++j) {
          st.work[j] = f[j] * n * (n / p) * n;
          st.sent[j] += block;
          st.received[(j + 1) % p] += block;
        }
      }
      break;
    }
    case model::Algorithm::sample_sort: {
      const double o = a.oversampling;
      auto& s1 = step(0);  // select o samples, send them to the root
      for (int j = 0; j < p; ++j) {
        s1.work[j] = o;
        if (j == root && !paper) continue;
        s1.sent[j] += o * s;
        s1.received[root] += o * s;
      }
      auto& s2 = step(1);  // the root sorts p*o samples and broadcasts p-1 splitters
      s2.work[root] = p * o * std::log2(p * o);
      for (int j = 0; j < p; ++j) {
        if (j == root && !paper) continue;
        s2.sent[root] += (p - 1) * s;
        s2.received[j] += (p - 1) * s;
      }
      auto& s3 = step(2);  // partition into buckets; P_i sends f_i*f_j*N to P_j
      for (int i = 0; i < p; ++i) {
        s3.work[i] = f[i] * n;
        for (int j = 0; j < p; ++j) {
          if (i == j && !paper) continue;
          s3.sent[i] += f[i] * f[j] * N;
          s3.received[j] += f[i] * f[j] * N;
        }
      }
      auto& s4 = step(3);  // sort the bucket
      for (int j = 0; j < p; ++j) s4.work[j] = f[j] * n * std::log2(n);
      break;
    }
  }
  return prog;
}

// ---- program CSV -----------------------------------------------------------------------------

Program parse_program(std::istream& in, const std::string& source, const model::Machine& m, int p) {
  m.check_p(p);
  static const char* const names[] = {"superstep", "processor", "work", "sent", "received"};
  Program prog;
  prog.name = std::filesystem::path(source).filename().string();
  prog.p = p;
  int column[5] = {-1, -1, -1, -1, -1};
  std::size_t columns = 0;
  bool have_header = false;
  std::set<std::pair<long, int>> seen;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number);
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto fields = split_csv(t);
    if (!have_header) {
      columns = fields.size();
      for (std::size_t c = 0; c < fields.size(); ++c) {
        const auto it = std::find(std::begin(names), std::end(names), fields[c]);
        if (it == std::end(names))
          throw InputError(where, "unknown column '" + fields[c] + "'",
                           "the header is superstep,processor,work,sent,received");
        const auto k = it - std::begin(names);
        if (column[k] >= 0) throw InputError(where, "column '" + fields[c] + "' appears twice");
        column[k] = static_cast<int>(c);
      }
      for (int k = 0; k < 5; ++k)
        if (column[k] < 0)
          throw InputError(where, std::string("the header has no column '") + names[k] + "'",
                           "the header is superstep,processor,work,sent,received");
      have_header = true;
      continue;
    }
    if (fields.size() != columns)
      throw InputError(where, "has " + std::to_string(fields.size()) + " fields, expected " + std::to_string(columns) +
                                  " (superstep,processor,work,sent,received)");
    const auto field = [&](int k) -> const std::string& { return fields[static_cast<std::size_t>(column[k])]; };
    const double sd = model::parse_number(where, "superstep", field(0));
    if (sd < 0.0 || sd != std::floor(sd) || sd > 1e15)
      throw InputError(where, "field 'superstep': '" + field(0) + "' is not a whole number >= 0");
    const long superstep = static_cast<long>(sd);
    if (field(1).empty()) throw InputError(where, "field 'processor' is empty");
    const int j = m.resolve(field(1), p, where);
    double v[3];
    for (int k = 0; k < 3; ++k) {
      v[k] = model::parse_number(where, names[k + 2], field(k + 2));
      if (v[k] < 0.0) throw InputError(where, std::string("field '") + names[k + 2] + "': must be >= 0, got " + field(k + 2));
    }
    if (prog.steps.empty()) {
      prog.steps.push_back(empty_step(superstep, p));
    } else {
      const long last = prog.steps.back().number;
      if (superstep < last)
        throw InputError(where, "superstep " + std::to_string(superstep) + " after superstep " + std::to_string(last) +
                                    ": supersteps out of order", "list the rows by superstep");
      if (superstep > last + 1)
        throw InputError(where, "superstep " + std::to_string(superstep) + " after superstep " + std::to_string(last) +
                                    ": superstep " + std::to_string(last + 1) + " is missing",
                         "supersteps are consecutive; an idle one still needs a row (work 0)");
      if (superstep == last + 1) prog.steps.push_back(empty_step(superstep, p));
    }
    if (!seen.emplace(superstep, j).second)
      throw InputError(where, "a second row for processor " + m.processors[j].name + " in superstep " +
                                  std::to_string(superstep));
    auto& st = prog.steps.back();
    st.work[j] = v[0];
    st.sent[j] = v[1];
    st.received[j] = v[2];
  }
  if (in.bad()) throw InputError(source, "cannot read the program file");
  if (!have_header) throw InputError(source, "empty program: no header", "superstep,processor,work,sent,received");
  if (prog.steps.empty()) throw InputError(source, "the program has no supersteps");
  return prog;
}

Program load_program(const std::string& path, const model::Machine& m, int p) {
  std::ifstream in;
  open_or_throw(in, path, "the program file");
  return parse_program(in, path, m, p);
}

// ---- r_j traces ------------------------------------------------------------------------------

double ProcessorTrace::value_at(double clock, double before) const {
  if (at.empty() || clock < at.front()) return before;
  double z = clock;
  if (loop_after) {
    const double period = at.back() + *loop_after;
    const double y = clock - at.front();
    z = at.front() + (y - std::floor(y / period) * period);
    if (z >= at.front() + period) z = at.front();  // rounding at a period boundary
    if (z < at.front()) z = at.front();
  }
  const auto it = std::upper_bound(at.begin(), at.end(), z);  // first measurement after z
  return r[static_cast<std::size_t>(it - at.begin()) - 1];
}

Trace parse_trace(std::istream& in, const std::string& source, const model::Machine& m) {
  Trace trace;
  trace.source = source;
  trace.processors.resize(static_cast<std::size_t>(m.size()));
  int current = -1;
  int current_line = 0;
  bool clock_given = false, any_section = false;
  std::string line;
  int number = 0;
  const auto finish = [&](int at_line) {
    if (current < 0) return;
    const auto& t = *trace.processors[current];
    const std::string where = source + ":" + std::to_string(at_line);
    if (t.at.empty())
      throw InputError(where, "processor " + m.processors[current].name + " has no measurements",
                       "add lines 'CLOCK R' after its 'processor' line");
  };
  while (std::getline(in, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number);
    const auto t = model::tokens(line);
    if (t.empty()) continue;
    const std::string& key = t[0];
    if (key == "clock") {
      if (t.size() != 2) throw InputError(where, "'clock' takes one word: superstep or time");
      if (any_section) throw InputError(where, "'clock' must come before the first 'processor' line");
      if (clock_given) throw InputError(where, "a second 'clock' line");
      if (t[1] == "superstep") trace.clock = Clock::superstep;
      else if (t[1] == "time") trace.clock = Clock::time;
      else throw InputError(where, "field 'clock': '" + t[1] + "' is not superstep or time");
      clock_given = true;
    } else if (key == "processor") {
      if (t.size() != 2) throw InputError(where, "'processor' takes one name", "processor NAME");
      finish(current_line);
      const int j = m.index_of(t[1]);
      if (j < 0)
        throw InputError(where, "processor '" + t[1] + "' is not in the machine" +
                                    (m.source.empty() ? std::string() : " file " + m.source),
                         "trace only the machine's processors");
      if (trace.processors[j]) throw InputError(where, "a second section for processor " + t[1]);
      trace.processors[j].emplace();
      current = j;
      current_line = number;
      any_section = true;
    } else if (key == "LOOPAFTER" || key == "LOOP_AFTER") {
      if (current < 0) throw InputError(where, "'LOOPAFTER' before any 'processor' line");
      auto& pt = *trace.processors[current];
      if (t.size() != 2) throw InputError(where, "'LOOPAFTER' takes one number");
      if (pt.loop_after) throw InputError(where, "a second 'LOOPAFTER' for processor " + m.processors[current].name);
      if (pt.at.empty()) throw InputError(where, "'LOOPAFTER' before any measurement of " + m.processors[current].name);
      const double d = model::parse_number(where, "LOOPAFTER", t[1]);
      if (d < 0.0) throw InputError(where, "field 'LOOPAFTER': must be >= 0, got " + t[1]);
      if (!(pt.at.front() + d > 0.0))
        throw InputError(where, "LOOPAFTER 0 with a first measurement at 0 gives the last value no time",
                         "use a delay > 0");
      pt.loop_after = d;
    } else {
      if (current < 0)
        throw InputError(where, "a measurement before any 'processor' line", "start a section with 'processor NAME'");
      auto& pt = *trace.processors[current];
      if (pt.loop_after)
        throw InputError(where, "a measurement after LOOPAFTER", "LOOPAFTER ends the section of " + m.processors[current].name);
      if (t.size() != 2)
        throw InputError(where, t.size() < 2 ? "field 'r' is missing" : "too many fields", "a measurement is 'CLOCK R'");
      const char* clock_name = trace.clock == Clock::time ? "time" : "superstep";
      const double at = model::parse_number(where, clock_name, t[0]);
      if (at < 0.0) throw InputError(where, std::string("field '") + clock_name + "': must be >= 0, got " + t[0]);
      if (!pt.at.empty() && !(at > pt.at.back()))
        throw InputError(where, std::string(clock_name) + " " + t[0] + " after " + format_brief(pt.at.back()) +
                                    ": measurements out of order", "list them by increasing clock");
      const double r = model::parse_number(where, "r", t[1]);
      if (!(r > 0.0)) throw InputError(where, "field 'r' of " + m.processors[current].name + ": must be > 0, got " + t[1]);
      if (r < model::min_positive)
        throw InputError(where, "field 'r' of " + m.processors[current].name + ": '" + t[1] +
                                    "' is below the limit 1e-30");
      pt.at.push_back(at);
      pt.r.push_back(r);
    }
  }
  if (in.bad()) throw InputError(source, "cannot read the trace file");
  finish(current_line);
  if (!any_section) throw InputError(source, "the trace has no 'processor' section");
  return trace;
}

Trace load_trace(const std::string& path, const model::Machine& m) {
  std::ifstream in;
  open_or_throw(in, path, "the trace file");
  return parse_trace(in, path, m);
}

// ---- replay ----------------------------------------------------------------------------------

Replay replay(const model::Machine& m, const Program& program, model::CostForm form, const Trace* trace) {
  const int p = program.p;
  const model::SuperstepCoster cost(m, p, form);
  std::vector<double> r(static_cast<std::size_t>(p));
  Replay out;
  double clock_time = 0.0;
  for (const auto& st : program.steps) {
    for (int j = 0; j < p; ++j) {
      const double fixed = m.processors[j].r;
      if (trace && trace->traces(j)) {
        const double clock = trace->clock == Clock::time ? clock_time : static_cast<double>(st.number);
        r[j] = trace->processors[j]->value_at(clock, fixed);
      } else {
        r[j] = fixed;
      }
    }
    StepReplay s;
    s.number = st.number;
    s.start = clock_time;
    s.cost = cost(st.work, st.sent, st.received, r);
    clock_time += s.cost.total;
    // Every term is >= 0, so a finite running total means finite terms and sums.
    if (!std::isfinite(clock_time))
      throw_overflow(program, "the replay's cost up to superstep " + std::to_string(st.number));
    out.w += s.cost.w;
    out.gh += s.cost.gh;
    out.L += s.cost.L;
    out.steps.push_back(s);
  }
  out.total = clock_time;
  return out;
}

namespace {

// Statistics of one block of replications, merged in block order.
struct BlockStats {
  Accumulator total, gh;
  std::vector<Accumulator> step_gh, step_cost;
  std::vector<std::uint64_t> critical;  // steps x (p + 1): index 0 counts "none"

  void size(std::size_t steps, int p) {
    if (!step_gh.empty() || steps == 0) return;
    step_gh.resize(steps);
    step_cost.resize(steps);
    critical.assign(steps * static_cast<std::size_t>(p + 1), 0);
  }
  void merge(const BlockStats& o) {
    total.merge(o.total);
    gh.merge(o.gh);
    if (step_gh.empty()) {
      step_gh.resize(o.step_gh.size());
      step_cost.resize(o.step_cost.size());
      critical.assign(o.critical.size(), 0);
    }
    for (std::size_t i = 0; i < o.step_gh.size(); ++i) {
      step_gh[i].merge(o.step_gh[i]);
      step_cost[i].merge(o.step_cost[i]);
    }
    for (std::size_t k = 0; k < o.critical.size(); ++k) critical[k] += o.critical[k];
  }
};

// A uniform index in [0, count) from one 63-bit variate.
std::size_t draw_index(ProcessorStream& stream, std::size_t count) {
  const double u = std::ldexp(static_cast<double>(stream()), -63);  // [0, 1]
  return std::min(static_cast<std::size_t>(u * static_cast<double>(count)), count - 1);
}

}  // namespace

BootstrapReplay monte_carlo_replay(const model::Machine& m, const Program& program, model::CostForm form,
                                   const Trace& trace, const BootstrapOptions& options) {
  if (options.reps > max_bootstrap_reps)
    throw InputError("reps", std::to_string(options.reps) + " is more than the limit " +
                                 std::to_string(max_bootstrap_reps) + " (every total is kept for the quantiles)");
  for (const double q : options.quantile_levels)
    if (!(q >= 0.0 && q <= 1.0)) throw InputError("quantile", "levels are between 0 and 1, got " + format_brief(q));

  const int p = program.p;
  const std::size_t steps = program.steps.size();
  const model::SuperstepCoster cost(m, p, form);
  std::vector<const std::vector<double>*> values(static_cast<std::size_t>(p), nullptr);
  std::vector<double> fixed(static_cast<std::size_t>(p));
  for (int j = 0; j < p; ++j) {
    fixed[j] = m.processors[j].r;
    if (trace.traces(j)) values[j] = &trace.processors[j]->r;
  }

  std::vector<double> totals(options.reps);
  BlockStats all;
  all.size(steps, p);
  struct Buffers {
    std::vector<ProcessorStream> streams;
    std::vector<double> r;
  };
  compute_blocks<BlockStats>(
      options, BlockRange{0, block_count(options.reps)},
      [&] { return Buffers{std::vector<ProcessorStream>(static_cast<std::size_t>(p)), std::vector<double>(static_cast<std::size_t>(p))}; },
      [&](BlockStats& bs, std::uint64_t rep, Buffers& b) {
        bs.size(steps, p);
        for (int j = 0; j < p; ++j) b.streams[j].reset(options.seed, rep, static_cast<std::uint64_t>(j));
        double total = 0.0, gh = 0.0;
        for (std::size_t i = 0; i < steps; ++i) {
          for (int j = 0; j < p; ++j)
            b.r[j] = values[j] ? (*values[j])[draw_index(b.streams[j], values[j]->size())] : fixed[j];
          const auto& st = program.steps[i];
          const auto c = cost(st.work, st.sent, st.received, b.r);
          total += c.total;
          gh += c.gh;
          bs.step_gh[i].add(c.gh);
          bs.step_cost[i].add(c.total);
          ++bs.critical[i * static_cast<std::size_t>(p + 1) + static_cast<std::size_t>(c.comm_critical + 1)];
        }
        totals[rep] = total;  // each replication's own slot: no two threads write one
        bs.total.add(total);
        bs.gh.add(gh);
      },
      [&](std::span<const BlockStats> wave) {
        for (const auto& bs : wave) all.merge(bs);
      });

  // The replications' costs, and their spread, may overflow where the static replay's did not (r_j
  // drawn from the trace): checked before anything is returned.
  const auto require_finite = [&](const Estimate& e, const std::string& what) {
    const bool ok = std::isfinite(e.mean) && std::isfinite(e.min) && std::isfinite(e.max) &&
                    (!e.has_error() || (std::isfinite(e.stddev) && std::isfinite(e.stderr_) &&
                                        std::isfinite(e.ci_low) && std::isfinite(e.ci_high)));
    if (!ok) throw_overflow(program, "the Monte Carlo replay's " + what);
  };
  BootstrapReplay out;
  out.total = summarize(all.total);
  out.gh = summarize(all.gh);
  require_finite(out.total, "total cost");
  require_finite(out.gh, "g*h");
  // w and L do not depend on r_j: take them from one static replay.
  const Replay fixed_replay = replay(m, program, form);
  out.w = fixed_replay.w;
  out.L = fixed_replay.L;
  for (std::size_t i = 0; i < steps; ++i) {
    StepStatistics s;
    s.number = program.steps[i].number;
    s.w = fixed_replay.steps[i].cost.w;
    s.L = fixed_replay.steps[i].cost.L;
    s.gh = summarize(all.step_gh[i]);
    s.cost = summarize(all.step_cost[i]);
    require_finite(s.gh, "g*h of superstep " + std::to_string(s.number));
    require_finite(s.cost, "cost of superstep " + std::to_string(s.number));
    std::uint64_t best = 0;
    for (int j = 0; j < p; ++j) {
      const std::uint64_t count = all.critical[i * static_cast<std::size_t>(p + 1) + static_cast<std::size_t>(j + 1)];
      if (count > best) {
        best = count;
        s.modal_comm_critical = j;
      }
    }
    out.steps.push_back(s);
  }
  std::sort(totals.begin(), totals.end());
  out.quantile_levels = options.quantile_levels;
  for (const double q : options.quantile_levels) out.quantiles.push_back(quantile_sorted(totals, q));
  return out;
}

}  // namespace hetstruct::engine::hbsp
