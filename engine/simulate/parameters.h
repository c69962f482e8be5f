// The parameter table: one row per parameter a caller states, read by every front end (the
// model of ns-3's attributes and Clang's LangStandards.def: one declaration, every reader). A row
// gives the parameter's name in the papers' terms (what engine::ModelTexts and InputError::where()
// say), its command-line flag, its Python keyword, its sweep's TOML key, its kind, its help and
// its aliases. The CLI registers its options' names and help from it and spells an error's
// parameter through it; the Python module reads its keywords from it; a test walks it (every row
// has a flag, a keyword and help, and parse_model knows every model row's name).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hetstruct::engine {

enum class ParameterKind {
  text,     // a name of a registry (structure, protocol, port model, ...)
  count,    // a whole number
  number,   // a real number (fractions allowed where the parser says so)
  law,      // a law's text (distributions/law.h)
  list,     // a list of values, comma-separated
  flag,     // on or off
  file,     // a path
  command,  // an error of a whole command names it (no option of its own)
};
const char* to_string(ParameterKind kind);

// Which parser reads the row: parse_model (engine/simulate/model.h), the run's, the distribution's,
// the sweep's, the output's, the fit's or HBSP's replay.
enum class ParameterScope { model, run, distribution, sweep, output, fit, hbsp };

struct Parameter {
  const char* name;        // the papers' terms: width, fast_count, comm_cost, ...
  const char* flag;        // the command line's long option: --n
  const char* short_flag;  // its short one, or ""
  const char* keyword;     // Python's keyword: n
  const char* key;         // a sweep's TOML key (its long option without the dashes): n
  ParameterKind kind;
  ParameterScope scope;
  // The command line's help; "{}" stands where the front end lists a registry's names.
  const char* help;
  const char* aliases;     // the papers' symbols and other words for it, comma-separated, or ""
};

// Every row, the model's first in the order the help lists them.
const std::vector<Parameter>& parameters();
// The row of `name`, or nullptr.
const Parameter* find_parameter(std::string_view name);
// The row of `name`; std::logic_error when the table has none (a front end asked for a row that
// is not declared: a programming error).
const Parameter& parameter(std::string_view name);
// The option's names as CLI11 takes them: "--structure,-s".
std::string option_names(const Parameter& p);
// A library text with its tokens spelled: "{NAME}" of a row becomes spell(row) (the command line:
// "--program ", Python: "program="); braces around anything else stay.
std::string spell_tokens(std::string text, const std::function<std::string(const Parameter&)>& spell);
// The help with `fill` where its "{}" stands.
std::string help_of(const Parameter& p, const std::string& fill = "");

}  // namespace hetstruct::engine
