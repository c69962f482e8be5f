// A sweep's grid: the product of the model's options, each a list of values, as a library caller
// (the `hetstruct sweep` command, a test, another front end) states it.
//
// Values: every option takes a list (`3,4,5`; commas inside parentheses belong to a law) and the
// numeric ones (n, m, a, levels, comm) inclusive ranges `start:stop[:step]` (step 1 by default; n,
// m and levels are whole numbers). A range of plain decimals (`0:0.25:0.025`) yields the nearest
// double to each start + k*step, computed in exact decimal; other ranges compute start + k*step
// (k an integer) and include the end when within a relative 1e-9 of it.
//
// The grid is the product of the dimensions in the order of `sweep_dimensions` (structure, law,
// fast_law, n, m, a, levels, comm, protocol, policy, exchange): the first varies slowest, the last
// fastest. A configuration (SweepConfig) holds each dimension's value, typed; its columns print the
// canonical text of each (what the CSV prints).
//
// A comparison (Comparison) sets one or more options at once (`n=n-m,m=0`); a numeric option's
// value may be an expression over the configuration's own numeric columns (NumericExpression).
//
// Errors are InputError naming the parameter in the papers' words (width, fast_count, scale,
// levels, comm_cost, law, fast_law, structure, protocol, policy, exchange, compare_to); hints name
// the max_configs setting where raising it helps.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/simulate/schedule_comparison.h"

namespace hetstruct::engine {

// The grid's dimensions, slowest first; also the configuration's columns of the CSV.
inline const std::vector<std::string> sweep_dimensions = {"structure", "law",  "fast_law", "n",      "m",      "a",
                                                          "levels",    "comm", "protocol", "policy", "exchange"};
// Positions in sweep_dimensions (and in a SweepConfig).
struct SweepDim {
  enum : std::size_t { structure, law, fast_law, n, m, a, levels, comm, protocol, policy, exchange, count };
};
// Each dimension's parameter, as errors name it (the model's words: n is the width).
inline const std::array<const char*, SweepDim::count> sweep_parameters = {
    "structure", "law", "fast_law", "width", "fast_count", "scale", "levels", "comm_cost", "protocol", "policy", "exchange"};

// A configuration's columns as the CSV prints them, in the order of sweep_dimensions.
using SweepColumns = std::array<std::string, SweepDim::count>;

// A number of the grid (a, comm): its value and its text as the CSV prints it (the shortest exact
// decimal: a=1/2 prints 0.5, as the grid always has).
using SweepNumber = distributions::Spelled<double>;

// One configuration, typed: the grid's texts are read once (dimension_values) into these fields; a
// field that does not apply (a graph's n, a column cleared in Entry::ran) is empty. column() prints
// a field as the CSV does. The structure is a name or a graph file; the protocol column is a
// structure's protocol (its family depends on the structure, so to_model resolves it) or a graph's
// port model; laws are texts in the law syntax.
struct SweepConfig {
  std::string structure{};
  std::string law{}, fast_law{};  // empty fast_law: a * law
  std::optional<int> n{};     // none: a graph (its width is its file's)
  int m = 0;
  SweepNumber a{};
  std::optional<int> levels{};
  SweepNumber comm{};
  std::string protocol{};  // empty: the structure's default (a graph: free)
  std::optional<DealingPolicy> policy{};
  std::optional<structures::NeighborExchange> exchange{};
  // Correlated slowdowns (Model::slowdown, machine_slowdown), laws in the law syntax: settings of
  // every configuration of a sweep, not dimensions; empty: none. A comparison's target keeps them.
  std::string slowdown{}, machine_slowdown{};

  // Column `dim` (SweepDim) as the CSV prints it.
  std::string column(std::size_t dim) const;
  SweepColumns columns() const;
  // Sets column `dim` from a canonical value (dimension_values' texts; empty: none).
  void set(std::size_t dim, const std::string& canonical);
  // The value of numeric column `dim` (n, m, a, levels, comm); InputError when it has none.
  double number(std::size_t dim) const;
  bool operator==(const SweepConfig&) const = default;
};

// Splits a list at the commas outside parentheses and emp() paths, as the law parser reads them
// (distributions/law_syntax.h): "uniform,u(0,2),emp(\"a,b).txt\")" -> {"uniform", "u(0,2)", "emp(\"a,b).txt\")"}.
// Throws InputError (naming `parameter`) on an empty list or an empty item.
std::vector<std::string> split_list(const std::string& parameter, const std::string& text);

// Expands a list of whole numbers and inclusive ranges `a:b[:s]`. Throws InputError on an empty,
// inverted or zero-step range, a repeated value or more than `limit` values.
std::vector<long long> expand_integers(const std::string& parameter, const std::string& text, std::uint64_t limit);

// Expands a list of numbers (fractions allowed: 1/2) and inclusive ranges `a:b[:s]`; same errors.
std::vector<double> expand_numbers(const std::string& parameter, const std::string& text, std::uint64_t limit);

// Canonical values of dimension `dim` (SweepDim) from its texts, each a list or range: whole
// numbers for n, m, levels; shortest exact decimals for a, comm; `default` is the empty value.
// Throws InputError (naming the dimension's parameter) on a repeated value or more than `limit`.
std::vector<std::string> dimension_values(std::size_t dim, const std::vector<std::string>& texts, std::uint64_t limit);

struct SweepGrid {
  std::array<std::vector<std::string>, SweepDim::count> values;  // canonical values per dimension
  std::string slowdown{}, machine_slowdown{};                         // every configuration's (SweepConfig)

  // The number of configurations, without overflow (compare it with a limit before size()).
  long double product() const;
  std::uint64_t size() const;
  SweepConfig at(std::uint64_t index) const;  // index in grid order, last dimension fastest
};

// The grid of these option texts (per dimension; none: the model's default, where it has one:
// law uniform, m 0, a 1/2, levels 1000, comm 0, exchange sequential). Each dimension is limited
// to `limit` values; the product is the caller's to check (SweepGrid::product).
SweepGrid make_grid(const std::array<std::vector<std::string>, SweepDim::count>& texts, std::uint64_t limit);

// A sweep of Wilson's structures and graph files together: two grids. The structures' grid takes
// every dimension of `texts` (texts[structure] their names); the graphs' takes `graphs` (files,
// folders or patterns: structures::expand_graph_paths) as its structure column, `ports` as its
// protocol column (a graph's port model) and `texts`' other graph columns (graph_column: m, a,
// comm); it is not repeated over the structures' own options. Either part may be absent (no
// structure names, or no graphs), not both. InputError: a structure option given to graphs alone
// (it would do nothing), ports without graphs, and more than `limit` configurations in all (or
// values in a dimension).
// `slowdowns`: the correlated slowdowns of every configuration (laws of factors >= 0; InputError on
// slowdown or machine_slowdown otherwise).
struct SweepSlowdowns {
  std::string processor, machine;  // Model::slowdown, machine_slowdown; empty: none
};
std::vector<SweepGrid> make_grids(const std::array<std::vector<std::string>, SweepDim::count>& texts,
                                  const std::vector<std::string>& graphs, const std::vector<std::string>& ports,
                                  std::uint64_t limit, const SweepSlowdowns& slowdowns = {});

// A configuration as one key (for maps), and as text for messages ("structure=sync n=8 ...").
std::string config_key(const SweepConfig& c);
std::string config_key(const SweepColumns& c);
std::string describe(const SweepConfig& c);
std::string describe(const SweepColumns& c);
// Whether a structure value is a graph file (.dot, .gv, .stg or .json: structures/task_graphs.h). A graph's
// configuration leaves n empty (its width is its file's); its protocol value is its port model:
// free, one-port, one-port-overlap, one-port-greedy or one-port-greedy-overlap.
bool is_graph(const std::string& structure);
// Whether a graph's configuration has column `dim`: structure, m, a, comm and protocol (its port
// model). n, law, fast_law and levels are its file's; policy and exchange are ms's and nn's.
bool graph_column(std::size_t dim);
// A graph's value of the protocol column as the model's port and overlap (empty: the model's
// default). InputError on a value other than free, one-port, one-port-overlap, one-port-greedy or
// one-port-greedy-overlap.
struct SweepPort {
  std::optional<Port> port;
  bool overlap = false;
};
SweepPort parse_sweep_port(const std::string& value);
// The inverse: a model's port and overlap as the protocol column's value (one-port and overlap:
// one-port-overlap).
std::string sweep_port_value(std::optional<Port> port, bool overlap);
// What a sweep sets on every graph's model beside its columns, as simulate's options do on one:
// the STG/WfFormat task law, mapping and bandwidth, the processors' scales and cores (Model's fields of
// the same names). They are not columns of the CSV: one sweep, one setting.
struct GraphSettings {
  structures::TaskGraphOptions task_graph;
  std::vector<double> processor_scales;  // empty: none
  std::vector<int> processor_cores;      // every configuration's, its comparisons' targets included; empty: none
  // A comparison's target that sets m or a: Wilson's machine (m processors at a, the others at 1)
  // replaces the file's speeds and processor_scales, at m = 0 too (Model::wilson_machine).
  bool wilson_machine = false;
  // The graphs' reads, kept for every configuration and comparison of the sweep (copies of these
  // settings share them; the key is each file with its reading options).
  std::shared_ptr<GraphReads> reads = std::make_shared<GraphReads>();
};
// The settings of every graph from their texts, keyed by parameter (task_law, task_cv, mapping,
// bandwidth, schedule, sd_weight, processor_scale, processor_cores), parsed by parse_model as a
// graph's model's (engine/simulate/model.h): InputError naming the parameter. Whether the sweep has
// graphs for them to act on is the caller's check.
GraphSettings graph_settings(ModelTexts texts);
// The model a configuration names (memory_check off: the grid is checked once, check_grid_memory);
// a graph's with `graph`'s settings.
Model to_model(const SweepConfig& c, const GraphSettings& graph = {});
// Refuses a grid whose widest configuration would not fit in memory (InputError on width).
void check_grid_memory(const SweepGrid& grid);

// A numeric expression over a configuration's numeric columns: numbers (1, 0.25, 1e-3; a fraction
// 1/2 is a division), the columns n, m, a, levels and comm, + - * /, unary minus and parentheses,
// evaluated left to right in double precision. The constructor throws InputError (naming `where`,
// quoting the text, with the position) on a syntax error or an unknown name.
class NumericExpression {
 public:
  NumericExpression(const std::string& where, const std::string& text);
  double evaluate(const SweepConfig& c) const;
  bool constant() const { return constant_; }         // no column in it
  bool reads(std::size_t dim) const;                  // whether column `dim` is in it
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

// One comparison: assignments OPTION=VALUE separated by commas outside parentheses, applied
// together: `n=n-m,m=0` compares (n, m) with (n-m, 0). A numeric option's value (n, m, a, levels,
// comm) is a NumericExpression over the configuration's own columns, all evaluated before any is
// assigned; n, m and levels must come out whole. Other options take one literal value. The label
// (the CSV's compare_to column) joins the assignments: a constant as the option's canonical value
// (`a=1/2` gives a=0.5, as in the grid), an expression as written without spaces.
// `schedule=B` (heft, cpop, heft-sd, none, one-per-task: parse_schedule_choice) is a comparison of
// its own, set alone: each graph's static schedule (the sweep's schedule setting) against B, the
// configuration's columns kept (apply_schedule_choice on the graph's settings); its label is
// schedule=B.
class Comparison {
 public:
  explicit Comparison(const std::string& text);  // throws InputError on compare_to
  const std::string& label() const { return label_; }
  // The configuration to compare `c` with. Throws InputError when an expression gives no value
  // for `c` (not finite; not a whole number, or out of range, for n, m, levels); whether the
  // target can be built is the caller's check.
  SweepConfig target(const SweepConfig& c) const;
  // Whether it means anything for `c`: false for a graph's configuration when it sets or reads a
  // column a graph does not have (graph_column), or sets one of Wilson's structures. In a sweep of
  // graphs and structures together, `n=n-m` compares the structures only. (A structure's target
  // that is a graph is an InputError of target().)
  bool applies_to(const SweepConfig& c) const;
  // Whether it assigns column `dim` (SweepDim).
  bool sets(std::size_t dim) const;
  // The schedule of a schedule=B comparison (which sets no column); none for the others.
  const std::optional<ScheduleChoice>& schedule() const { return schedule_; }

 private:
  struct Assignment {
    std::size_t dim;
    std::string value;                            // literal and constant values, canonical
    std::optional<NumericExpression> expression;  // expressions over columns
  };
  std::vector<Assignment> assignments_;
  std::optional<ScheduleChoice> schedule_;
  std::string label_;
};

}  // namespace hetstruct::engine
