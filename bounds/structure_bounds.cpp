#include "bounds/structure_bounds.h"

#include <cmath>

#include "bounds/closed_forms.h"

namespace hetstruct::bounds {

using structures::StructureKind;

std::optional<ClosedForm> closed_form(const structures::Structure& s, bool paper_uniform, double scale) {
  switch (s.kind) {
    case StructureKind::synchronous:
      if (paper_uniform) return ClosedForm{synchronous_uniform_mean(s.width, s.fast_count, scale, s.levels), "eq6"};
      return ClosedForm{synchronous_mean(s.laws, s.levels), "quadrature"};
    case StructureKind::asynchronous: {
      const auto m = asynchronous_mean(s.laws, s.levels);
      return ClosedForm{m.value, m.method};
    }
    default: return std::nullopt;
  }
}

std::optional<StructureBounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean) {
  switch (s.kind) {
    case StructureKind::synchronous:
      // Eq. 11's upper bound is the coordinator reading's exact mean ((n+1)C + max X a level); the
      // default initiator-collector protocol (reading 4), which fits the tables better, may exceed it at large
      // C. The label says which reading the bound is for.
      return StructureBounds{
          synchronous_bounds(closed_form(s, paper_uniform, scale)->value, s.width, s.levels, comm), "eq11_coordinator"};
    case StructureKind::nearest_neighbor:
      return StructureBounds{neighbor_bounds(nn_zero_comm_mean, s.width, s.levels, comm), "simulated+eq12"};
    case StructureKind::master_slave:
      if (s.width < 2) return std::nullopt;  // Eq. 13 counts n - 1 slaves: none here
      // Eq. 17's lower bound needs both speeds (0 < m < n); otherwise Eq. 13's.
      return StructureBounds{master_slave_bounds(s.laws, s.fast_count, s.levels, comm),
                             0 < s.fast_count && s.fast_count < s.width ? "eq13+eq17" : "eq13"};
    default: return std::nullopt;
  }
}

std::vector<Quantity> structure_quantities(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean) {
  std::vector<Quantity> q;
  const char* mean = comm > 0.0 ? "zero_comm_mean" : "mean";
  switch (s.kind) {
    case StructureKind::synchronous: {
      if (paper_uniform) {
        const int n = s.width, m = s.fast_count, p = s.levels;
        q.push_back({"level_max", "eq3", uniform_max_mean(n, m, scale), {}});
        q.push_back({"level_max_approx", "eq4", uniform_max_mean_approx(n, m), {}});
        q.push_back({"level_max_homogeneous", "eq5", homogeneous_uniform_max_mean(n), {}});
        q.push_back({"mean_approx", "eq7", synchronous_uniform_mean_approx(n, m, p), {}});
      }
      q.push_back({"level_max", "quadrature", expected_max(s.laws), {}});
      const auto closed = closed_form(s, paper_uniform, scale);
      const auto b = comm_bounds(s, paper_uniform, scale, comm, 0.0);
      q.push_back({mean, closed->method + "+" + b->method, closed->value, b});
      break;
    }
    case StructureKind::asynchronous: {
      const auto closed = closed_form(s, false, scale);
      q.push_back({"mean", closed->method, closed->value, {}});  // C does not touch it (Wilson 5.1)
      break;
    }
    case StructureKind::nearest_neighbor: {
      const auto b = comm_bounds(s, false, scale, comm, nn_zero_comm_mean);
      q.push_back({mean, b->method, nn_zero_comm_mean, b});
      break;
    }
    case StructureKind::master_slave: {
      // No closed form; Eq. 13/17 bound it when there is a slave. With none, the row says so.
      const auto b = comm_bounds(s, false, scale, comm, 0.0);
      q.push_back({"mean", b ? b->method : "none", std::nan(""), b});
      break;
    }
    case StructureKind::custom: break;
  }
  return q;
}

}  // namespace hetstruct::bounds
