// Closed forms and Wilson's Section 5 bounds per structure, with their method labels decided here
// and nowhere else: what `simulate`, `bounds`, `sweep`, `table` and `figure` print beside the
// simulation. Nothing here samples: E(nn) has no closed form, so its bounds take a simulated
// zero-communication mean from the caller.
#pragma once

#include <optional>
#include <string>

#include "bounds/communication_bounds.h"
#include "structures/structure.h"

namespace hetstruct::bounds {

// A closed-form expected makespan and how it was obtained.
struct ClosedForm {
  double value;
  std::string method;  // eq6, quadrature, normal_exact, normal_approx
};

// The closed form of a structure's expected makespan at zero communication, where one exists:
// synchronous (Eq. 6 for Wilson's uniform setting, quadrature for any laws), asynchronous
// (exact for normal laws, the normal approximation otherwise). None for nn, ms and DAGs.
std::optional<ClosedForm> closed_form(const structures::Structure& s, bool paper_uniform, double scale);

// Wilson's Section 5 bounds and the equations they come from.
struct StructureBounds {
  Bounds bounds;
  std::string method;  // eq11, simulated+eq12, eq13, eq13+eq17
};

// The bounds at communication cost `comm` (Eq. 11 sync, Eq. 12 nn, Eq. 13/17 ms), each on its
// zero-communication expectation: the closed form for sync, `nn_zero_comm_mean` (a simulation)
// for nn, the laws for ms. None for async (it never communicates) and DAGs.
std::optional<StructureBounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean);

}  // namespace hetstruct::bounds
