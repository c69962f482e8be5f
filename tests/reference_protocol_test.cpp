// The protocols made faster (issue 11) against their frozen implementations
// (tests/reference/reference_protocols.cpp): the same makespan bit for bit, and the same busy times, on
// random configurations that reach every path: widths on both sides of the event queues' sizes,
// laws drawn through each specialised draw and through the general Sampler, negative task times
// (early events), discrete laws and constant times (exact ties everywhere), C = 0 and C > 0.
#include <cmath>
#include <cstdint>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/law.h"
#include "tests/reference/reference_protocols.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"

namespace reference_protocol_test {

namespace {

using hetstruct::distributions::Law;
using namespace hetstruct::engine;
using namespace hetstruct::structures;

// Laws that take every path: the uniform and normal fast draws (one with ~40% negative times), a
// uniform reaching below zero, the general Sampler (truncated normal, mixtures), and discrete laws
// whose ties the event order must break exactly as the reference does, negative values included.
std::vector<Law> laws() {
  return {Law::paper_uniform(),
          Law::paper_normal(),
          Law::normal(0.5, 4.0),
          Law::uniform(-1.0, 2.0),
          Law::truncated_normal(0.5, 1.0 / 12.0),
          Law::constant(1.0),
          Law::mixture({{0.5, Law::constant(1.0)}, {0.5, Law::constant(2.0)}}),
          Law::mixture({{0.25, Law::constant(-0.5)}, {0.25, Law::constant(0.0)}, {0.5, Law::constant(1.0)}}),
          Law::mixture({{0.5, Law::paper_uniform()}, {0.5, Law::constant(0.5)}})};
}

struct Config {
  int width, fast, levels;
  double scale, comm;
  Law law;
};

std::string describe(const Config& c) {
  return "n = " + std::to_string(c.width) + ", m = " + std::to_string(c.fast) + ", levels = " +
         std::to_string(c.levels) + ", a = " + std::to_string(c.scale) + ", C = " + std::to_string(c.comm) +
         ", law " + c.law.to_string();
}

// Random configurations, the same every run.
std::vector<Config> configs(int count) {
  std::mt19937_64 rng(20261124);
  const std::vector<int> widths = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 33, 34, 40};
  const std::vector<double> costs = {0.0, 0.0, 0.025, 0.1, 0.25, 0.5, 1.0};
  const std::vector<double> scales = {0.5, 2.0 / 3.0, 0.8, 1.0};
  const auto all_laws = laws();
  auto pick = [&rng](const auto& v) { return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)]; };
  std::vector<Config> out;
  for (int k = 0; k < count; ++k) {
    Config c{pick(widths), 0, pick(std::vector<int>{1, 2, 5, 30}), pick(scales), pick(costs), pick(all_laws)};
    c.fast = std::uniform_int_distribution<int>(0, c.width)(rng);
    out.push_back(c);
  }
  return out;
}

void check_against_reference(const std::string& structure, const std::string& protocol, int count, int reps) {
  for (const auto& c : configs(count)) {
    const auto procs = heterogeneous(c.width, c.fast, c.scale, c.law);
    const Structure s = structure == "nn"     ? nearest_neighbor(procs, c.levels)
                        : structure == "sync" ? synchronous(procs, c.levels)
                                              : master_slave(procs, c.levels);
    CompileOptions options;
    options.comm_cost = c.comm;
    options.protocol = &find_protocol(s.kind, protocol);
    const Plan plan = compile(s, options);
    Workspace current(plan), frozen(plan);
    frozen.protocol = make_reference_protocol(structure, protocol, plan.comm);
    INFO(structure << " " << protocol << ", " << describe(c));
    for (std::uint64_t rep = 0; rep < static_cast<std::uint64_t>(reps); ++rep) {
      const std::uint64_t seed = 1 + rep % 3;
      REQUIRE(evaluate(plan, seed, rep, current) == evaluate(plan, seed, rep, frozen));
      // The busy-time path draws through the general Sampler: the same bits, the same busy times.
      REQUIRE(evaluate_busy(plan, seed, rep, current) == evaluate_busy(plan, seed, rep, frozen));
      REQUIRE(current.busy == frozen.busy);
    }
  }
}

// Both nn protocols against their frozen implementations on `configs`, replication by replication
// from `seed`: `reps` replications a configuration, `long_reps` at 1000 levels.
void check_nn_against_frozen(const std::vector<Config>& configs, std::uint64_t seed, std::uint64_t reps,
                             std::uint64_t long_reps) {
  for (const auto& protocol : reference_protocol_names("nn"))
    for (const Config& c : configs) {
      const Structure s = nearest_neighbor(heterogeneous(c.width, c.fast, c.scale, c.law), c.levels);
      CompileOptions options;
      options.comm_cost = c.comm;
      options.protocol = &find_protocol(StructureKind::nearest_neighbor, protocol);
      const Plan plan = compile(s, options);
      Workspace current(plan), frozen(plan);
      frozen.protocol = make_reference_protocol("nn", protocol, plan.comm);
      INFO(protocol << ", " << describe(c));
      for (std::uint64_t rep = 0; rep < (c.levels == 1000 ? long_reps : reps); ++rep)
        REQUIRE(evaluate(plan, seed, rep, current) == evaluate(plan, seed, rep, frozen));
    }
}

}  // namespace

TEST_CASE("event-available and event-commit equal their frozen implementations bit for bit", "[nn-protocol]") {
  for (const auto& protocol : reference_protocol_names("nn")) check_against_reference("nn", protocol, 400, 4);
}

// The level sweep (neighbor.cpp) runs uniform and normal laws at C > 0 and hands a level to the
// event loop when a tie needs the event order: laws that keep it on the sweep, that make early
// events (negative times), and that tie everywhere (two values, 1 and the next double);
// odd and even widths on both sides of the queues' sizes, no fast and all fast processors, one and
// two levels (no exchange, one round), and the tables' (8,3) and (16,8) at 1000 levels.
TEST_CASE("event-available and event-commit equal their frozen implementations on the level sweep's configurations",
          "[nn-protocol]") {
  const std::vector<Law> uniform_laws = {Law::paper_uniform(), Law::uniform(0.25, 0.5), Law::uniform(-0.1, 1.0),
                                         Law::uniform(1.0, std::nextafter(1.0, 2.0))};
  std::vector<Config> sweep_configs;
  std::mt19937_64 rng(20261127);
  for (const int width : {1, 2, 3, 4, 5, 6, 7, 9, 16, 17, 33})
    for (const int levels : {1, 2, 7})
      for (const Law& law : uniform_laws) {
        const int fast = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 0 : width;  // m = 0 or m = n
        sweep_configs.push_back({width, fast, levels, 0.5, 0.1, law});
        sweep_configs.push_back({width, width / 2, levels, 2.0 / 3.0, levels == 7 ? 1.0 : 0.025, law});
      }
  for (const auto& [n, m] : {std::pair{8, 3}, std::pair{16, 8}}) sweep_configs.push_back({n, m, 1000, 0.5, 0.1, Law::paper_uniform()});
  check_nn_against_frozen(sweep_configs, 7, 6, 3);
}

// Negative task times on the level sweep (neighbor.cpp, "The level sweep"): finishes before
// their start events, exchanges ending before the event that began them, and the event runs of
// single levels where keys tie, for normal and uniform laws with a large negative mass (a tenth
// to a half of the draws), the paper's normal law at the tables' (8,3) and (16,8), widths on both
// sides of the queues' sizes, costs from small to large against the spread of the times.
TEST_CASE("event-available and event-commit equal their frozen implementations with negative task times",
          "[nn-protocol]") {
  const std::vector<Law> negative_laws = {Law::paper_normal(),        Law::normal(0.5, 1.0 / 3.0), Law::normal(0.0, 1.0),
                                          Law::normal(0.2, 0.04),     Law::uniform(-1.0, 2.0),     Law::uniform(-0.5, 0.6)};
  std::vector<Config> negative_configs;
  std::mt19937_64 rng(20261128);
  for (const int width : {2, 3, 4, 5, 8, 9, 16, 17, 33})
    for (const Law& law : negative_laws)
      for (const double comm : {0.01, 0.1, 0.5}) {
        const int fast = std::uniform_int_distribution<int>(0, width)(rng);
        negative_configs.push_back({width, fast, 40, std::uniform_int_distribution<int>(0, 1)(rng) ? 0.5 : 1.0, comm, law});
      }
  for (const auto& [n, m] : {std::pair{8, 3}, std::pair{16, 8}}) negative_configs.push_back({n, m, 1000, 0.5, 0.1, Law::paper_normal()});
  check_nn_against_frozen(negative_configs, 11, 12, 4);
}

TEST_CASE("initiator-collector protocols received first come first served equal the greedy port bit for bit",
          "[sync-protocol]") {
  // Widths on both sides of the ranked order (32 messages), ties from discrete laws and negative
  // times: the level's end and who is received last must come out the same.
  for (const auto& protocol : reference_protocol_names("sync")) check_against_reference("sync", protocol, 300, 3);
}

TEST_CASE("only the kept protocols have a frozen implementation", "[nn-protocol]") {
  REQUIRE(reference_protocol_names("nn") == std::vector<std::string>{"event-available", "event-commit"});
  REQUIRE(reference_protocol_names("sync").size() == 8);  // the initiator-collector family, reading 4 included
  CommSetup setup{4, 1, 10, 0.1, {1.0, 1.0, 1.0, 1.0}};
  REQUIRE_THROWS(make_reference_protocol("nn", "plain", setup));
  REQUIRE_THROWS(make_reference_protocol("sync", "coordinator", setup));
  REQUIRE_THROWS(make_reference_protocol("async", "event-available", setup));
}

}  // namespace reference_protocol_test
