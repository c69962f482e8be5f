#include "bounds/control_means.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "bounds/closed_forms.h"
#include "distributions/input_error.h"

namespace hetstruct::bounds {

std::vector<double> processor_sum_means(const std::vector<distributions::Law>& laws,
                                        const std::vector<std::uint64_t>& counts) {
  std::vector<double> means(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) means[i] = static_cast<double>(counts[i]) * laws.at(i).mean();
  return means;
}

std::vector<double> processor_power_means(const std::vector<distributions::Law>& laws,
                                          const std::vector<std::uint64_t>& counts, int max_power) {
  if (max_power > 3) throw InputError("max_power", "central moments are kept up to the third");
  std::vector<double> means;
  for (int d = 2; d <= max_power; ++d)
    for (std::size_t i = 0; i < counts.size(); ++i) {
      const auto& law = laws.at(i);
      const auto moment = d == 2 ? std::optional<double>(law.variance()) : law.third_central_moment();
      if (!moment) throw InputError("law", "no closed form for the third central moment of " + law.to_string());
      means.push_back(static_cast<double>(counts[i]) * *moment);
    }
  return means;
}

double level_max_sum_mean(const std::vector<distributions::Law>& laws, int levels) {
  return synchronous_mean(laws, levels);
}

std::vector<double> neighbor_max_sum_means(const std::vector<distributions::Law>& laws, int levels) {
  std::vector<double> means;
  for (const std::size_t span : {2, 3})
    for (std::size_t i = 0; i + span <= laws.size(); ++i)
      means.push_back(levels * expected_max({laws.begin() + static_cast<std::ptrdiff_t>(i),
                                             laws.begin() + static_cast<std::ptrdiff_t>(i + span)}));
  return means;
}

std::vector<std::uint64_t> speed_shares(const std::vector<distributions::Law>& laws, std::uint64_t tasks) {
  const std::size_t n = laws.size();
  std::vector<double> speed(n, 1.0);
  if (std::all_of(laws.begin(), laws.end(), [](const auto& l) { return l.mean() > 0.0; }))
    for (std::size_t i = 0; i < n; ++i) speed[i] = 1.0 / laws[i].mean();
  const double total = std::accumulate(speed.begin(), speed.end(), 0.0);
  std::vector<std::uint64_t> share(n);
  std::vector<double> remainder(n);
  std::uint64_t dealt = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double exact = static_cast<double>(tasks) * speed[i] / total;
    share[i] = static_cast<std::uint64_t>(std::floor(exact));
    remainder[i] = exact - static_cast<double>(share[i]);
    dealt += share[i];
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t k = 0; dealt < tasks && k < n; ++k, ++dealt) ++share[order[k]];
  return share;
}

}  // namespace hetstruct::bounds
