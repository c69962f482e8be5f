#include "engine/fit/fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <numeric>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/estimators/distribution.h"
#include "structures/task_graphs.h"

namespace hetstruct::engine {

namespace fit = distributions::fit;

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string g17(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// Groups keyed in the order of their first run.
class Grouper {
 public:
  void add(const std::string& key, double run) {
    const auto [it, fresh] = index_.emplace(key, groups_.size());
    if (fresh) groups_.push_back({key, {}});
    groups_[it->second].runs.push_back(run);
  }
  std::vector<RunGroup> take() { return std::move(groups_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<RunGroup> groups_;
};

// The empirical law of a small group: mix(k1/n:c(x1),...) over its distinct values, or c(x).
std::string empirical_text(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (sorted.front() == sorted.back()) return "c(" + g17(sorted.front()) + ")";
  std::string s = "mix(";
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && sorted[j] == sorted[i]) ++j;
    if (i) s += ',';
    s += std::to_string(j - i) + "/" + std::to_string(n) + ":c(" + g17(sorted[i]) + ")";
    i = j;
  }
  return s + ")";
}

double mean_of(const std::vector<double>& xs) { return std::accumulate(xs.begin(), xs.end(), 0.0) / xs.size(); }

Record row(const RunGroup& group, const std::string& law, double loglik, double aic, const fit::Goodness& g,
           const std::vector<double>& sorted, double mean_fit, double q05_fit, double q95_fit, bool best) {
  Record r;
  r.add("group", group.name).add("n", static_cast<unsigned long long>(sorted.size())).add("law", law);
  r.add("loglik", loglik).add("aic", aic).add("ks", g.ks).add("ks_p", g.ks_p).add("ad", g.ad).add("ad_p", g.ad_p);
  r.add("mean_obs", mean_of(sorted)).add("mean_fit", mean_fit);
  r.add("q05_obs", quantile_sorted(sorted, 0.05)).add("q05_fit", q05_fit);
  r.add("q95_obs", quantile_sorted(sorted, 0.95)).add("q95_fit", q95_fit);
  r.add_flag("best", best);
  return r;
}

struct Candidate {
  fit::FittedLaw law;
  double loglik, aic;
  std::size_t order;
};

void fit_group(const RunGroup& group, std::uint64_t index, const FitOptions& options, std::vector<Record>& rows,
               const std::function<void(const std::string&)>& warn) {
  std::vector<double> sorted = group.runs;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.size() < min_fitted_runs) {
    const double m = mean_of(sorted), q05 = quantile_sorted(sorted, 0.05), q95 = quantile_sorted(sorted, 0.95);
    rows.push_back(row(group, empirical_text(sorted), nan, nan, {nan, nan, nan, nan}, sorted, m, q05, q95, true));
    return;
  }
  std::vector<Candidate> candidates;
  for (std::size_t k = 0; k < options.laws.size(); ++k) {
    const fit::Family family = options.laws[k];
    if (const auto why = fit::unfittable(family, sorted)) {
      warn(std::string("fit: ") + fit::name_of(family) + " left out of group '" + group.name + "': " + *why);
      continue;
    }
    fit::FittedLaw law;
    try {
      law = fit::fit_mle(family, sorted);
    } catch (const InputError& e) {
      warn(std::string("fit: ") + fit::name_of(family) + " left out of group '" + group.name + "': " + e.problem());
      continue;
    }
    const double loglik = fit::log_likelihood(law, sorted);
    const double aic = 2.0 * law.parameters() - 2.0 * loglik;
    candidates.push_back({std::move(law), loglik, aic, k});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.aic < b.aic; });
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const Candidate& x = candidates[c];
    const fit::Goodness g = fit::bootstrap_goodness(x.law, sorted, options.seed, index, options.bootstrap_samples);
    rows.push_back(row(group, x.law.text(), x.loglik, x.aic, g, sorted, x.law.mean(), x.law.quantile(0.05),
                       x.law.quantile(0.95), c == 0));
  }
}

}  // namespace

std::vector<RunGroup> groups_of_samples(const std::string& path) {
  try {
    const distributions::Law law = distributions::Law::empirical(path);
    return {{path, law.components()[0].leaf.data->sorted}};
  } catch (const InputError& e) {
    throw InputError("samples", e.problem(), e.hint());
  }
}

Grouping parse_grouping(const std::string& text) {
  if (text == "category") return {GroupBy::category, false};
  if (text == "name") return {GroupBy::name, false};
  if (text == "category,machine") return {GroupBy::category, true};
  if (text == "name,machine") return {GroupBy::name, true};
  throw InputError("by", "'" + text + "' is not a grouping", "category, name, category,machine or name,machine");
}

std::string name_group(const std::string& name) {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end == name.size() || end < 3 || name.compare(end - 3, 3, "_ID") != 0) return name;
  return name.substr(0, end - 3);
}

namespace {
std::string group_key(const structures::WfRun& run, Grouping grouping) {
  const std::string& name = run.name.empty() ? run.id : run.name;
  std::string key = grouping.by == GroupBy::category && !run.category.empty() ? run.category : name_group(name);
  if (grouping.machine) key += "@" + run.machine;
  return key;
}
}  // namespace

std::vector<RunGroup> groups_of_traces(const std::vector<std::string>& paths, Grouping grouping) {
  Grouper grouper;
  for (const auto& path : paths)
    for (const auto& run : structures::read_wfformat_runs(path)) grouper.add(group_key(run, grouping), run.runtime);
  return grouper.take();
}

std::string fitted_trace(const std::string& path, Grouping grouping, const std::vector<Record>& rows) {
  const std::map<std::string, std::string> chosen = chosen_laws(rows);
  std::map<std::string, std::string> by_task;
  for (const auto& run : structures::read_wfformat_runs(path))
    if (const auto it = chosen.find(group_key(run, grouping)); it != chosen.end()) by_task.emplace(run.id, it->second);
  return structures::wfformat_with_laws(path, by_task);
}

std::optional<double> parse_elapsed(const std::string& text) {
  // [DD-[HH:]]MM:SS, every part digits.
  std::string rest = text;
  double days = 0.0;
  const auto number = [](const std::string& s) -> std::optional<double> {
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return std::stod(s);
  };
  if (const auto dash = rest.find('-'); dash != std::string::npos) {
    const auto d = number(rest.substr(0, dash));
    if (!d) return std::nullopt;
    days = *d, rest = rest.substr(dash + 1);
  }
  const std::vector<std::string> parts = split(rest, ':');
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  double seconds = 0.0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto v = number(parts[i]);
    if (!v || (i > 0 && *v >= 60.0)) return std::nullopt;
    seconds = seconds * 60.0 + *v;
  }
  return days * 86400.0 + seconds;
}

std::vector<RunGroup> groups_of(const FitInputs& inputs, Grouping grouping,
                                const std::function<void(const std::string&)>& warn) {
  if (!inputs.samples.empty()) return groups_of_samples(inputs.samples);
  if (!inputs.graphs.empty()) return groups_of_traces(inputs.graphs, grouping);
  return groups_of_sacct(inputs.sacct, warn);
}

std::vector<RunGroup> groups_of_sacct(const std::string& path, const std::function<void(const std::string&)>& warn) {
  std::ifstream in(path);
  if (!in) throw InputError("sacct", "cannot read the file '" + path + "'");
  static const std::vector<std::string> known = {"JobID", "JobName", "Partition", "NodeList", "AllocCPUS",
                                                 "Elapsed", "State",   "Start",     "End"};
  std::string line;
  std::size_t number = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++number;
    if (!line.empty()) header = split(line, '|');
  }
  if (header.empty()) throw InputError("sacct", path + ": no header line");
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw InputError("sacct", path + ":" + std::to_string(number) + ": the header has no '" + name + "'");
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t name = column("JobName"), partition = column("Partition"), elapsed = column("Elapsed"),
                    state = column("State");
  std::string ignored;
  for (const auto& h : header)
    if (std::find(known.begin(), known.end(), h) == known.end()) ignored += (ignored.empty() ? "" : ",") + h;
  if (!ignored.empty()) warn("fit: " + path + ": columns ignored: " + ignored);
  Grouper grouper;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line, '|');
    const std::string at = path + ":" + std::to_string(number) + ": ";
    if (fields.size() != header.size())
      throw InputError("sacct", at + "'" + line + "' has " + std::to_string(fields.size()) + " fields, the header " +
                                    std::to_string(header.size()));
    if (fields[state] != "COMPLETED") continue;
    const auto seconds = parse_elapsed(fields[elapsed]);
    if (!seconds) throw InputError("sacct", at + "'" + fields[elapsed] + "' is not an Elapsed time", "[DD-[HH:]]MM:SS");
    grouper.add(fields[name] + "@" + fields[partition], *seconds);
  }
  return grouper.take();
}

std::vector<Record> fit_rows(const std::vector<RunGroup>& groups, const FitOptions& options,
                             const std::function<void(const std::string&)>& warn) {
  std::vector<Record> rows;
  for (std::size_t g = 0; g < groups.size(); ++g) fit_group(groups[g], g, options, rows, warn);
  return rows;
}

std::map<std::string, std::string> chosen_laws(const std::vector<Record>& rows) {
  std::map<std::string, std::string> out;
  for (const auto& r : rows)
    if (r.text("best") == "true") out.emplace(r.text("group"), r.text("law"));
  return out;
}

}  // namespace hetstruct::engine
