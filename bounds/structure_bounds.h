// Closed forms and Wilson's Section 5 bounds per structure, with their method labels decided here
// and nowhere else: what `simulate`, `bounds`, `sweep`, `table` and `figure` print beside the
// simulation. Nothing here samples: E(nn) has no closed form, so its bounds take a simulated
// zero-communication mean from the caller.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bounds/communication_bounds.h"
#include "structures/structure.h"

namespace hetstruct::bounds {

// A closed-form expected makespan and how it was obtained.
struct ClosedForm {
  double value;
  std::string method;  // eq6, quadrature, normal_exact, cf_inversion, constant, normal_approx
};

// The closed form of a structure's expected makespan at zero communication, where one exists:
// synchronous (Eq. 6 for Wilson's uniform setting, quadrature for any laws), asynchronous
// (exact for normal laws, the normal approximation otherwise). None for nn, ms and DAGs.
std::optional<ClosedForm> closed_form(const structures::Structure& s, bool paper_uniform, double scale);

// Wilson's Section 5 bounds and the equations they come from.
struct StructureBounds {
  Bounds bounds;
  std::string method;  // eq11_coordinator, simulated+eq12, eq13, eq13+eq17
};

// The bounds at communication cost `comm` (Eq. 11 sync, Eq. 12 nn, Eq. 13/17 ms), each on its
// zero-communication expectation: the closed form for sync, `nn_zero_comm_mean` (a simulation)
// for nn, the laws for ms. None for async (it never communicates) and DAGs.
std::optional<StructureBounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean);

// What `bounds` prints for a structure: each closed form or approximation that applies, with the
// equation it comes from, and Wilson's bounds at C beside the mean they build on.
struct Quantity {
  std::string quantity;  // level_max, level_max_approx, ..., mean, zero_comm_mean
  std::string method;
  double value;          // NaN where the structure has no such value (ms: bounds only)
  std::optional<StructureBounds> bounds;
};

// At C > 0 the mean the bounds build on is the zero-communication one, and says so
// (`zero_comm_mean`). E(nn) has no closed form: `nn_zero_comm_mean` is the caller's simulation.
std::vector<Quantity> structure_quantities(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean);

}  // namespace hetstruct::bounds
