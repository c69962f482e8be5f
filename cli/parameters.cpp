#include "cli/parameters.h"

#include <array>
#include <utility>

namespace hetstruct::cli {

namespace {

// Library parameter -> flag. The sweep's TOML keys are the flags without their dashes.
constexpr std::array<std::pair<const char*, const char*>, 18> flags = {{
    {"structure", "--structure"}, {"graph", "--graph"},     {"width", "--n"},       {"fast_count", "--m"},
    {"scale", "--a"},             {"law", "--law"},         {"fast_law", "--fast-law"}, {"levels", "--levels"},
    {"comm_cost", "--comm"},      {"protocol", "--protocol"}, {"policy", "--policy"}, {"exchange", "--exchange"},
    {"reps", "--reps"},           {"seed", "--seed"},       {"threads", "--threads"}, {"metrics", "--metrics"},
    {"compare_to", "--compare-to"}, {"max_configs", "--max-configs"},
}};

// Phrases of the library's hints that name a setting, and how the command line says them.
constexpr std::array<std::pair<const char*, const char*>, 4> hint_phrases = {{
    {"memory_check off", "--no-memory-check"},
    {"max_configs", "--max-configs"},
    {"skip_invalid", "--skip-invalid"},
    {"another output file", "another --out"},
}};

}  // namespace

std::string flag_of(const std::string& parameter) {
  for (const auto& [name, flag] : flags)
    if (parameter == name) return flag;
  return parameter;
}

std::string flag_message(const InputError& e) {
  std::string hint = e.hint();
  for (const auto& [phrase, flag] : hint_phrases)
    if (const auto at = hint.find(phrase); at != std::string::npos) hint.replace(at, std::string(phrase).size(), flag);
  return InputError(flag_of(e.where()), e.problem(), hint).what();
}

}  // namespace hetstruct::cli
