// Zhang and Yan's measures of a heterogeneous network (heterogeneous-now-metrics-zhang-yan-1995):
// power weights, heterogeneity, and the speedup and efficiency they imply. Pure functions of
// speeds and measured times; nothing here samples.
#pragma once

#include <vector>

namespace hetstruct::bounds {

// Eq. 1-2: W_j = S_j / max S, from the mean task time of each processor (S_j = 1 / E(X_j)).
// Throws InputError when a mean is not > 0.
std::vector<double> power_weights(const std::vector<double>& mean_task_times);

// Eq. 4: H = sum_j (1 - W_j) / n over the n processors (the paper calls its workstation count m;
// here m is Wilson's fast count, so the width is n).
double heterogeneity(const std::vector<double>& power_weights);

// Property 1 (Eq. 6): SP = P_deg (1 - H), exact when every processor is busy equally long.
double property_speedup(double parallelism_degree, double heterogeneity);

// Eq. 14, a dedicated network: E = SP / sum_j W_j.
double efficiency(double speedup, const std::vector<double>& power_weights);

}  // namespace hetstruct::bounds
