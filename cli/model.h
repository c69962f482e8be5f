// The model options shared by `simulate`, `bounds` and `table`, and what they build: a structure
// and the closed form, where one exists, of its expected makespan.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "bounds/communication_bounds.h"
#include "engine/plan.h"
#include "structures/structure.h"

namespace hetstruct::cli {

struct ModelOptions {
  std::string structure;       // async, sync, nn, ms (empty with --graph)
  std::string graph;           // a DOT file instead of --structure
  int width = 0;               // --n
  int fast_count = 0;          // --m
  std::string scale = "1/2";   // --a, text so that fractions work
  std::string law = "uniform"; // uniform, normal, or a law in the law syntax
  std::string fast_law;        // overrides a*law on the fast processors
  int levels = 1000;           // --levels (p)
  std::string exchange = "sequential";  // nearest-neighbour exchange rule (zero communication)
  std::string comm = "0";      // C, the time of one communication (text: fractions work)
  std::string protocol;        // communication protocol; empty: the structure's default
  std::string policy;          // master-slave dealing policy; empty: dynamic
  bool memory_check = true;    // refuse a model larger than the available memory (cli/resources.h)

  // Wilson's (n, m) model of a structure: n - m processors draw `law`, m draw `scale` * `law`.
  static ModelOptions wilson(std::string structure, int n, int m, std::string scale, std::string law, int levels,
                             double comm = 0.0);

  // Registers the options on a subcommand.
  void add_to(CLI::App& app, bool structure_required);

  // The law the options name: `uniform` is u(0,1), `normal` is n(1/2,1/12) (Wilson's pair).
  distributions::Law slow_law() const;
  distributions::Law fast_law_value() const;
  double scale_value() const;
  // Validates everything and builds the structure; refuses one that would not fit in memory
  // unless memory_check is off. Throws InputError.
  structures::Structure build() const;
  structures::Structure build(structures::StructureKind kind) const;
  double comm_value() const;
  // The plan's compile options: C, protocol and policy.
  engine::CompileOptions compile_options() const;
  // True for Wilson's uniform setting: u(0,1) slow and a*u(0,1) fast (where Eq. 1-7 apply).
  bool is_paper_uniform() const;
};

// A closed-form expected makespan and how it was obtained.
struct ClosedForm {
  double value;
  std::string method;  // eq6, quadrature, normal_exact, normal_approx
};

// The closed form of a structure's expected makespan at zero communication, where one exists:
// synchronous (Eq. 6 for Wilson's uniform setting, quadrature for any laws), asynchronous
// (exact for normal laws, the normal approximation otherwise). None for nn, ms and DAGs.
std::optional<ClosedForm> closed_form(const structures::Structure& s, bool paper_uniform, double scale);

// Wilson's Section 5 bounds at communication cost `comm` (Eq. 11 sync, Eq. 12 nn, Eq. 13/17 ms),
// each on its zero-communication expectation: the closed form for sync, `nn_zero_comm_mean` (a
// simulation: E(nn) has no closed form) for nn, the laws for ms. None for async and DAGs.
std::optional<bounds::Bounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                          double comm, double nn_zero_comm_mean);

}  // namespace hetstruct::cli
