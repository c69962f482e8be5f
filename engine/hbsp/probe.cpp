// The probe's model: the compute kernel, and the machine file and r_j trace from the timings.
#include "engine/hbsp/probe.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bounds/hbsp/model.h"
#include "distributions/format.h"
#include "distributions/input_error.h"

namespace hetstruct::engine::hbsp {

namespace {

using bounds::hbsp::kilobyte;  // as a replay reads a size of 100KB
constexpr double us = 1e6;           // the machine file's time unit per second

// Six significant digits: more than the measurements carry. A ratio >= 1 stays >= 1.
std::string sig(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

void check_time(double t, const std::string& what) {
  if (!(t > 0.0) || !std::isfinite(t))
    throw InputError("measurements", what + " took " + distributions::format_exact(t) + " s, not a positive time");
}

std::string kb_text(const ProbePlan& plan) { return sig(static_cast<double>(plan.message_bytes) / kilobyte) + " KB"; }

}  // namespace

std::uint64_t probe_kernel(std::vector<std::uint32_t>& scratch) {
  scratch.resize(probe_kernel_items);
  std::uint32_t x = 2463534242u;  // Marsaglia's xorshift32 seed
  for (auto& v : scratch) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v = x;
  }
  std::sort(scratch.begin(), scratch.end());
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < scratch.size(); i += 97) sum = sum * 31 + scratch[i];
  return sum;
}

std::string probe_processor_name(const std::string& host, int rank) {
  std::string name = host.empty() ? std::string("rank") : host;
  for (char& ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '#' || ch == '=' || std::isspace(u) || !std::isprint(u)) ch = '_';
  }
  return name + ":" + std::to_string(rank);
}

ProbeMachine summarise_probe(const ProbePlan& plan, const ProbeMeasurements& m) {
  const std::size_t P = m.names.size();
  if (P == 0 || m.rounds.empty()) throw InputError("measurements", "no rank or no round was measured");
  ProbeMachine out;
  out.send.resize(P);
  out.kernel.resize(P);
  out.latency.resize(P);
  for (std::size_t k = 0; k < m.rounds.size(); ++k) {
    const auto& round = m.rounds[k];
    if (round.send.size() != P || round.kernel.size() != P || round.barrier.size() != P)
      throw InputError("measurements",
                       "round " + std::to_string(k + 1) + " does not measure " + std::to_string(P) + " ranks");
    for (std::size_t j = 0; j < P; ++j) {
      check_time(round.send[j], "sending from " + m.names[j]);
      check_time(round.kernel[j], "the kernel on " + m.names[j]);
      check_time(round.barrier[j], "a barrier on " + std::to_string(j + 1) + " ranks");
    }
  }
  auto over_rounds = [&](auto field, std::size_t j) {
    std::vector<double> x;
    for (const auto& round : m.rounds) x.push_back((round.*field)[j] * us);
    return median(std::move(x));
  };
  for (std::size_t j = 0; j < P; ++j) {
    out.send[j] = over_rounds(&ProbeRound::send, j);
    out.kernel[j] = over_rounds(&ProbeRound::kernel, j);
    out.latency[j] = over_rounds(&ProbeRound::barrier, j);
  }
  const double fastest = *std::min_element(out.send.begin(), out.send.end());
  const double slowest = *std::max_element(out.kernel.begin(), out.kernel.end());
  out.fastest_sender = static_cast<int>(std::min_element(out.send.begin(), out.send.end()) - out.send.begin());
  double speeds = 0.0;
  for (std::size_t j = 0; j < P; ++j) {
    out.r.push_back(out.send[j] / fastest);  // exactly 1 for the fastest
    out.index.push_back(slowest / out.kernel[j]);
    speeds += out.index.back();
  }
  for (const double c : out.index) out.share.push_back(c / speeds);
  out.g = fastest / static_cast<double>(plan.message_bytes);
  return out;
}

std::vector<std::vector<double>> probe_trace_r(const ProbeMeasurements& m) {
  std::vector<std::vector<double>> r;
  for (const auto& round : m.rounds) {
    const double fastest = *std::min_element(round.send.begin(), round.send.end());
    auto& row = r.emplace_back();
    for (const double s : round.send) row.push_back(s / fastest);
  }
  return r;
}

std::string probe_machine_text(const ProbePlan& plan, const ProbeMeasurements& m, const std::string& provenance) {
  const ProbeMachine s = summarise_probe(plan, m);
  const std::size_t P = m.names.size();
  // The numbers as sig() prints them, so the file holds what it says.
  const auto brief = [](double x) { return std::stod(sig(x)); };
  bounds::hbsp::Machine machine;
  machine.time_unit = "us";
  machine.packet_unit = "byte";
  machine.g = brief(s.g);
  for (std::size_t p = 1; p <= P; ++p) machine.latency_by_p[static_cast<int>(p)] = brief(s.latency[p - 1]);
  bounds::hbsp::MachineComments comments;
  for (std::size_t j = 0; j < P; ++j) {
    machine.processors.push_back({m.names[j], brief(s.r[j]), brief(s.index[j])});
    comments.processors.push_back("send " + sig(s.send[j]) + " us/message, kernel " + sig(s.kernel[j]) +
                                  " us, share " + sig(s.share[j]));
  }
  std::ostringstream header;
  header << "hetstruct hbsp probe: " << provenance << "\n"
      << "Measured under mpirun on " << P << (P == 1 ? " rank" : " ranks") << ", " << m.rounds.size()
      << (m.rounds.size() == 1 ? " round" : " rounds") << " (interval " << sig(plan.interval)
      << " s), each quantity the median of " << plan.repeats << " repetitions;\n"
      << "below, the median over the rounds (Williams & Parsons 2001, Section 4.4, measured by program):\n"
      << "  r      time for the rank to send a " << kb_text(plan)
      << " message to each other rank in turn (one sender at a time),\n"
      << "         relative to the fastest sender (r = 1)\n"
      << "  index  speed on a fixed kernel (sorting " << probe_kernel_items
      << " integers) relative to the slowest rank (HBSP's c_j);\n"
      << "         HBSP^1's c_j, the share of the data, is index / (sum of the indices of the p ranks used)\n"
      << "  g      the fastest sender's time per byte\n"
      << "  L p=P  one MPI_Barrier (an empty superstep) on the first P ranks, the mean of "
      << probe_barriers_per_sample << " in a row\n";
  if (P == 1) header << "One rank: g is MPI's copy to the same rank, not a network.\n";
  header << "Format: bounds/hbsp/model.h. Replay it with hetstruct hbsp replay, this machine and the trace beside it.";
  std::istringstream lines(header.str());
  for (std::string line; std::getline(lines, line);) comments.header.push_back(line);
  return bounds::hbsp::machine_text(machine, comments);
}

std::string probe_trace_text(const ProbePlan& plan, const ProbeMeasurements& m, const std::string& provenance) {
  summarise_probe(plan, m);  // the same checks as the machine file's
  const auto r = probe_trace_r(m);
  const std::size_t P = m.names.size();
  // Clocks strictly increasing, as the format requires: time in us to 0.1 us.
  std::vector<double> clock;
  for (std::size_t k = 0; k < m.rounds.size(); ++k) {
    double c = plan.time_clock ? std::round(m.rounds[k].start * us * 10.0) / 10.0 : static_cast<double>(k);
    if (k == 0) c = 0.0;
    else if (!(c > clock.back())) c = clock.back() + (plan.time_clock ? 0.1 : 1.0);
    clock.push_back(c);
  }
  std::ostringstream out;
  out << "# hetstruct hbsp probe: " << provenance << "\n"
      << "# r_j of " << P << (P == 1 ? " rank" : " ranks") << " over " << m.rounds.size()
      << (m.rounds.size() == 1 ? " round" : " rounds") << " (interval " << sig(plan.interval)
      << " s): the round's time to send a " << kb_text(plan) << "\n"
      << "# message to each other rank (median of " << plan.repeats
      << "), relative to the round's fastest sender (r = 1).\n"
      << (plan.time_clock ? "# Clock: the round's start in us after the first round's start.\n"
                          : "# Clock: round k (0, 1, ...) at superstep k.\n")
      << "# Format: engine/hbsp/replay.h.\n"
      << "clock " << (plan.time_clock ? "time" : "superstep") << "\n";
  for (std::size_t j = 0; j < P; ++j) {
    out << "\nprocessor " << m.names[j] << "\n";
    for (std::size_t k = 0; k < r.size(); ++k) out << distributions::format_exact(clock[k]) << ' ' << sig(r[k][j]) << "\n";
  }
  return out.str();
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

}  // namespace hetstruct::engine::hbsp
