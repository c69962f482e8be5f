#include "bounds/heterogeneity.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "distributions/input_error.h"

namespace hetstruct::bounds {

std::vector<double> power_weights(const std::vector<double>& mean_task_times) {
  if (mean_task_times.empty()) throw InputError("metrics", "no processors");
  for (const double t : mean_task_times)
    if (!(t > 0.0) || !std::isfinite(t))
      throw InputError("metrics", "power weights need every processor's mean task time > 0",
                       "a processor's speed is 1 / E(X)");
  const double fastest = *std::min_element(mean_task_times.begin(), mean_task_times.end());
  std::vector<double> w;
  for (const double t : mean_task_times) w.push_back(fastest / t);  // Eq. 2: min T / T_j
  return w;
}

double heterogeneity(const std::vector<double>& w) {
  double sum = 0.0;
  for (const double x : w) sum += 1.0 - x;
  return sum / static_cast<double>(w.size());
}

double property_speedup(double parallelism_degree, double h) { return parallelism_degree * (1.0 - h); }

double efficiency(double speedup, const std::vector<double>& w) {
  return speedup / std::accumulate(w.begin(), w.end(), 0.0);
}

}  // namespace hetstruct::bounds
