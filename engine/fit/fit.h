// hetstruct fit: runs grouped (a file of samples, WfFormat traces by task category or name, a
// Slurm sacct listing by job name and partition), each group's candidate laws fitted by maximum
// likelihood (distributions/fit/fit.h), one record a law and group (docs/fit.md).
//
// Rows: within a group by AIC, lowest first (ties in the order of the laws asked); groups in the
// order of their first run. A group of fewer than min_fitted_runs runs gets one row, its empirical
// law mix(k1/n:c(x1),...) (c(x) when every run is equal), no fit.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "distributions/fit/fit.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine {

inline constexpr std::size_t min_fitted_runs = 20;

struct RunGroup {
  std::string name;
  std::vector<double> runs;  // in the order read
};

// --samples FILE: one group named FILE, read as emp(FILE) reads it.
std::vector<RunGroup> groups_of_samples(const std::string& path);

enum class GroupBy { category, name };
// --by category, name, category,machine or name,machine; InputError naming `by` otherwise.
struct Grouping {
  GroupBy by = GroupBy::category;
  bool machine = false;  // the group is KEY@MACHINE
};
Grouping parse_grouping(const std::string& text);
// A task's name less a trailing _ID and digits (individuals_ID0000001 -> individuals).
std::string name_group(const std::string& name);
// --graph A.json B.json ...: every task's runtime a run, pooled over the traces.
std::vector<RunGroup> groups_of_traces(const std::vector<std::string>& paths, Grouping grouping);

// --sacct FILE: sacct -X -P output ('|'-separated, a header line first). COMPLETED jobs only,
// grouped as JOBNAME@PARTITION, Elapsed [DD-[HH:]]MM:SS in seconds. InputError FILE:LINE naming
// the token on a malformed line; `warn` gets one line naming the columns ignored.
std::vector<RunGroup> groups_of_sacct(const std::string& path, const std::function<void(const std::string&)>& warn);
// Elapsed [DD-[HH:]]MM:SS in seconds; none when `text` is not one.
std::optional<double> parse_elapsed(const std::string& text);

// What one fit reads: a samples file, WfFormat traces or an sacct file (the front ends check that
// exactly one is given, in their own spelling).
struct FitInputs {
  std::string samples;
  std::vector<std::string> graphs;
  std::string sacct;
};
// The groups of the input given: groups_of_samples, groups_of_traces or groups_of_sacct.
std::vector<RunGroup> groups_of(const FitInputs& inputs, Grouping grouping,
                                const std::function<void(const std::string&)>& warn);

struct FitOptions {
  std::vector<distributions::fit::Family> laws = distributions::fit::all_families;
  std::uint64_t seed = 1;
  int bootstrap_samples = 1000;
};

// The rows of every group; `warn` gets one line for each law left out of a group.
std::vector<Record> fit_rows(const std::vector<RunGroup>& groups, const FitOptions& options,
                             const std::function<void(const std::string&)>& warn);

// Each group's chosen law (the `law` of its `best` row), by group name.
std::map<std::string, std::string> chosen_laws(const std::vector<Record>& rows);

// The first trace of `paths` again, each task carrying its group's chosen law in a "law" field
// (--out-graph): the JSON text.
std::string fitted_trace(const std::string& path, Grouping grouping, const std::vector<Record>& rows);

}  // namespace hetstruct::engine
