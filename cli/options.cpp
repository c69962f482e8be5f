#include "cli/options.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>

#include <oneapi/tbb/info.h>

#include "cli/output.h"
#include "distributions/input_error.h"

namespace hetstruct::cli {

void SamplingOptions::add_to(CLI::App& app) {
  app.add_option("--reps,-r", reps_text, "Replications (independent simulated executions)")
      ->capture_default_str()->type_name("UINT")->group("Sampling");
  app.add_option("--seed", seed_text, "Seed: the same seed gives the same numbers on any thread count")
      ->capture_default_str()->type_name("UINT")->group("Sampling");
  app.add_option("--threads,-t", threads, "Worker threads (0: all cores)")->capture_default_str()->group("Sampling");
}

void SamplingOptions::validate() {
  reps = parse_count("--reps", reps_text, max_reps);
  seed = parse_count("--seed", seed_text, std::numeric_limits<std::uint64_t>::max());
  if (reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  if (threads < 0) throw InputError("--threads", "must be 0 (all cores) or more");
  const int cores = tbb::info::default_concurrency();
  if (threads > cores)
    throw InputError("--threads", std::to_string(threads) + " is more than the " + std::to_string(cores) +
                                      " cores this process may use", "give at most " + std::to_string(cores) + ", or 0 for all");
}

int SamplingOptions::effective_threads() const { return threads > 0 ? threads : tbb::info::default_concurrency(); }

engine::RunOptions SamplingOptions::run_options() const {
  engine::RunOptions run;
  run.seed = seed;
  run.reps = reps;
  run.threads = threads;
  return run;
}

void EstimatorOptions::add_to(CLI::App& app, const char* estimator_help) {
  app.add_option("--estimator", estimator,
                 estimator_help ? estimator_help
                                : "auto | exact | cv | antithetic | antithetic-cv | mc: auto takes the exact expectation where one "
                                  "exists (sync at C = 0, async with normal, gamma, uniform or constant laws or their mixtures), else control variates (with "
                                  "antithetic pairs for ms), else plain Monte Carlo (mc)")
      ->capture_default_str()->group("Sampling");
  app.add_option("--target-se", target_se,
                 "Stop once the standard error is at most this (checked after whole waves of blocks; --reps is the cap)")
      ->group("Sampling");
  app.add_option("--target-rel", target_rel,
                 "Stop once the 95% CI half-width is at most this fraction of the mean (--reps is the cap)")
      ->group("Sampling");
  app.add_option("--target-reps", target_reps_text,
                 "Stop once the standard error is at most that of this many plain replications (s/sqrt(N), s the "
                 "makespans' standard deviation on the same run; 10000 is the paper's precision; --reps is the cap)")
      ->type_name("UINT")->group("Sampling");
  app.add_option("--se-floor", se_floor,
                 "A standard error at which the targets above count as met, whatever they ask (the target "
                 "itself without them): --target-reps 10000 --se-floor 0.05 stops each cell at "
                 "se <= max(0.05, the paper's), finer than the whole units Wilson's tables print")
      ->group("Sampling");
}

engine::StopRule EstimatorOptions::stop(bool zero_overrides) const {
  if (!(target_se >= 0.0) || !std::isfinite(target_se))
    throw InputError("--target-se", "the target standard error must be a finite number >= 0");
  if (!(target_rel >= 0.0) || !std::isfinite(target_rel))
    throw InputError("--target-rel", "the target relative half-width must be a finite number >= 0");
  if (!(se_floor >= 0.0) || !std::isfinite(se_floor))
    throw InputError("--se-floor", "the standard error floor must be a finite number >= 0");
  const std::uint64_t target_reps =
      target_reps_text.empty() ? 0 : parse_count("--target-reps", target_reps_text, SamplingOptions::max_reps);
  if (!target_reps_text.empty() && target_reps == 0 && !zero_overrides)
    throw InputError("--target-reps", "must be at least 1 (0 would ask for no precision)", "leave it out for no target");
  return {target_se, target_rel, target_reps, se_floor};
}

std::string EstimatorOptions::target_text() const {
  std::string text;
  const auto add = [&text](const std::string& option, const std::string& value) {
    text += (text.empty() ? "" : " ") + option + " " + value;
  };
  if (target_se > 0.0) add("--target-se", full(target_se));
  if (target_rel > 0.0) add("--target-rel", full(target_rel));
  if (!target_reps_text.empty() && target_reps_text != "0") add("--target-reps", target_reps_text);
  if (se_floor > 0.0) add("--se-floor", full(se_floor));
  return text;
}

void EstimatorOptions::warn_missed(std::uint64_t missed, std::uint64_t total, const std::string& what, std::uint64_t cap,
                                   std::optional<double> stderr_) const {
  if (missed == 0) return;
  char se[32];
  std::snprintf(se, sizeof se, "%.4g", stderr_.value_or(0.0));
  if (stderr_)
    warn_later("the target " + target_text() + " was not met: stderr " + se + " after the cap of " + std::to_string(cap) +
               " replications (--reps)");
  else
    warn_later("the target " + target_text() + " was not met in " + std::to_string(missed) + " of " + std::to_string(total) +
               " " + what + ": the cap of " + std::to_string(cap) + " replications (--reps) came first (target_met false)");
}

CLI::Validator non_empty(const std::string& hint) {
  return CLI::Validator(
      [hint](std::string& value) { return value.empty() ? "an empty value does nothing (" + hint + ")" : std::string(); },
      "", "non-empty");
}

void OutputOptions::add_to(CLI::App& app, engine::Format default_format) {
  format = engine::to_string(default_format);
  format_option_ = app.add_option("--format,-f", format, "csv | json | jsonl (one JSON object a line) | text")->capture_default_str()->group("Output");
  app.add_option("--out,-o", out_path, "Write to this file (atomically: whole or not at all) instead of stdout")
      ->check(non_empty("leave --out out to print on stdout"))
      ->check(CLI::Validator(claim_output_file, "", "a file to write"))  // checked and locked before any work
      ->group("Output");
}

void OutputOptions::emit(const std::string& text) const {
  if (out_path.empty()) std::cout << text;
  else write_file_atomically(out_path, text);
}

void OutputOptions::emit(std::span<const engine::Record> records, const std::vector<std::string>& names,
                         bool single) const {
  emit(engine::render(records, value(), names, single));
}

}  // namespace hetstruct::cli
