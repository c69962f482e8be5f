#include "cli/model.h"

#include "cli/options.h"
#include "cli/parameters.h"

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/kernel/communication.h"
#include "engine/kernel/port_models.h"
#include "engine/simulate/parameters.h"
#include "structures/schedule.h"

namespace hetstruct::cli {

namespace {

// A registry's names as the help lists them.
std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " | ") + n;
  return s;
}

// The port models as the help lists them: each name and its summary.
std::string port_help() {
  std::string s;
  for (const auto& m : engine::port_models()) s += (s.empty() ? "" : " | ") + std::string(m.name) + " (" + m.summary + ")";
  return s;
}

}  // namespace

void ModelOptions::add_to(CLI::App& app, Offer offer) {
  app_ = &app;
  protocols_ = offer.protocol;
  fixed_structure_ = offer.fixed_structure;
  auto* group = "Model";
  // An option by its row of the parameter table: its names and help ("{}" filled with `fill`).
  const auto option = [&](const char* parameter, auto& target, const std::string& fill = "") {
    const auto& row = engine::parameter(parameter);
    return app.add_option(engine::option_names(row), target, engine::help_of(row, fill))->group(group);
  };
  if (offer.structure)
    option("structure", structure, offer.structure_required ? "Wilson's Figure 1" : "default: all that have closed forms");
  if (offer.graph) {
    option("graph", model.graph);
    option("task_law", task_law)->capture_default_str();
    option("task_cv", model.task_graph.law.cv)->capture_default_str();
    option("mapping", model.task_graph.mapping);
    if (offer.schedule) {
      option("schedule", schedule, structures::schedule_names(" | ", " | "));
      option("sd_weight", sd_weight)->capture_default_str();
    }
    option("bandwidth", model.task_graph.bandwidth);
  }
  option("width", model.width);
  option("fast_count", model.fast_count)->capture_default_str();
  option("scale", scale)->capture_default_str();
  option("law", law)->capture_default_str();
  option("fast_law", fast_law);
  option("levels", model.levels)->capture_default_str();
  option("comm_cost", comm)->capture_default_str();
  if (offer.graph) {
    option("processor_scale", scales);
    option("processor_cores", cores);
    option("port", port, port_help() + "; " + engine::overlap_spellings())
        ->check(non_empty("choose " + engine::port_names() + "; leave " + flag_of("port") + " out for " +
                          engine::to_string(engine::Port::free)));
    option("dispatch", dispatch)
        ->check(non_empty("choose ready or ordered; leave " + flag_of("dispatch") + " out for the input's rule"));
    option("platform", platform)->check(non_empty("give a platform file; leave --platform out for none"));
    option("sharing", sharing)->check(non_empty("choose rtt, max-min or none; leave --sharing out for rtt"));
    const auto& overlap = engine::parameter("overlap");
    app.add_flag(engine::option_names(overlap), model.overlap,
                 engine::help_of(overlap, engine::port_names(", ", " or ", false, true)))
        ->group(group);
  }
  if (offer.protocol)
    option("protocol", protocol,
           "sync: " + listed(engine::synchronous_protocol_names()) + "; nn: " + listed(engine::neighbor_protocol_names()) +
               "; ms: " + listed(engine::master_slave_protocol_names()));
  std::vector<std::string> policies;
  for (const auto& p : engine::master_slave_policies()) policies.push_back(p.name);
  if (offer.policy) option("policy", policy, listed(policies));
  if (offer.slowdown) {
    for (auto [parameter, target] : {std::pair{"slowdown", &slowdown}, std::pair{"machine_slowdown", &machine_slowdown}})
      option(parameter, *target)
          ->check(non_empty("give a law such as u(1,2); leave " + flag_of(parameter) + " out for independent times"));
  }
  option("exchange", exchange)->capture_default_str();
  const auto& memory_check = engine::parameter("memory_check");
  app.add_flag(std::string(memory_check.flag) + "{false}", model.memory_check, memory_check.help)->group(group);
}

engine::Model ModelOptions::resolved() const {
  const auto given = [&](const char* flag) {
    const auto* option = app_ ? app_->get_option_no_throw(flag) : nullptr;
    return option && option->count() > 0;
  };
  // The options given, as the library's parameters' texts: engine::parse_model parses and checks
  // them as it does the Python module's and the sweep's (its errors name the parameters, which
  // cli/parameters.cpp spells as flags). CLI11 has read the numbers by their types already.
  engine::ModelTexts t;
  t.fixed_structure = fixed_structure_;
  t.protocols = protocols_;
  const auto put = [&](const char* parameter, const std::string& text) {
    if (given(engine::parameter(parameter).flag)) t.set(parameter, text);
  };
  const auto number = [](double x) { return distributions::format_exact(x); };
  put("structure", structure);
  put("graph", model.graph);
  put("task_law", task_law);
  put("task_cv", number(model.task_graph.law.cv));
  put("mapping", model.task_graph.mapping);
  put("bandwidth", number(model.task_graph.bandwidth.value_or(0.0)));
  if (!schedule.empty()) t.set("schedule", schedule);  // --schedule, or the schedule command's --algorithm
  put("sd_weight", number(sd_weight));
  put("width", std::to_string(model.width));
  put("fast_count", std::to_string(model.fast_count));
  put("scale", scale);
  put("law", law);
  put("fast_law", fast_law);
  put("levels", std::to_string(model.levels));
  put("comm_cost", comm);
  put("processor_scale", scales);
  put("processor_cores", cores);
  put("port", port);
  put("overlap", model.overlap ? "true" : "false");
  put("dispatch", dispatch);
  put("platform", platform);
  put("sharing", sharing);
  put("protocol", protocol);
  put("policy", policy);
  put("exchange", exchange);
  put("slowdown", slowdown);
  put("machine_slowdown", machine_slowdown);
  t.set("memory_check", model.memory_check ? "true" : "false");  // --no-memory-check{false} sets it
  return engine::parse_model(t);
}

}  // namespace hetstruct::cli
