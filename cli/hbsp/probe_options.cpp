// The options of `hetstruct hbsp probe`, checked without MPI (always built, so the tests reach
// them); the probe's model is engine/hbsp/probe.h.
#include "cli/hbsp/probe.h"

#include <charconv>
#include <cmath>
#include <filesystem>

#include "cli/output.h"
#include "distributions/input_error.h"

namespace hetstruct::cli {

using engine::hbsp::max_probe_interval;
using engine::hbsp::max_probe_message_kb;
using engine::hbsp::max_probe_repeats;
using engine::hbsp::max_probe_rounds;

engine::hbsp::ProbePlan validate_probe(const ProbeOptions& o) {
  engine::hbsp::ProbePlan plan;
  if (o.machine_path.empty()) throw InputError("--machine", "give the machine file to write");
  if (o.trace_path.empty()) throw InputError("--trace", "give the r_j trace file to write");
  namespace fs = std::filesystem;
  const auto normal = [](const std::string& path, bool& ok) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (!ec) p = fs::weakly_canonical(p, ec);
    ok = ok && !ec;
    return p;
  };
  bool ok = true;
  if (normal(o.machine_path, ok) == normal(o.trace_path, ok) && ok)
    throw InputError("--trace", "is the same file as --machine", "give two paths");
  plan.machine_path = o.machine_path;
  plan.trace_path = o.trace_path;
  plan.rounds = parse_count("--rounds", o.rounds, max_probe_rounds);
  if (plan.rounds == 0) throw InputError("--rounds", "must be at least 1");
  plan.repeats = parse_count("--repeats", o.repeats, max_probe_repeats);
  if (plan.repeats == 0) throw InputError("--repeats", "must be at least 1");
  const std::uint64_t kb = parse_count("--message-kb", o.message_kb, max_probe_message_kb);
  if (kb == 0) throw InputError("--message-kb", "must be at least 1 (the paper's messages are 100 to 1000 KB)");
  plan.message_bytes = static_cast<std::size_t>(kb) * 1024;
  const char* end = o.interval.data() + o.interval.size();
  const auto parsed = std::from_chars(o.interval.data(), end, plan.interval);
  if (o.interval.empty() || parsed.ec != std::errc() || parsed.ptr != end || !std::isfinite(plan.interval) ||
      plan.interval < 0.0 || plan.interval > max_probe_interval)
    throw InputError("--interval", "'" + o.interval + "' is not a number of seconds between 0 and " +
                                       full(max_probe_interval));
  if (o.clock == "time") plan.time_clock = true;
  else if (o.clock == "superstep") plan.time_clock = false;
  else throw InputError("--clock", "'" + o.clock + "' is not time or superstep");
  return plan;
}

void check_probe_outputs(const engine::hbsp::ProbePlan& plan) {
  namespace fs = std::filesystem;
  for (const std::string* path : {&plan.machine_path, &plan.trace_path}) {
    std::error_code ec;
    if (fs::is_directory(*path, ec)) throw InputError(*path, "is a folder, give a file name");
    fs::path folder = fs::path(*path).parent_path();
    if (folder.empty()) folder = ".";
    if (!fs::is_directory(folder, ec))
      throw InputError(*path, "the folder '" + folder.string() + "' does not exist", "create it first");
  }
}

}  // namespace hetstruct::cli
