#include "python/arguments.h"

#include <Python.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include <oneapi/tbb/info.h>

#include "distributions/input_error.h"
#include "engine/simulate/parameters.h"
#include "engine/simulate/run_options.h"
#include "engine/sweep/distribution_lists.h"
#include "structures/task_graphs.h"
#include "structures/schedule.h"

namespace hetstruct::python {

namespace {

// Phrases of the library's messages that name a setting, and how a Python caller says them.
constexpr std::array<std::pair<const char*, const char*>, 10> phrases = {{
    {"give fast_count, scale, processor_scale, comm_cost, port", "give m, a, scales, comm, port"},
    {"vary fast_count, scale, comm_cost or port", "vary m, a, comm or port"},
    {"leave it out, or give the structure nn", "leave it out, or give structure='nn'"},
    {"choose the protocol (protocol)", "choose the protocol with protocol="},
    {"memory_check off", "memory_check=False"},
    {"(processor_cores)", "(cores=)"},
    {"(processor_scale)", "(scales=)"},
    {"(comm_cost)", "(comm=)"},
    {"(port free)", "(port='free')"},
    {"give a graph file", "give graph= (a file or a networkx DiGraph)"},
}};

// A number as the text that reads back to the same double (C++'s shortest round trip).
std::string shortest(double value) {
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

// One call's keyword arguments, each read at most once; finish() refuses the ones not read. None
// is the same as leaving the keyword out.
class Keywords {
 public:
  Keywords(std::string call, const py::kwargs& kwargs) : call_(std::move(call)) {
    for (const auto& [key, value] : kwargs)
      if (!value.is_none()) values_.emplace(py::cast<std::string>(key), py::reinterpret_borrow<py::object>(value));
  }

  bool given(const std::string& name) const { return values_.count(name) > 0; }

  // A value as the command line's text: a str as it is, an int, a float as its shortest
  // round-trip text, a path (os.PathLike) as its path, a Fraction as n/d.
  std::optional<std::string> text(const std::string& name) {
    const auto value = take(name);
    if (!value) return std::nullopt;
    return text_of(name, *value);
  }
  std::string text(const std::string& name, const std::string& fallback) { return text(name).value_or(fallback); }

  // A list: a str as one text (the library splits it: "sync,nn", "0:0.25:0.025"), a sequence as
  // its items' texts.
  std::vector<std::string> list(const std::string& name) {
    const auto value = take(name);
    if (!value) return {};
    if (py::isinstance<py::str>(*value) || !py::isinstance<py::iterable>(*value)) return {text_of(name, *value)};
    std::vector<std::string> items;
    for (const auto& item : *value) items.push_back(text_of(name, py::reinterpret_borrow<py::object>(item)));
    if (items.empty()) throw InputError(name, "an empty list gives no value", "leave it out for the default");
    return items;
  }
  // A list as one text, its items joined by commas (scales="1,1,1/2" or [1, 1, 0.5]).
  std::string joined(const std::string& name) {
    std::string text;
    for (const auto& item : list(name)) text += (text.empty() ? "" : ",") + item;
    return text;
  }

  int integer(const std::string& name, int fallback) {
    const auto t = text(name);
    if (!t) return fallback;
    long long v = 0;
    const auto r = std::from_chars(t->data(), t->data() + t->size(), v);
    if (t->empty() || r.ec != std::errc() || r.ptr != t->data() + t->size() || v < std::numeric_limits<int>::min() ||
        v > std::numeric_limits<int>::max())
      throw InputError(name, "'" + *t + "' is not a whole number");
    return static_cast<int>(v);
  }
  std::uint64_t count(const std::string& name, std::uint64_t fallback, std::uint64_t max) {
    const auto t = text(name);
    return t ? engine::parse_count(name, *t, max) : fallback;
  }
  double number(const std::string& name, double fallback) { return number(name).value_or(fallback); }
  std::optional<double> number(const std::string& name) {
    const auto t = text(name);
    if (!t) return std::nullopt;
    double v = 0.0;
    const auto r = std::from_chars(t->data(), t->data() + t->size(), v);
    if (t->empty() || r.ec != std::errc() || r.ptr != t->data() + t->size())
      throw InputError(name, "'" + *t + "' is not a number");
    return v;
  }
  // True or False only: a number or a text would be a guess.
  bool flag(const std::string& name, bool fallback) {
    const auto value = take(name);
    if (!value) return fallback;
    if (!py::isinstance<py::bool_>(*value)) throw InputError(name, "takes True or False");
    return value->cast<bool>();
  }

  // Refuses any keyword the call did not read.
  void finish() const {
    for (const auto& [name, value] : values_)
      if (!read_.count(name)) throw InputError(name, "is not a keyword of " + call_ + "() here", "see help(hetstruct." + call_ + ")");
  }

 private:
  std::optional<py::object> take(const std::string& name) {
    read_[name] = true;
    const auto at = values_.find(name);
    if (at == values_.end()) return std::nullopt;
    return at->second;
  }
  static std::string text_of(const std::string& name, const py::object& value) {
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::bool_>(value)) throw InputError(name, "takes a number or a text, not True or False");
    if (PyFloat_Check(value.ptr())) return shortest(value.cast<double>());
    if (PyIndex_Check(value.ptr())) {
      // numpy's arrays have __index__ but refuse it unless they hold one whole number: then the
      // Python error is cleared and the value refused below, as any other it cannot read.
      if (PyObject* index = PyNumber_Index(value.ptr())) return py::str(py::reinterpret_steal<py::object>(index));
      PyErr_Clear();
    }
    if (py::hasattr(value, "__fspath__")) return py::str(value.attr("__fspath__")());
    if (py::hasattr(value, "numerator") && py::hasattr(value, "denominator"))  // fractions.Fraction
      return py::str(value.attr("numerator")).cast<std::string>() + "/" + py::str(value.attr("denominator")).cast<std::string>();
    if (PyNumber_Check(value.ptr()) && py::hasattr(value, "__float__")) {
      try {
        return shortest(py::float_(value).cast<double>());
      } catch (const py::error_already_set&) {  // an array of several numbers, say: refused below
      }
    }
    throw InputError(name, "takes a number or a text, not " + py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  }

  std::string call_;
  std::map<std::string, py::object> values_;
  std::map<std::string, bool> read_;
};

// reps, seed and threads, parsed as the command line's (engine::parse_run).
engine::RunOptions sampling(Keywords& k, std::uint64_t default_reps = 10000) {
  const std::string reps = k.text("reps", std::to_string(default_reps)), seed = k.text("seed", "1");
  return engine::parse_run(reps, seed, k.integer("threads", 0));
}

// estimator= and the target precision (target_se, target_rel, target_reps, se_floor).
engine::Estimator estimator(Keywords& k, const char* fallback) { return engine::parse_estimator(k.text("estimator", fallback)); }
engine::StopRule stop(Keywords& k) {
  const double target_se = k.number("target_se", 0.0), target_rel = k.number("target_rel", 0.0);
  const double se_floor = k.number("se_floor", 0.0);
  return engine::parse_stop(target_se, target_rel, se_floor, k.text("target_reps"));
}

// Lists and ranges of numbers (quantile levels, deadlines).
std::vector<double> numbers(const char* parameter, const std::vector<std::string>& texts) {
  return engine::number_lists(parameter, texts);
}

// slowdown= or machine_slowdown=: a law's text ("" when not given); an empty one would do nothing,
// as the command line's non-empty check refuses it. slowdown= also takes one law per processor, a
// list or a comma-separated text, as the command line's --slowdown.
std::string slowdown_law(Keywords& k, const char* name) {
  const auto law = std::string(name) == "slowdown" && k.given(name) ? std::optional<std::string>(k.joined(name)) : k.text(name);
  if (law && law->empty())
    throw InputError(name, "an empty law does nothing", "give a law such as u(1,2); leave it out for independent times");
  return law.value_or("");
}

// Which of the model's keywords a call offers (the command line's ModelOptions::Offer).
struct Offer {
  bool structure = true;
  bool graph = true;
  bool protocol = true;
  bool policy = true;
  bool schedule = true;  // schedule= and sd_weight= (the schedule call names its own: algorithm=)
  bool slowdown = false;  // slowdown= and machine_slowdown= (simulate's, as the command line's)
  std::optional<structures::StructureKind> fixed_structure{};  // policies: ms
};

// A graph's static schedule (the command line's --schedule or --algorithm, and --sd-weight).
void set_schedule(structures::TaskGraphOptions& graph, Keywords& k, const char* algorithm) {
  const auto name = k.text(algorithm);
  if (name) {
    structures::ScheduleOptions placed;
    try {
      placed.algorithm = structures::parse_schedule_algorithm(*name);
    } catch (const InputError& e) {
      throw InputError(algorithm, e.problem(), e.hint());
    }
    placed.sd_weight = k.number("sd_weight", placed.sd_weight);
    graph.schedule = placed;
  }
  if (k.given("sd_weight") && (!graph.schedule || graph.schedule->algorithm != structures::ScheduleAlgorithm::heft_sd))
    throw InputError("sd_weight", "applies to the heft-sd schedule only", "leave it out, or choose heft-sd");
}

// The model, as the command line's ModelOptions::resolved() makes it from the same options: the
// keywords given, as the library's parameters' texts, parsed by engine::parse_model (its errors
// name the parameters, which keyword_of spells as keywords).
engine::Model model(Keywords& k, Offer offer) {
  engine::ModelTexts t;
  t.fixed_structure = offer.fixed_structure;
  const auto put = [&](const char* keyword, const char* parameter) {
    if (const auto text = k.text(keyword)) t.set(parameter, *text);
  };
  const auto put_flag = [&](const char* keyword, const char* parameter, bool fallback) {
    if (k.given(keyword)) t.set(parameter, k.flag(keyword, fallback) ? "true" : "false");
  };
  if (offer.structure) put("structure", "structure");
  if (offer.graph) {
    put("graph", "graph");
    put("task_law", "task_law");
    put("task_cv", "task_cv");
    put("mapping", "mapping");
    put("bandwidth", "bandwidth");
    if (k.given("scales")) t.set("processor_scale", k.joined("scales"));
    if (k.given("cores")) t.set("processor_cores", k.joined("cores"));
    const auto port = k.text("port");
    if (port && port->empty())
      throw InputError("port", "an empty value does nothing (choose " + engine::port_names() + "; leave port out for " +
                                   engine::to_string(engine::Port::free) + ")");
    if (port) t.set("port", *port);
    put_flag("overlap", "overlap", false);
    put("dispatch", "dispatch");
    put("platform", "platform");  // a SimGrid platform file (docs/platform.md)
    put("sharing", "sharing");
    if (offer.schedule) {
      put("schedule", "schedule");
      put("sd_weight", "sd_weight");
    }
  }
  put("n", "width");
  put("m", "fast_count");
  put("a", "scale");
  put("law", "law");
  put("fast_law", "fast_law");
  put("levels", "levels");
  put("comm", "comm_cost");
  if (offer.protocol) put("protocol", "protocol");
  if (offer.policy) put("policy", "policy");
  put("exchange", "exchange");
  if (offer.slowdown)
    for (const char* name : {"slowdown", "machine_slowdown"})
      if (k.given(name)) t.set(name, slowdown_law(k, name));
  put_flag("memory_check", "memory_check", true);
  return engine::parse_model(t);
}

}  // namespace

std::string keyword_of(const std::string& parameter) {
  const auto* row = engine::find_parameter(parameter);
  return row ? row->keyword : parameter;
}

std::string keyword_text(std::string text) {
  text = engine::spell_tokens(std::move(text), [](const engine::Parameter& p) { return std::string(p.keyword) + "="; });
  for (const auto& [phrase, keyword] : phrases)
    for (auto at = text.find(phrase); at != std::string::npos; at = text.find(phrase, at + std::strlen(keyword)))
      text.replace(at, std::strlen(phrase), keyword);
  return text;
}

SimulateCall simulate_call(const py::kwargs& kwargs) {
  Keywords k("simulate", kwargs);
  SimulateCall c;
  c.model = model(k, {.slowdown = true});
  c.run = sampling(k);
  c.metrics = k.flag("metrics", false);
  c.keep = k.flag("keep", false);
  const bool estimator_given = k.given("estimator");
  c.estimator = estimator(k, "auto");
  c.stop = stop(k);
  // The distribution as simulate's --distribution, --quantiles and --deadline ask for it.
  const bool asked = k.flag("distribution", false);
  const auto quantiles = k.list("quantiles"), deadlines = k.list("deadline");
  // histogram=BINS: the histogram's records returned beside the others (and, with
  // histogram_out=FILE, its CSV written there, as --histogram BINS --histogram-out FILE).
  const std::uint64_t bins = k.count("histogram", 0, engine::max_histogram_bins);
  if (k.given("histogram") && bins == 0) throw InputError("histogram", "needs at least 1 bin");
  c.histogram_out = k.text("histogram_out", "");
  if (!c.histogram_out.empty() && bins == 0)
    throw InputError("histogram_out", "needs histogram=BINS", "give histogram=BINS, or leave histogram_out out");
  if (asked || !quantiles.empty() || !deadlines.empty() || bins > 0) {
    c.distribution.sd = true;
    c.distribution.quantile_levels = quantiles.empty() ? engine::default_quantile_levels : numbers("quantiles", quantiles);
    c.distribution.deadlines = numbers("deadline", deadlines);
    c.distribution.histogram_bins = bins;
    c.distribution.validate();
  }
  // estimates=True: the analytic DAG estimates beside the simulated mean, as --estimates.
  c.estimates = k.flag("estimates", false);
  // Criticality: one record per task, plain Monte Carlo over a fixed number of replications, as
  // the command line's --criticality (the same refusals, in keywords).
  c.criticality = k.flag("criticality", false);
  if (c.criticality) {
    const auto refuse = [](const char* keyword, const std::string& hint) {
      throw InputError(keyword, "does not go with criticality", hint);
    };
    if (c.metrics) refuse("metrics", "run simulate(metrics=True) without criticality");
    if (c.keep) refuse("keep", "criticality returns one record per task; run keep=True without it");
    if (c.distribution.any()) refuse("distribution", "criticality returns one record per task; run the distribution without it");
    if (c.stop.active()) refuse("target_se", "criticality runs a fixed number of replications (reps)");
    if (c.estimates) refuse("estimates", "run simulate(estimates=True) without criticality");
    if (c.estimator != engine::Estimator::mc && c.estimator != engine::Estimator::automatic)
      refuse("estimator", "criticality is plain Monte Carlo: leave estimator out or give mc");
  }
  // compare_to=['schedule=B']: the graph's schedule against B, as simulate --compare-to schedule=B.
  const auto compare_to = k.list("compare_to");
  const auto is_schedule = [](const std::string& text) { return text.rfind("schedule=", 0) == 0; };
  if (std::any_of(compare_to.begin(), compare_to.end(), is_schedule)) {
    if (!std::all_of(compare_to.begin(), compare_to.end(), is_schedule))
      throw InputError("compare_to", "compares schedules (schedule=ALGORITHM) or model options, not both at once",
                       "make one call for each");
    for (const auto& text : compare_to) {
      try {
        c.schedules.push_back(engine::parse_schedule_choice(text.substr(std::string("schedule=").size())));
      } catch (const InputError& e) {
        throw InputError("compare_to", e.problem(), e.hint());
      }
    }
    const auto refuse = [](const char* keyword, const std::string& hint) {
      throw InputError(keyword, "does not go with compare_to", hint);
    };
    if (c.metrics) refuse("metrics", "run simulate(metrics=True) without compare_to");
    if (c.keep) refuse("keep", "compare_to returns the comparison's rows; run keep=True without it");
    if (c.criticality) refuse("criticality", "run simulate(criticality=True) without compare_to");
    if (estimator_given && c.estimator != engine::Estimator::mc)
      throw InputError("estimator", "schedule comparisons are plain Monte Carlo", "leave it out, or give mc");
    if (!c.model.task_graph.schedule)
      throw InputError("compare_to", compare_to.front() + " needs the schedule to compare it with",
                       "give schedule= one of " + structures::schedule_names());
    k.finish();
    return c;
  }
  for (const auto& text : compare_to) c.comparisons.emplace_back(text);
  if (!c.comparisons.empty()) {
    const auto refuse = [](const char* keyword, const std::string& hint) {
      throw InputError(keyword, "does not go with compare_to", hint);
    };
    if (c.metrics) refuse("metrics", "run simulate(metrics=True) without compare_to");
    if (c.keep) refuse("keep", "compare_to returns the sweep's rows; run keep=True without it");
    if (c.criticality) refuse("criticality", "run simulate(criticality=True) without compare_to");
    if (c.estimates) refuse("estimates", "run simulate(estimates=True) without compare_to");
    if (bins > 0) refuse("histogram", "the sweep's rows have no histogram; distribution, quantiles and deadline give its rows");
    const engine::Estimator requested = estimator_given ? c.estimator : engine::Estimator::mc;
    if (requested == engine::Estimator::exact)
      throw InputError("estimator", "compare_to simulates the mean; the exact expectation is its closed_form row",
                       "choose auto, cv, antithetic, antithetic-cv or mc");
    c.mean = engine::mean_estimator(requested, c.stop, c.distribution.any(), c.model.slowed());
  }
  k.finish();
  return c;
}

BoundsCall bounds_call(const py::kwargs& kwargs) {
  Keywords k("bounds", kwargs);
  BoundsCall c;
  c.model = model(k, {.protocol = false, .policy = false});
  c.estimates = k.flag("estimates", false);
  c.nn_run = sampling(k);
  k.finish();
  return c;
}

ScheduleCall schedule_call(const py::kwargs& kwargs) {
  Keywords k("schedule", kwargs);
  ScheduleCall c;
  // Without a graph the model would ask for n: a schedule is of a graph, say so first.
  if (!k.given("graph")) throw InputError("graph", "missing", "a schedule is of a graph file: give a graph file");
  c.model = model(k, {.structure = false, .protocol = false, .policy = false, .schedule = false});
  set_schedule(c.model.task_graph, k, "algorithm");
  c.mapping_out = k.text("output_mapping", "");
  if (k.given("output_mapping") && c.mapping_out.empty())
    throw InputError("output_mapping", "an empty path names no file", "leave it out for no mapping file");
  k.finish();
  return c;
}

FitCall fit_call(const py::kwargs& kwargs) {
  Keywords k("fit", kwargs);
  FitCall c;
  c.inputs.samples = k.text("samples", "");
  c.inputs.graphs = k.list("graph");
  c.inputs.sacct = k.text("sacct", "");
  if (!c.inputs.samples.empty() + !c.inputs.graphs.empty() + !c.inputs.sacct.empty() != 1)
    throw InputError("fit", "give exactly one of samples=, graph=, sacct=");
  if (k.given("by") && c.inputs.graphs.empty()) throw InputError("by", "groups graph= traces only");
  c.grouping = engine::parse_grouping(k.text("by", "category"));
  if (k.given("laws")) c.options.laws = distributions::fit::parse_families(k.joined("laws"));
  c.options.seed = k.count("seed", 1, std::numeric_limits<std::uint64_t>::max());
  c.out_graph = k.text("out_graph", "");
  if (!c.out_graph.empty() && c.inputs.graphs.empty()) throw InputError("out_graph", "needs graph=");
  k.finish();
  return c;
}

PoliciesCall policies_call(const py::kwargs& kwargs) {
  Keywords k("policies", kwargs);
  PoliciesCall c;
  c.model = model(k, {.structure = false,
                      .graph = false,
                      .policy = false,
                      .schedule = false,
                      .fixed_structure = structures::StructureKind::master_slave});
  c.run = sampling(k);
  c.estimator = estimator(k, "auto");
  c.stop = stop(k);
  k.finish();
  return c;
}

SweepCall sweep_call(const py::kwargs& kwargs) {
  Keywords k("sweep", kwargs);
  SweepCall c;
  using D = engine::SweepDim;
  std::array<std::vector<std::string>, D::count> texts;
  for (std::size_t dim = 0; dim < D::count; ++dim) texts[dim] = k.list(engine::sweep_dimensions[dim]);
  const auto graphs = k.list("graph"), ports = k.list("port");
  const bool graph = !graphs.empty();
  for (const char* name : {"task_law", "task_cv", "mapping", "bandwidth", "scales", "cores", "schedule", "sd_weight", "dispatch"})
    if (k.given(name) && !graph) throw InputError(name, "applies to a graph only", "give graph=FILE.dot or a list of graphs");
  // The graphs' settings, parsed as simulate's (engine::graph_settings calls engine::parse_model).
  engine::ModelTexts settings;
  for (const char* name : {"task_law", "task_cv", "mapping", "bandwidth", "schedule", "sd_weight", "dispatch"})
    if (const auto text = k.text(name)) settings.set(name, *text);
  if (k.given("scales")) settings.set("processor_scale", k.joined("scales"));
  if (k.given("cores")) settings.set("processor_cores", k.joined("cores"));
  c.graph = engine::graph_settings(settings);
  // Correlated slowdowns of every configuration (the sweep's --slowdown, --machine-slowdown).
  const engine::SweepSlowdowns slowdowns{slowdown_law(k, "slowdown"), slowdown_law(k, "machine_slowdown")};
  if (texts[D::structure].empty() && !graph)
    throw InputError("structure", "missing", "give structure='sync' or a list such as ['sync', 'nn', 'ms'], or graph=");
  if (texts[D::n].empty() && !texts[D::structure].empty())
    throw InputError("n", "missing", "give n=8, a list [8, 16] or a range '2:16:2'");
  c.run = sampling(k);
  const std::uint64_t max_configs = k.count("max_configs", 1'000'000, std::numeric_limits<std::uint32_t>::max());
  if (max_configs == 0) throw InputError("max_configs", "must be at least 1");
  c.skip_invalid = k.flag("skip_invalid", false);
  const bool memory_check = k.flag("memory_check", true);
  for (const auto& text : k.list("compare_to")) c.comparisons.emplace_back(text);
  // The distribution's rows, as the sweep's --estimators, --quantiles and --deadline ask for them.
  const auto estimators = k.list("estimators"), quantiles = k.list("quantiles"), deadlines = k.list("deadline");
  c.distribution = engine::sweep_distribution(estimators, quantiles, deadlines, std::string(engine::parameter("deadline").keyword) + "=T");
  c.mean = engine::mean_estimator(estimator(k, "mc"), stop(k), c.distribution.any(),
                                  !slowdowns.processor.empty() || !slowdowns.machine.empty());
  k.finish();
  c.grids = engine::make_grids(texts, graphs, ports, max_configs, slowdowns);
  if (memory_check)
    for (const auto& grid : c.grids) engine::check_grid_memory(grid);
  if (c.distribution.any()) engine::check_stored_makespans(c.run.reps, 2.0, memory_check);
  return c;
}

TableCall table_call(const py::object& which, const py::kwargs& kwargs) {
  Keywords k("table", kwargs);
  TableCall c;
  const std::string text = py::isinstance<py::str>(which) ? which.cast<std::string>() : py::str(which).cast<std::string>();
  if (text == "all") {
    c.tables = engine::supported_tables();
  } else {
    int t = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), t);
    if (py::isinstance<py::bool_>(which) || r.ec != std::errc() || r.ptr != text.data() + text.size() || t < 1 || t > 8)
      throw InputError("table", "'" + text + "' is not a table of the paper", "give 1..8 or 'all'");
    c.tables = {t};
  }
  const auto run = sampling(k);
  c.run.reps = run.reps;
  c.run.seed = run.seed;
  c.run.threads = run.threads;
  c.run.estimator = estimator(k, "mc");
  c.run.stop = stop(k);
  if (k.given("ms_reps")) {
    c.run.master_slave_reps = k.count("ms_reps", 0, engine::max_replications);
    if (*c.run.master_slave_reps == 0)
      throw InputError("ms_reps", "the number of replications must be at least 1", "leave it out to use reps");
  }
  k.finish();
  return c;
}

FigureCall figure_call(const py::object& which, const py::kwargs& kwargs) {
  Keywords k("figure", kwargs);
  FigureCall c;
  int n = 0;
  const std::string text = py::str(which).cast<std::string>();
  const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
  if (py::isinstance<py::bool_>(which) || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError("figure", "'" + text + "' is not a figure of the paper", "give 5..10");
  c.spec = engine::wilson_figure(n);
  c.run.law = k.text("law", c.run.law);
  c.run.scale = k.text("a", c.run.scale);
  c.run.levels = k.integer("levels", c.run.levels);
  c.run.sampling = sampling(k);
  c.run.estimator = estimator(k, "mc");
  c.run.stop = stop(k);
  if (c.run.estimator == engine::Estimator::exact)
    throw InputError("estimator", "a figure's points communicate: no exact expectation", "choose auto, cv or mc");
  k.finish();
  return c;
}

ReplayCall replay_call(const py::kwargs& kwargs) {
  Keywords k("hbsp_replay", kwargs);
  ReplayCall c;
  c.monte_carlo = k.given("reps");
  c.metrics = k.flag("metrics", false);
  if (c.metrics && c.monte_carlo) throw InputError("metrics", "the measures come from one replay: leave out reps");
  const auto machine = k.text("machine");
  if (!machine) throw InputError("machine", "missing", "give the machine file (g, L, processors with r_j and speed)");
  c.machine = bounds::hbsp::load_machine(*machine);
  // Not given: every processor. Given, even 0, it must be one of 1..size.
  c.p = k.given("processors") ? k.integer("processors", 0) : c.machine.size();
  c.machine.check_p(c.p);
  engine::hbsp::ReplayTexts t;
  t.program = k.text("program", "");
  t.algorithm = k.text("algorithm", "");
  t.form = k.text("form", t.form);
  if (!t.algorithm.empty()) {  // a program file's replay takes none of these (finish() refuses them)
    t.item_size = k.number("item_size", t.item_size);
    t.size = k.text("size", t.size);
    t.root = k.text("root", t.root);
    t.workload = k.text("workload", t.workload);
    t.accounting = k.text("accounting", t.accounting);
    t.oversampling = k.number("oversampling", t.oversampling);
  }
  c.input = engine::hbsp::replay_input(c.machine, c.p, t);
  if (const auto trace = k.text("trace")) c.trace = engine::hbsp::load_trace(*trace, c.machine);
  if (c.monte_carlo && !c.trace) throw InputError("reps", "a Monte Carlo replay draws r_j from a trace: give trace=")
  ;
  if (c.monte_carlo) {
    const auto run = sampling(k);
    c.options.reps = run.reps;
    c.options.seed = run.seed;
    c.options.threads = run.threads;
  }
  k.finish();
  return c;
}

CompareCall compare_call(const py::kwargs& kwargs) {
  std::vector<std::string> names;
  std::string baseline;
  py::kwargs rest;
  for (const auto& item : kwargs) {
    const std::string key = py::str(item.first);
    const py::handle value = item.second;
    if (key == "schedules") {
      if (py::isinstance<py::str>(value)) {
        const std::string text = value.cast<std::string>();
        for (std::size_t at = 0;;) {
          const std::size_t comma = text.find(',', at);
          names.push_back(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
          if (comma == std::string::npos) break;
          at = comma + 1;
        }
      } else {
        if (!py::isinstance<py::iterable>(value))
          throw InputError("schedules", "must be a list of schedule names, or one text of them joined by commas");
        for (const auto& name : value) {
          if (!py::isinstance<py::str>(name))
            throw InputError("schedules", "must be a list of schedule names, or one text of them joined by commas");
          names.push_back(name.cast<std::string>());
        }
      }
    } else if (key == "baseline") {
      if (!py::isinstance<py::str>(value)) throw InputError("baseline", "must be a schedule's name");
      baseline = value.cast<std::string>();
    } else if (key == "compare_to" || key == "schedule" || key == "metrics" || key == "keep" || key == "criticality" ||
               key == "estimates" || key == "histogram" || key == "histogram_out" || key == "estimator" ||
               key == "target_se" || key == "target_rel" || key == "target_reps" || key == "se_floor") {
      throw InputError(key, "does not go with compare (plain Monte Carlo of the schedules= against the baseline=)",
                       "leave it out; simulate() takes it");
    } else {
      rest[item.first] = item.second;
    }
  }
  if (names.empty()) throw InputError("schedules", "missing", "give the schedules to compare: schedules=['heft', 'peft']");
  engine::ScheduleSet schedules = engine::parse_schedule_set(names, baseline);
  rest["schedule"] = schedules.baseline.name();
  return {simulate_call(rest), std::move(schedules)};
}

}  // namespace hetstruct::python
