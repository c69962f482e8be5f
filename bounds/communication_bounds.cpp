#include "bounds/communication_bounds.h"

#include <algorithm>
#include <cmath>

#include "bounds/closed_forms.h"
#include "distributions/input_error.h"

namespace hetstruct::bounds {

namespace {

void require(int width, int levels, double comm) {
  if (width < 1) throw InputError("width", "the width must be at least 1");
  if (levels < 1) throw InputError("levels", "must be at least 1");
  if (!(comm >= 0.0)) throw InputError("comm_cost", "the communication cost must be >= 0");
}

}  // namespace

Bounds synchronous_bounds(double zero_comm_mean, int width, int levels, double comm) {
  require(width, levels, comm);
  return {zero_comm_mean + 2.0 * levels * comm, zero_comm_mean + (width + 1.0) * levels * comm};
}

Bounds neighbor_bounds(double zero_comm_mean, int width, int levels, double comm) {
  require(width, levels, comm);
  return {zero_comm_mean + 2.0 * levels * comm, zero_comm_mean + comm * (2.0 * width + 6.0 * (levels - 1.0))};
}

Split proportional_split(int width, int fast_count, int levels, double slow_mean, double fast_mean, double comm) {
  require(width, levels, comm);
  if (fast_count < 1 || fast_count >= width)
    throw InputError("fast_count", "the speed-proportional split needs 0 < m < n");
  const double n = width, m = fast_count, p = levels;
  const double slow_cost = slow_mean + 2.0 * comm, fast_cost = fast_mean + 2.0 * comm;
  // Eq. 16, with the laws' means in place of 1/2 and a/2.
  const double y = std::ceil((n * p / (n - m)) * slow_cost / ((m / (n - m)) * slow_cost + fast_cost));
  const double x = std::ceil((n * p - m * y) / (n - m));
  return {static_cast<long>(x), static_cast<long>(y)};
}

Bounds master_slave_bounds(const std::vector<distributions::Law>& laws, int fast_count, int levels, double comm) {
  const int width = static_cast<int>(laws.size());
  require(width, levels, comm);
  if (width < 2) throw InputError("width", "a master-slave structure needs a master and at least one slave");
  // The slow law is the last processor's (processors 0..m-1 are the fast ones).
  const distributions::Law& slow = laws.back();
  const int slaves = width - 1;
  const long tasks_each = (static_cast<long>(width) * levels + slaves - 1) / slaves;  // p' = ceil(np/(n-1))
  const double async_prime =
      asynchronous_mean(std::vector<distributions::Law>(slaves, slow), static_cast<int>(tasks_each)).value;
  const double upper = async_prime + 2.0 * slaves * static_cast<double>(tasks_each) * comm;
  double lower;
  if (fast_count == 0 || fast_count == width) {  // one speed: Eq. 13's lower bound
    lower = asynchronous_mean(laws, levels).value + 2.0 * levels * comm;
  } else {
    const double slow_mean = slow.mean(), fast_mean = laws.front().mean();
    const Split s = proportional_split(width, fast_count, levels, slow_mean, fast_mean, comm);
    lower = std::max(s.slow_tasks * (slow_mean + 2.0 * comm), s.fast_tasks * (fast_mean + 2.0 * comm));
  }
  return {lower, upper};
}

}  // namespace hetstruct::bounds
