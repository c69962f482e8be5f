#include "cli/model.h"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <vector>

#include "bounds/closed_forms.h"
#include "cli/output.h"
#include "cli/resources.h"
#include "distributions/input_error.h"

namespace hetstruct::cli {

using distributions::Law;

namespace {

// Normal laws are not truncated (nor are Wilson's): say how often the model's likeliest law draws
// a negative time when that is more than one task in a hundred (once: the first such model).
void warn_negative_times(const std::vector<Law>& laws) {
  static bool warned = false;
  if (warned) return;
  const Law* worst = nullptr;
  double worst_p = 0.01;
  for (const auto& law : laws) {
    const double p = law.cdf(-std::numeric_limits<double>::denorm_min());  // P(X < 0)
    if (p > worst_p) {
      worst = &law;
      worst_p = p;
    }
  }
  if (!worst) return;
  warned = true;
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.3g%%", 100.0 * worst_p);
  warn_later(worst->to_string() + " draws a negative task time with probability " + percent +
             " (normal laws are not truncated, as in Wilson's tables; tn(mean,variance) truncates at 0)");
}

}  // namespace

ModelOptions ModelOptions::wilson(std::string structure, int n, int m, std::string scale, std::string law,
                                  int levels, double comm) {
  ModelOptions model;
  model.structure = std::move(structure);
  model.width = n;
  model.fast_count = m;
  model.scale = std::move(scale);
  model.law = std::move(law);
  model.levels = levels;
  model.comm = full(comm);
  return model;
}

void ModelOptions::add_to(CLI::App& app, bool structure_required) {
  auto* model = "Model";
  app.add_option("--structure,-s", structure,
                 structure_required ? "async | sync | nn | ms (Wilson's Figure 1)"
                                    : "async | sync | nn | ms (default: all that have closed forms)")
      ->group(model);
  app.add_option("--graph", graph, "A DAG in Graphviz DOT (vertex attributes processor, law) instead of --structure")
      ->group(model);
  app.add_option("--n", width, "Width: number of processors")->group(model);
  app.add_option("--m", fast_count, "Fast processors (the first m), drawing a*X")->capture_default_str()->group(model);
  app.add_option("--a", scale, "Scale of the fast processors' law, 0 < a (fractions allowed: 4/5)")
      ->capture_default_str()->group(model);
  app.add_option("--law", law, "Task-time law: uniform = u(0,1), normal = n(1/2,1/12), or a law such as "
                               "\"mix(0.3:u(0,1),0.7:n(0.5,1/12))\"")
      ->capture_default_str()->group(model);
  app.add_option("--fast-law", fast_law, "Law of the fast processors (default: a times --law)")->group(model);
  app.add_option("--levels,-p", levels, "Tasks per processor (p)")->capture_default_str()->group(model);
  app.add_option("--comm,-C", comm, "Communication cost C: time of one message (Wilson Section 5)")
      ->capture_default_str()->group(model);
  app.add_option("--protocol", protocol, "Communication protocol of sync, nn or ms (default: the reading that best fits the paper)")
      ->group(model);
  app.add_option("--policy", policy, "Master-slave dealing: dynamic | equal | proportional | balanced")->group(model);
  app.add_option("--exchange", exchange, "Nearest-neighbour rule: sequential (Wilson's tables) | plain (max of neighbours)")
      ->capture_default_str()->group(model);
  app.add_flag("--no-memory-check{false}", memory_check,
               "Build the model even when its estimated memory exceeds what the machine has available")
      ->group(model);
}

namespace {

Law parse_law_option(const std::string& option, const std::string& text) {
  try {
    return distributions::parse_law(text);
  } catch (const InputError& e) {
    throw InputError(option, e.what());
  }
}

}  // namespace

Law ModelOptions::slow_law() const {
  if (law == "uniform") return Law::paper_uniform();
  if (law == "normal") return Law::paper_normal();
  return parse_law_option("--law", law);
}

double ModelOptions::scale_value() const {
  const double a = distributions::parse_number(scale, "--a");
  if (!(a > 0.0)) throw InputError("--a", "the scale must be > 0, got " + scale);
  return a;
}

Law ModelOptions::fast_law_value() const {
  if (!fast_law.empty()) return parse_law_option("--fast-law", fast_law);
  return Law::scaled(scale_value(), slow_law());
}

double ModelOptions::comm_value() const {
  const double c = distributions::parse_number(comm, "--comm");
  if (!(c >= 0.0)) throw InputError("--comm", "the communication cost must be >= 0, got " + comm);
  return c;
}

engine::CompileOptions ModelOptions::compile_options() const {
  engine::CompileOptions options;
  options.comm_cost = comm_value();
  options.protocol = protocol;
  options.policy = policy;
  return options;
}

bool ModelOptions::is_paper_uniform() const {
  return fast_law.empty() && slow_law() == Law::paper_uniform();
}

structures::Structure ModelOptions::build() const {
  if (!graph.empty()) {
    if (!structure.empty()) throw InputError("--graph", "give either --structure or --graph, not both");
    std::error_code ec;
    const auto file_bytes = std::filesystem::file_size(graph, ec);
    if (memory_check && !ec) check_model_memory(0, file_bytes, "--graph " + graph);
    structures::Structure s = structures::read_dot(graph);
    warn_negative_times(s.laws);
    return s;
  }
  if (structure.empty()) throw InputError("--structure", "missing", "give --structure async|sync|nn|ms, or --graph FILE.dot");
  return build(structures::parse_structure_kind(structure));
}

structures::Structure ModelOptions::build(structures::StructureKind kind) const {
  if (width < 1) throw InputError("--n", "the width must be at least 1, got " + std::to_string(width));
  if (levels < 1) throw InputError("--levels", "must be at least 1, got " + std::to_string(levels));
  structures::Processors procs{width, fast_count, slow_law(), slow_law()};
  procs.validate();
  if (memory_check) check_model_memory(static_cast<std::uint64_t>(width), 0, "--n " + std::to_string(width));
  // Bad values are errors even where the structure does not use them (m = 0, not nn).
  scale_value();
  if (fast_count > 0) procs.fast_law = fast_law_value();
  structures::NeighborExchange rule;
  if (exchange == "sequential") rule = structures::NeighborExchange::sequential;
  else if (exchange == "plain") rule = structures::NeighborExchange::plain;
  else throw InputError("--exchange", "unknown rule '" + exchange + "'", "choose sequential or plain");
  warn_negative_times({procs.slow_law, procs.fast_law});
  switch (kind) {
    case structures::StructureKind::asynchronous: return structures::asynchronous(procs, levels);
    case structures::StructureKind::synchronous: return structures::synchronous(procs, levels);
    case structures::StructureKind::nearest_neighbor: return structures::nearest_neighbor(procs, levels, rule);
    case structures::StructureKind::master_slave: return structures::master_slave(procs, levels);
    case structures::StructureKind::custom: break;
  }
  throw InputError("--structure", "a custom structure needs --graph");
}

std::optional<ClosedForm> closed_form(const structures::Structure& s, bool paper_uniform, double scale) {
  switch (s.kind) {
    case structures::StructureKind::synchronous:
      if (paper_uniform)
        return ClosedForm{bounds::synchronous_uniform_mean(s.width, s.fast_count, scale, s.levels), "eq6"};
      return ClosedForm{bounds::synchronous_mean(s.laws, s.levels), "quadrature"};
    case structures::StructureKind::asynchronous: {
      const auto m = bounds::asynchronous_mean(s.laws, s.levels);
      return ClosedForm{m.value, m.exact ? "normal_exact" : "normal_approx"};
    }
    default: return std::nullopt;
  }
}

}  // namespace hetstruct::cli

namespace hetstruct::cli {

std::optional<bounds::Bounds> comm_bounds(const structures::Structure& s, bool paper_uniform, double scale,
                                          double comm, double nn_zero_comm_mean) {
  switch (s.kind) {
    case structures::StructureKind::synchronous:
      return bounds::synchronous_bounds(closed_form(s, paper_uniform, scale)->value, s.width, s.levels, comm);
    case structures::StructureKind::nearest_neighbor:
      return bounds::neighbor_bounds(nn_zero_comm_mean, s.width, s.levels, comm);
    case structures::StructureKind::master_slave:
      return bounds::master_slave_bounds(s.laws, s.fast_count, s.levels, comm);
    default: return std::nullopt;
  }
}

}  // namespace hetstruct::cli
