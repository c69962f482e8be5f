#include "engine/sweep/distribution_lists.h"

#include <algorithm>

#include "distributions/input_error.h"
#include "engine/sweep/grid.h"

namespace hetstruct::engine {

std::vector<double> number_lists(const char* parameter, const std::vector<std::string>& texts) {
  std::vector<double> out;
  for (const auto& text : texts)
    for (const double v : expand_numbers(parameter, text, max_distribution_levels)) out.push_back(v);
  return out;
}

DistributionOptions sweep_distribution(const std::vector<std::string>& estimators, const std::vector<std::string>& quantiles,
                                       const std::vector<std::string>& deadlines, const std::string& deadline_hint) {
  DistributionOptions o;
  std::vector<std::string> names;
  for (const auto& text : estimators)
    for (const auto& name : split_list("estimators", text)) {
      if (name != "quantile" && name != "sd" && name != "p_deadline")
        throw InputError("estimators", "unknown estimator '" + name + "'", "give quantile, sd or p_deadline");
      names.push_back(name);
    }
  const auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
  if (has("quantile") || !quantiles.empty())
    o.quantile_levels = quantiles.empty() ? default_quantile_levels : number_lists("quantiles", quantiles);
  o.sd = has("sd");
  o.deadlines = number_lists("deadline", deadlines);
  if (has("p_deadline") && o.deadlines.empty()) throw InputError("estimators", "p_deadline needs " + deadline_hint);
  o.validate();
  return o;
}

}  // namespace hetstruct::engine
