#include "cli/options.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>

#include <oneapi/tbb/info.h>

#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/simulate/parameters.h"
#include "engine/simulate/run_options.h"

namespace hetstruct::cli {

namespace {

// An option by its row of the parameter table: its names and help (or `help`), in the Sampling group.
template <class T>
CLI::Option* sampling_option(CLI::App& app, const char* parameter, T& target, const char* help = nullptr) {
  const auto& row = engine::parameter(parameter);
  return app.add_option(engine::option_names(row), target, help ? help : row.help)->group("Sampling");
}

}  // namespace

void SamplingOptions::add_to(CLI::App& app) {
  sampling_option(app, "reps", reps_text)->capture_default_str()->type_name("UINT");
  sampling_option(app, "seed", seed_text)->capture_default_str()->type_name("UINT");
  sampling_option(app, "threads", threads)->capture_default_str();
}

void SamplingOptions::validate() {
  const engine::RunOptions run = engine::parse_run(reps_text, seed_text, threads);  // errors name reps, seed, threads
  reps = run.reps;
  seed = run.seed;
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
  sampling_option(app, "estimator", estimator, estimator_help)->capture_default_str();
  sampling_option(app, "target_se", target_se);
  sampling_option(app, "target_rel", target_rel);
  sampling_option(app, "target_reps", target_reps_text)->type_name("UINT");
  sampling_option(app, "se_floor", se_floor);
}

engine::StopRule EstimatorOptions::stop(bool zero_overrides) const {
  return engine::parse_stop(target_se, target_rel, se_floor,
                            target_reps_text.empty() ? std::nullopt : std::optional<std::string>(target_reps_text),
                            zero_overrides);
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
