#include "bounds/structure_bounds.h"

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
      return ClosedForm{m.value, m.exact ? "normal_exact" : "normal_approx"};
    }
    default: return std::nullopt;
  }
}

std::optional<StructureBounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                           double comm, double nn_zero_comm_mean) {
  switch (s.kind) {
    case StructureKind::synchronous:
      return StructureBounds{
          synchronous_bounds(closed_form(s, paper_uniform, scale)->value, s.width, s.levels, comm), "eq11"};
    case StructureKind::nearest_neighbor:
      return StructureBounds{neighbor_bounds(nn_zero_comm_mean, s.width, s.levels, comm), "simulated+eq12"};
    case StructureKind::master_slave:
      // Eq. 17's lower bound needs both speeds (0 < m < n); otherwise Eq. 13's.
      return StructureBounds{master_slave_bounds(s.laws, s.fast_count, s.levels, comm),
                             0 < s.fast_count && s.fast_count < s.width ? "eq13+eq17" : "eq13"};
    default: return std::nullopt;
  }
}

}  // namespace hetstruct::bounds
