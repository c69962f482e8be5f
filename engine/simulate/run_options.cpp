#include "engine/simulate/run_options.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <oneapi/tbb/info.h>

#include "distributions/input_error.h"

namespace hetstruct::engine {

std::uint64_t parse_count(const std::string& parameter, const std::string& text, std::uint64_t max) {
  std::uint64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError(parameter, "'" + text + "' is not a whole number >= 0");
  if (value > max) throw InputError(parameter, text + " is more than the limit " + std::to_string(max));
  return value;
}

RunOptions parse_run(const std::string& reps, const std::string& seed, int threads) {
  RunOptions run;
  run.reps = parse_count("reps", reps, max_replications);
  run.seed = parse_count("seed", seed, std::numeric_limits<std::uint64_t>::max());
  run.threads = threads;
  if (run.reps == 0) throw InputError("reps", "the number of replications must be at least 1");
  if (threads < 0) throw InputError("threads", "must be 0 (all cores) or more");
  const int cores = tbb::info::default_concurrency();
  if (threads > cores)
    throw InputError("threads", std::to_string(threads) + " is more than the " + std::to_string(cores) +
                                    " cores this process may use", "give at most " + std::to_string(cores) + ", or 0 for all");
  return run;
}

StopRule parse_stop(double target_se, double target_rel, double se_floor, const std::optional<std::string>& target_reps,
                    bool zero_overrides) {
  if (!(target_se >= 0.0) || !std::isfinite(target_se))
    throw InputError("target_se", "the target standard error must be a finite number >= 0");
  if (!(target_rel >= 0.0) || !std::isfinite(target_rel))
    throw InputError("target_rel", "the target relative half-width must be a finite number >= 0");
  if (!(se_floor >= 0.0) || !std::isfinite(se_floor))
    throw InputError("se_floor", "the standard error floor must be a finite number >= 0");
  const std::uint64_t reps = target_reps ? parse_count("target_reps", *target_reps, max_replications) : 0;
  if (target_reps && reps == 0 && !zero_overrides)
    throw InputError("target_reps", "must be at least 1 (0 would ask for no precision)", "leave it out for no target");
  return {target_se, target_rel, reps, se_floor};
}

}  // namespace hetstruct::engine
