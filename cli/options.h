// The option groups that several commands share, each defined once: sampling (--reps --seed
// --threads) and output (--format --out).
#pragma once

#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/estimators/estimators.h"
#include "engine/driver/monte_carlo.h"
#include "engine/simulate/record.h"

namespace hetstruct::cli {

struct SamplingOptions {
  std::string reps_text = "10000";
  std::string seed_text = "1";
  int threads = 0;
  std::uint64_t reps = 0, seed = 0;

  // Memory does not grow with replications (their statistics stream); this bounds the time.
  static constexpr std::uint64_t max_reps = engine::max_replications;

  void add_to(CLI::App& app);
  // Parses and checks the options; call before using reps and seed. Refuses more threads than
  // oneTBB can run (it would only warn in its own words and use fewer).
  void validate();
  int effective_threads() const;
  // The engine's run options (without progress).
  engine::RunOptions run_options() const;
};

// How the estimate is made (engine/estimators/estimators.h): --estimator and the target precision.
// A CLI11 check refusing an empty value (--out '', --port ''), which would do nothing: `hint` says
// what to do instead.
CLI::Validator non_empty(const std::string& hint);

struct EstimatorOptions {
  std::string estimator = "auto";
  double target_se = 0.0;
  double target_rel = 0.0;
  std::string target_reps_text = "";  // empty: none
  double se_floor = 0.0;

  // `estimator_help`: --estimator's help where the command reads it otherwise (none: simulate's).
  void add_to(CLI::App& app, const char* estimator_help = nullptr);
  engine::Estimator value() const { return engine::parse_estimator(estimator); }
  // InputError on a negative or non-finite target, and on --target-reps 0 (it would ask nothing)
  // unless `zero_overrides` (a sweep's command line clearing its --config file's target).
  engine::StopRule stop(bool zero_overrides = false) const;
  // The targets as given, for messages: "--target-se 0.01 --se-floor 0.05" (empty: none).
  std::string target_text() const;
  // Warns (after the result) that `missed` of `total` runs (`what`: "configurations", "cells")
  // stopped at the cap of `cap` replications before their target; with `stderr_`, the one run's
  // standard error (simulate). Nothing when none missed.
  void warn_missed(std::uint64_t missed, std::uint64_t total, const std::string& what, std::uint64_t cap,
                   std::optional<double> stderr_ = std::nullopt) const;
};

struct OutputOptions {
  std::string format;  // csv, json, jsonl or text
  std::string out_path;

  // `default_format`: what the command prints without --format.
  void add_to(CLI::App& app, engine::Format default_format);
  engine::Format value() const { return engine::parse_format(format); }
  // Whether --format or --out was given: commands that write files anyway (figure, hbsp predict)
  // print their rows only then.
  bool asked() const { return (format_option_ && format_option_->count() > 0) || !out_path.empty(); }
  // The command's whole output: to stdout, or written atomically to --out.
  void emit(const std::string& text) const;
  // Records through the chosen writer (`single`: JSON prints the one object, not an array).
  void emit(std::span<const engine::Record> records, const std::vector<std::string>& names = {},
            bool single = false) const;

 private:
  CLI::Option* format_option_ = nullptr;
};

}  // namespace hetstruct::cli
