#include "cli/parameters.h"

#include <array>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>
#include <utility>

namespace hetstruct::cli {

namespace {

// Library parameter -> flag. The sweep's TOML keys are the flags without their dashes.
constexpr std::array<std::pair<const char*, const char*>, 49> flags = {{
    {"format", "--format"},
    {"laws", "--laws"}, {"by", "--by"}, {"samples", "--samples"}, {"sacct", "--sacct"}, {"out_graph", "--out-graph"},
    {"structure", "--structure"}, {"graph", "--graph"},     {"width", "--n"},       {"fast_count", "--m"},
    {"scale", "--a"},             {"law", "--law"},         {"fast_law", "--fast-law"}, {"levels", "--levels"},
    {"comm_cost", "--comm"},      {"protocol", "--protocol"}, {"policy", "--policy"}, {"exchange", "--exchange"},
    {"reps", "--reps"},           {"seed", "--seed"},       {"threads", "--threads"}, {"metrics", "--metrics"},
    {"compare_to", "--compare-to"}, {"max_configs", "--max-configs"},
    {"quantiles", "--quantiles"}, {"deadline", "--deadline"}, {"histogram", "--histogram"}, {"estimators", "--estimators"},
    {"estimator", "--estimator"}, {"target_se", "--target-se"}, {"target_rel", "--target-rel"}, {"target_reps", "--target-reps"},
    {"se_floor", "--se-floor"},
    {"task_law", "--task-law"},   {"task_cv", "--task-cv"}, {"mapping", "--mapping"}, {"bandwidth", "--bandwidth"},
    {"processor_scale", "--scales"}, {"processor_cores", "--cores"},
    {"port", "--port"},           {"overlap", "--overlap"}, {"dispatch", "--dispatch"},
    {"platform", "--platform"},   {"sharing", "--sharing"},
    {"schedule", "--schedule"},   {"sd_weight", "--sd-weight"},
    {"slowdown", "--slowdown"},   {"machine_slowdown", "--machine-slowdown"}, {"criticality", "--criticality"},
}};

// Phrases of the library's messages and hints that name a setting, and how the command line says them.
constexpr std::array<std::pair<const char*, const char*>, 20> hint_phrases = {{
    {"give dispatch ordered with a one-port model, or the free port model", "give --dispatch ordered with a one-port model, or --port free"},
    {"simulate, or give dispatch ordered", "simulate, or give --dispatch ordered"},
    {"give fast_count, scale, processor_scale, comm_cost, port", "give --m, --a, --scales, --comm, --port"},
    {"leave it out, or give the structure nn", "leave it out, or give -s nn"},
    {"choose the protocol (protocol)", "choose the protocol with --protocol"},
    {"has no effect without task_cv", "has no effect without --task-cv"},
    {"give task_cv V > 0", "give --task-cv V > 0"},
    {"memory_check off", "--no-memory-check"},
    {"it communicates by its port model; vary fast_count, scale, comm_cost or port",
     "it communicates by --port; give --m, --a, --comm, --port"},
    {"give a graph file", "give --graph FILE.dot"},
    {"max_configs", "--max-configs"},
    {"skip_invalid", "--skip-invalid"},
    {"another output file", "another --out"},
    {"give the communication cost (comm_cost)", "use --comm"},
    {"the bandwidth needs the size of every file an edge carries; leave the bandwidth out to give edges the "
     "communication cost (comm_cost)",
     "--bandwidth needs the size of every file an edge carries; leave --bandwidth out to give edges --comm"},
    {"the processors' cores (processor_cores) set them", "--cores sets them"},
    {"the free port (port free)", "--port free"},
    {"the processors' scales (processor_scale)", "--scales"},
    {"a mapping file (mapping) or a schedule", "--mapping or --schedule"},
    {"leave the processors' cores (processor_cores) at 1", "leave --cores out or give 1"},
}};

}  // namespace

std::string flag_of(const std::string& parameter) {
  for (const auto& [name, flag] : flags)
    if (parameter == name) return flag;
  return parameter;
}

std::string flag_text(std::string text) {
  for (const auto& [phrase, flag] : hint_phrases)
    if (const auto at = text.find(phrase); at != std::string::npos) text.replace(at, std::string(phrase).size(), flag);
  return text;
}

std::string flag_message(const InputError& e) {
  return InputError(flag_of(e.where()), flag_text(e.problem()), flag_text(e.hint())).what();
}

std::string parse_error_message(const std::string& m) {
  std::smatch match;
  static const std::regex conversion(R"(^Could not convert: (\S+) = (.*)$)");
  static const std::regex at_most(R"(^(\S+): At Most 1 required but received \d+$)");
  static const std::regex missing(R"(^(\S+): \d+ required \S+ missing$)");
  static const std::regex extras(R"(^The following arguments were not expected: (.*)$)");
  if (std::regex_match(m, match, conversion))
    return match[1].str() + ": '" + match[2].str() + "' is not a valid value (of the type --help shows)";
  if (std::regex_match(m, match, at_most)) return match[1].str() + ": given more than once";
  if (std::regex_match(m, match, missing)) return match[1].str() + ": the value is missing";
  if (std::regex_match(m, match, extras)) {
    // CLI11 lists them last first.
    std::istringstream words(match[1].str());
    std::vector<std::string> args{std::istream_iterator<std::string>(words), {}};
    std::string list;
    for (auto it = args.rbegin(); it != args.rend(); ++it) list += (list.empty() ? "" : " ") + *it;
    return "unexpected argument" + std::string(args.size() > 1 ? "s" : "") + ": " + list;
  }
  return m;
}

}  // namespace hetstruct::cli
