// `hetstruct sweep`: the product grid of simulate's model options, simulated configuration by
// configuration with one seed (common random numbers), as one tidy CSV.
//
//   hetstruct sweep --structure sync,nn,ms --n 8,16 --m 0:8 --a 1/2,4/5 --law uniform,normal
//                   --comm 0:0.25:0.025 [--levels P,...] [--fast-law L,...] [--protocol NAME,...]
//                   [--policy NAME,...] [--exchange RULE,...] [--config FILE.toml]
//                   [--compare-to OPTION=VALUE ...] [--skip-invalid] [--max-configs N]
//                   [--reps R] [--seed S] [--threads T] [--out FILE [--resume]] [--quiet]
//
// Values: every model option takes a list (`3,4,5`, commas inside parentheses belong to a law, and
// repeated values `--n 3 4 5` work too) and the numeric ones (n, m, a, levels, comm) inclusive
// ranges `start:stop[:step]` (step 1 by default; n, m and levels are whole numbers). A range of
// plain decimals (`0:0.25:0.025`) yields the nearest double to each start + k*step, computed in
// exact decimal; other ranges compute start + k*step (k an integer) and include the end when
// within a relative 1e-9 of it.
//
// The grid is the product of the dimensions in the order of `sweep_dimensions` (structure, law,
// fast_law, n, m, a, levels, comm, protocol, policy, exchange): the first varies slowest, the
// last fastest. Every configuration uses the same seed, so configurations that share a structure
// shape draw the same streams, and `--compare-to m=0` adds each configuration's paired
// difference against the same configuration with m = 0 (engine::run_difference).
//
// CSV: one header row (`sweep_header`), then per configuration, in grid order, the rows
// closed_form, lower_bound, upper_bound (where they exist), difference (one per --compare-to)
// and mc, always last: a configuration is complete in a file when its mc row is there.
//
// execute() throws InputError on bad input (before anything is written).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hetstruct::cli {

// The grid's dimensions, slowest first; also the configuration's columns of the CSV.
inline const std::vector<std::string> sweep_dimensions = {"structure", "law",  "fast_law", "n",      "m",      "a",
                                                          "levels",    "comm", "protocol", "policy", "exchange"};
extern const char* const sweep_header;

// Splits a list at the commas outside parentheses: "uniform,u(0,2)" -> {"uniform", "u(0,2)"}.
// Throws InputError (naming `option`) on an empty list or an empty item.
std::vector<std::string> split_list(const std::string& option, const std::string& text);

// Expands a list of whole numbers and inclusive ranges `a:b[:s]`. Throws InputError on an empty,
// inverted or zero-step range, a repeated value or more than `limit` values.
std::vector<long long> expand_integers(const std::string& option, const std::string& text, std::uint64_t limit);

// Expands a list of numbers (fractions allowed: 1/2) and inclusive ranges `a:b[:s]`; same errors.
std::vector<double> expand_numbers(const std::string& option, const std::string& text, std::uint64_t limit);

// One CSV record split into fields (RFC 4180 quotes). Returns false when a quote is unterminated.
bool parse_csv_line(const std::string& line, std::vector<std::string>& fields);

class SweepCommand {
 public:
  void add_to(CLI::App& app);
  bool parsed() const;
  int execute();

  // Options, public so that tests may set them directly.
  std::vector<std::string> structure, law, fast_law, n, m, a, levels, comm, protocol, policy, exchange;
  std::vector<std::string> compare_to;
  std::string config_path;
  std::string reps_text = "10000";
  std::string seed_text = "1";
  int threads = 0;
  std::string out_path;
  bool resume = false;
  bool quiet = false;
  bool skip_invalid = false;
  std::string max_configs_text = "1000000";
  double progress_interval = 10.0;  // seconds between progress lines when stderr is not a terminal

  // After execute(): configurations simulated by this process and taken from the --resume file.
  std::uint64_t computed_configs = 0, resumed_configs = 0;

 private:
  CLI::App* app_ = nullptr;
  void apply_config_file();
};

}  // namespace hetstruct::cli
