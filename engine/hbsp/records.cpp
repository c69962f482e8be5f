#include "engine/hbsp/records.h"

#include <cstdint>
#include <string>
#include <vector>

#include "bounds/heterogeneity.h"
#include "distributions/input_error.h"
#include "engine/estimators/distribution.h"

namespace hetstruct::engine::hbsp {

namespace {

// A processor's name, or none (-1: no processor is critical).
void add_processor(Record& r, const char* field, const model::Machine& m, int j) {
  if (j < 0) r.add_none(field);
  else r.add(field, m.processors[j].name);
}

// The sampling columns of a row: reps, seed, the spread of its mean cost and, on the total row of
// a Monte Carlo replay, the quantiles. Without `e` (a static replay) every one is none.
void add_sampling(Record& r, const BootstrapOptions& options, const Estimate* e, const std::vector<double>* quantiles) {
  const Estimate x = e ? *e : Estimate{};
  const auto add = [&](const std::string& name, auto value, bool given) {
    if (given) r.add(name, value);
    else r.add_none(name);
  };
  const bool sampled = e != nullptr;
  add("reps", x.reps, sampled);
  add("seed", options.seed, sampled);
  add("stderr", x.stderr_, sampled);
  add("ci_low", x.ci_low, sampled);
  add("ci_high", x.ci_high, sampled);
  add("min", x.min, sampled);
  for (std::size_t i = 0; i < options.quantile_levels.size(); ++i)
    add(quantile_name(options.quantile_levels[i]), quantiles ? (*quantiles)[i] : 0.0, quantiles != nullptr);
  add("max", x.max, sampled);
}

// Zhang and Yan's measures of one replay, appended to the total row: a processor's busy time is
// its work as time (the cj form gives work in the slowest processor's time: it takes w_j / c_j),
// its power weight its speed over the fastest's.
void add_replay_metrics(Record& r, const model::Machine& m, const Program& program, model::CostForm form,
                        double total) {
  const int p = program.p;
  std::vector<double> busy(p, 0.0), mean_time(p);
  for (const auto& step : program.steps)
    for (int j = 0; j < p; ++j)
      busy[j] += form == model::CostForm::cj ? step.work[j] / m.relative_speed(j, p) : step.work[j];
  for (int j = 0; j < p; ++j) mean_time[j] = 1.0 / m.processors[j].speed;
  const auto w = bounds::power_weights(mean_time);
  double sum = 0.0, on_fastest = 0.0;
  for (int j = 0; j < p; ++j) {
    sum += busy[j];
    on_fastest += w[j] * busy[j];
  }
  if (!(total > 0.0)) throw InputError("metrics", "the replay takes no time");
  const double h = bounds::heterogeneity(w), p_deg = sum / total, speedup = on_fastest / total;
  r.add("power_weights", w).add("heterogeneity", h).add("p_deg", p_deg).add("speedup", speedup);
  r.add("speedup_property", bounds::property_speedup(p_deg, h)).add("efficiency", bounds::efficiency(speedup, w));
}

}  // namespace

ReplayInput algorithm_input(const model::Machine& m, const model::AlgorithmParams& a) {
  return {generate(m, a), a, a.form};
}

ReplayInput replay_input(const model::Machine& m, int p, const ReplayTexts& t) {
  if (t.program.empty() == t.algorithm.empty()) throw InputError("hbsp replay", "give {program}FILE or {algorithm}NAME");
  const auto form = [&]() -> std::optional<model::CostForm> {
    if (t.form == "auto") return std::nullopt;
    return model::parse_cost_form(t.form);
  };
  if (t.algorithm.empty()) return program_input(t.program, m, p, form());
  model::AlgorithmParams a;
  a.algorithm = model::parse_algorithm(t.algorithm);
  a.p = p;
  a.item_size = t.item_size;
  if (!(t.item_size > 0.0)) throw InputError("item size", "must be > 0");
  a.n = model::parse_size("size", t.size, t.item_size, a.algorithm != model::Algorithm::matrix_multiplication);
  a.root = model::parse_root(m, p, t.root);
  a.workload = model::parse_workload(t.workload);
  a.accounting = model::parse_accounting(t.accounting);
  a.oversampling = t.oversampling;
  a.form = form().value_or(model::auto_cost_form(a.algorithm));
  return algorithm_input(m, a);
}

ReplayInput program_input(const std::string& path, const model::Machine& m, int p,
                          std::optional<model::CostForm> form) {
  const model::CostForm f = form ? *form : model::auto_cost_form(std::nullopt);
  return {load_program(path, m, p), std::nullopt, f};
}

std::vector<Record> replay_records(const model::Machine& m, const ReplayInput& input,
                                   const ReplayRecordOptions& options) {
  // Named, not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  const auto& program = input.program;
  const auto& params = input.params;
  const model::CostForm form = input.form;
  const Trace* trace = options.trace;
  const bool monte_carlo = options.bootstrap.has_value();
  if (monte_carlo && options.metrics)
    throw InputError("metrics", "the measures come from one replay, not from a Monte Carlo replay");
  if (monte_carlo && !trace) throw InputError("trace", "a Monte Carlo replay draws r_j from a trace: give one");
  // A static replay's sampling columns are empty; the default levels name its quantile columns.
  const BootstrapOptions sampling = monte_carlo ? *options.bootstrap : BootstrapOptions{};

  // Every row starts with the replay's identity. `e`: the Monte Carlo statistics of the row's cost.
  Record head;
  head.add("program", program.name).add("p", program.p).add("form", model::to_string(form));
  if (trace) head.add("trace", trace->source);
  else head.add_none("trace");
  std::vector<Record> records;
  const auto add_step = [&](long number, double w, double gh, double L, double cost, int work_critical,
                            int comm_critical, const Estimate* e) {
    auto& r = records.emplace_back(head);
    r.add("row", "superstep").add("superstep", number).add("w", w).add("gh", gh).add("L", L).add("cost", cost);
    add_processor(r, "work_critical", m, work_critical);
    add_processor(r, "comm_critical", m, comm_critical);
    add_sampling(r, sampling, e, nullptr);
    r.add_none("closed_form").add_none("paper_form");
  };
  const auto add_total = [&](double w, double gh, double L, double cost, const Estimate* e,
                             const std::vector<double>* quantiles) -> Record& {
    auto& r = records.emplace_back(head);
    r.add("row", "total").add_none("superstep").add("w", w).add("gh", gh).add("L", L).add("cost", cost);
    r.add_none("work_critical").add_none("comm_critical");
    add_sampling(r, sampling, e, quantiles);
    if (params) r.add("closed_form", model::closed_form(m, *params)).add("paper_form", model::paper_form(m, *params));
    else r.add_none("closed_form").add_none("paper_form");
    return r;
  };

  if (!monte_carlo) {
    const auto r = replay(m, program, form, trace);
    for (const auto& s : r.steps)
      add_step(s.number, s.cost.w, s.cost.gh, s.cost.L, s.cost.total, s.cost.work_critical, s.cost.comm_critical,
               nullptr);
    auto& total = add_total(r.w, r.gh, r.L, r.total, nullptr, nullptr);
    if (options.metrics) add_replay_metrics(total, m, program, form, r.total);
  } else {
    const auto b = monte_carlo_replay(m, program, form, *trace, sampling);
    const auto fixed = replay(m, program, form);  // w is fixed: its critical processor too
    for (std::size_t i = 0; i < b.steps.size(); ++i) {
      const auto& s = b.steps[i];
      add_step(s.number, s.w, s.gh.mean, s.L, s.cost.mean, fixed.steps[i].cost.work_critical, s.modal_comm_critical,
               &s.cost);
    }
    add_total(b.w, b.gh.mean, b.L, b.total.mean, &b.total, &b.quantiles);
  }
  // The total row's names are every row's: with metrics it alone has the measures, and the
  // superstep rows have them empty (null in JSON), so every CSV row has the header's fields.
  const auto names = records.back().names();
  for (auto& r : records)
    for (std::size_t i = r.fields().size(); i < names.size(); ++i) r.add_none(names[i]);
  return records;
}

std::vector<Record> prediction_records(const model::Machine& m, const model::Prediction& prediction) {
  std::vector<Record> records;
  for (const auto& row : model::predict(m, prediction)) {
    Record r;
    r.add("figure", row.figure).add("operation", model::to_string(row.operation)).add("panel", std::string(1, row.panel));
    r.add("ratio", row.ratio).add("accounting", model::to_string(row.accounting)).add("p", row.p).add("n_kb", row.n_kb);
    r.add("n_bytes", row.n_bytes).add("numerator", row.numerator).add("denominator", row.denominator);
    r.add("factor", row.factor);
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace hetstruct::engine::hbsp
