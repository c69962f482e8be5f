// `hetstruct sweep`: the product grid of simulate's model options, simulated configuration by
// configuration with one seed (common random numbers), as one tidy CSV.
//
//   hetstruct sweep --structure sync,nn,ms --n 8,16 --m 0:8 --a 1/2,4/5 --law uniform,normal
//                   --comm 0:0.25:0.025 [--levels P,...] [--fast-law L,...] [--protocol NAME,...]
//                   [--policy NAME,...] [--exchange RULE,...] [--config FILE.toml]
//                   [--compare-to OPTION=VALUE[,OPTION=VALUE...] ...] [--skip-invalid] [--max-configs N]
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
// difference against the same configuration with m = 0 (engine::run_difference). A comparison
// sets one or more options at once (`n=n-m,m=0`); a numeric option's value may be an expression
// over the configuration's own numeric columns (Comparison). A comparison whose target cannot be
// built for a configuration is an error, or with --skip-invalid leaves out that configuration's
// difference row for it (the configuration keeps its other rows).
//
// CSV: one header row (`sweep_header`), then per configuration, in grid order, the rows
// closed_form, lower_bound, upper_bound (where they exist), difference (one per --compare-to)
// and mc, always last: a configuration is complete in a file when its mc row is there.
//
// Under mpirun (HETSTRUCT_MPI) the unit of work is a block range of one of a configuration's runs
// (deal_blocks): rank 0 gathers the per-block statistics and folds them in block order, the fold
// of one process, so the CSV is the one-process CSV byte for byte.
//
// execute() throws InputError on bad input (before anything is written).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/statistics.h"

namespace hetstruct::cli {

// The grid's dimensions, slowest first; also the configuration's columns of the CSV.
inline const std::vector<std::string> sweep_dimensions = {"structure", "law",  "fast_law", "n",      "m",      "a",
                                                          "levels",    "comm", "protocol", "policy", "exchange"};
extern const char* const sweep_header;

// One configuration: the canonical text of each dimension, in the order of sweep_dimensions.
using SweepConfig = std::array<std::string, 11>;

// Splits a list at the commas outside parentheses: "uniform,u(0,2)" -> {"uniform", "u(0,2)"}.
// Throws InputError (naming `option`) on an empty list or an empty item.
std::vector<std::string> split_list(const std::string& option, const std::string& text);

// Expands a list of whole numbers and inclusive ranges `a:b[:s]`. Throws InputError on an empty,
// inverted or zero-step range, a repeated value or more than `limit` values.
std::vector<long long> expand_integers(const std::string& option, const std::string& text, std::uint64_t limit);

// Expands a list of numbers (fractions allowed: 1/2) and inclusive ranges `a:b[:s]`; same errors.
std::vector<double> expand_numbers(const std::string& option, const std::string& text, std::uint64_t limit);


// A numeric expression over a configuration's numeric columns: numbers (1, 0.25, 1e-3; a fraction
// 1/2 is a division), the columns n, m, a, levels and comm, + - * /, unary minus and parentheses,
// evaluated left to right in double precision. The constructor throws InputError (naming `where`,
// quoting the text, with the position) on a syntax error or an unknown name.
class NumericExpression {
 public:
  NumericExpression(const std::string& where, const std::string& text);
  double evaluate(const SweepConfig& c) const;
  bool constant() const { return constant_; }    // no column in it
  const std::string& text() const { return text_; }  // the text without spaces
 private:
  struct Op {
    char kind;  // '#' number, 'c' column, '+', '-', '*', '/', '~' negation
    double value;
    int column;
  };
  std::vector<Op> program_;  // postfix
  std::string text_;
  bool constant_ = true;
};

// One --compare-to: assignments OPTION=VALUE separated by commas outside parentheses, applied
// together: `n=n-m,m=0` compares (n, m) with (n-m, 0). A numeric option's value (n, m, a, levels,
// comm) is a NumericExpression over the configuration's own columns, all evaluated before any is
// assigned; n, m and levels must come out whole. Other options take one literal value. The label
// (the CSV's compare_to column) joins the assignments: a constant as the option's canonical value
// (`a=1/2` gives a=0.5, as in the grid), an expression as written without spaces.
class Comparison {
 public:
  explicit Comparison(const std::string& text);  // throws InputError (where --compare-to)
  const std::string& label() const { return label_; }
  // The configuration to compare `c` with. Throws InputError when an expression gives no value
  // for `c` (not finite; not a whole number, or out of range, for n, m, levels); whether the
  // target can be built is the caller's check.
  SweepConfig target(const SweepConfig& c) const;

 private:
  struct Assignment {
    std::size_t dim;
    std::string value;                           // literal and constant values, canonical
    std::optional<NumericExpression> expression;  // expressions over columns
  };
  std::vector<Assignment> assignments_;
  std::string label_;
};

// MPI work: blocks [first, last) of run `run` of a sweep (a configuration's mc run, one of its
// differences, or an nn shape's C = 0 run).
struct SweepPiece {
  std::uint64_t run = 0, first = 0, last = 0;
};

// Deals runs (runs[i] = {blocks, work per block}) to `ranks` ranks: the runs laid end to end in
// order and cut at block boundaries into `ranks` consecutive stretches of nearly equal work;
// result[r] lists rank r's pieces in order. Every block is in exactly one piece; a run is cut only
// where a stretch ends, so only a rank's first piece may start inside a run.
std::vector<std::vector<SweepPiece>> deal_blocks(const std::vector<std::pair<std::uint64_t, double>>& runs, int ranks);

// A piece computed: its per-block statistics in block order, except that a piece starting at
// block 0 carries the one Accumulator of their fold (engine::fold_blocks), which continues the
// fold exactly as the blocks would.
struct BlockPiece {
  std::uint64_t run = 0, first = 0, last = 0;
  std::vector<engine::Accumulator> blocks;
};

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
  bool memory_check = true;  // --no-memory-check turns it off
  std::string max_configs_text = "1000000";
  double progress_interval = 10.0;  // seconds between progress lines when stderr is not a terminal
  double checkpoint_interval = 2.0;  // seconds between checkpoints of --out

  // After execute(): configurations simulated by this process and taken from the --resume file.
  std::uint64_t computed_configs = 0, resumed_configs = 0;

 private:
  CLI::App* app_ = nullptr;
  void apply_config_file();
};

}  // namespace hetstruct::cli
