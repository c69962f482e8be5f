// The Python module hetstruct._hetstruct (the package python/hetstruct wraps it): each function
// converts its keyword arguments (python/arguments.h), calls the library with the GIL released and
// returns its records as a list of dicts with the CSV's field names. Ctrl-C raises the engine's
// interrupt flag, as the command line's SIGINT handler does: the run stops within a replication and
// KeyboardInterrupt is raised. InputError is ValueError naming the keyword; anything else the
// library throws is RuntimeError: never a crash of the interpreter.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "engine/simulate/bounds_records.h"
#include "engine/simulate/criticality.h"
#include "engine/simulate/dag_model.h"
#include "engine/hbsp/records.h"
#include "engine/driver/interrupt.h"
#include "engine/fit/fit.h"
#include "engine/simulate/policies.h"
#include "engine/simulate/record.h"
#include "engine/simulate/schedule_records.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "engine/wilson/figures.h"
#include "engine/wilson/tables.h"
#include "python/arguments.h"
#include "structures/schedule.h"

namespace py = pybind11;

namespace hetstruct::python {

namespace {

// The library's warnings during a call, issued as Python warnings after it (they may come from
// any thread, without the GIL).
std::mutex warnings_mutex;
std::vector<std::string> warnings;

void issue_warnings() {
  std::vector<std::string> pending;
  {
    std::lock_guard lock(warnings_mutex);
    pending.swap(warnings);
  }
  for (const auto& text : pending)
    if (PyErr_WarnEx(PyExc_RuntimeWarning, text.c_str(), 1) != 0) throw py::error_already_set();
}

// A record as a dict: numbers as float (NaN, the CSV's empty field, as None), counts as int, texts
// as str (an empty one, the CSV's empty field, as None), lists of numbers as lists, flags as bool,
// nothing as None. A sweep's records hold its numeric columns as their canonical texts (what the
// CSV prints): `numeric` reads n, m and levels as int, a and comm as float, the same doubles.
py::dict to_dict(const engine::Record& r, bool numeric = false) {
  py::dict d;
  for (const auto& field : r.fields()) {
    py::object value = std::visit(
        [](const auto& v) -> py::object {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) return py::none();
          else if constexpr (std::is_same_v<T, double>) return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v));
          else if constexpr (std::is_same_v<T, std::vector<double>>) {
            py::list list;
            for (const double x : v) list.append(py::float_(x));
            return list;
          } else if constexpr (std::is_same_v<T, std::string>) return v.empty() ? py::object(py::none()) : py::object(py::str(v));
          else return py::cast(v);
        },
        field.value);
    if (numeric && py::isinstance<py::str>(value)) {
      const auto& text = std::get<std::string>(field.value);
      const char *begin = text.data(), *end = text.data() + text.size();
      if (field.name == "n" || field.name == "m" || field.name == "levels") {
        long long whole = 0;
        if (const auto r = std::from_chars(begin, end, whole); r.ec == std::errc() && r.ptr == end) value = py::int_(whole);
      } else if (field.name == "a" || field.name == "comm") {
        double x = 0.0;
        if (const auto r = std::from_chars(begin, end, x); r.ec == std::errc() && r.ptr == end) value = py::float_(x);
      }
    }
    d[py::str(field.name)] = value;
  }
  return d;
}

py::list to_list(const std::vector<engine::Record>& records, bool numeric = false) {
  py::list out;
  for (const auto& r : records) {
    r.check_finite();  // what the CSV writer checks: an infinite number is the model overflowing
    out.append(to_dict(r, numeric));
  }
  return out;
}

// Runs `work` without the GIL, with SIGINT raising the engine's interrupt flag (in the main thread,
// where Python handles signals); its previous handler is back afterwards.
template <typename Work>
auto without_gil(Work&& work) {
  engine::interrupt_flag().store(false, std::memory_order_relaxed);
  struct sigaction on_interrupt {}, previous {};
  on_interrupt.sa_handler = [](int) { engine::interrupt_flag().store(true, std::memory_order_relaxed); };
  sigemptyset(&on_interrupt.sa_mask);
  const auto threading = py::module_::import("threading");
  const bool main_thread = threading.attr("current_thread")().is(threading.attr("main_thread")());
  if (main_thread) sigaction(SIGINT, &on_interrupt, &previous);
  struct Restore {
    bool active;
    struct sigaction previous;
    ~Restore() {
      if (active) sigaction(SIGINT, &previous, nullptr);
      engine::interrupt_flag().store(false, std::memory_order_relaxed);
    }
  } restore{main_thread, previous};
  py::gil_scoped_release release;
  return work();  // engine::Interrupted reaches translate() with the GIL back
}

// The library's errors as Python's: bad input as ValueError naming the keyword.
void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const engine::InvalidConfiguration& e) {
    const std::string comparison = e.comparison().empty() ? "" : "compare_to " + e.comparison() + ": ";
    const InputError cause(keyword_of(e.cause().where()), keyword_text(e.cause().problem()), keyword_text(e.cause().hint()));
    PyErr_SetString(PyExc_ValueError, ("configuration " + e.configuration() + ": " + comparison + cause.what()).c_str());
  } catch (const InputError& e) {
    PyErr_SetString(PyExc_ValueError, InputError(keyword_of(e.where()), keyword_text(e.problem()), keyword_text(e.hint())).what());
  } catch (const engine::Interrupted& e) {
    PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
  }
  // pybind11's own translators: std::exception as RuntimeError, error_already_set as itself.
}

template <typename F>
auto guarded(F&& f) {
  struct Flush {
    ~Flush() {
      try {
        issue_warnings();
      } catch (...) {
      }
    }
  };
  Flush flush;
  return f();
}

// Writes `text` to `path` whole or not at all (a temporary beside it, renamed); InputError on
// `keyword` when it cannot.
void write_whole(const std::string& path, const char* keyword, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw InputError(keyword, "cannot write '" + path + "'", "check the folder exists and is writable");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw InputError(keyword, "cannot write '" + path + "'", "check the folder exists and is writable");
  }
}

py::object simulate(const py::kwargs& kwargs) {
  return guarded([&]() -> py::object {
    const SimulateCall call = simulate_call(kwargs);
    if (!call.schedules.empty())  // the schedules' rows, as simulate --compare-to schedule=B prints them
      return to_list(without_gil([&] {
        return engine::compare_schedules(call.model, call.schedules, call.run, call.distribution);
      }));
    if (!call.comparisons.empty())  // the sweep's rows, as simulate --compare-to prints them
      return to_list(without_gil([&] {
        return engine::model_sweep_records(call.model, call.comparisons, call.run, call.mean, call.distribution);
      }), true);
    if (call.criticality)  // one record per task, the CLI's simulate --criticality --format csv
      return to_list(without_gil([&] {
        const engine::Simulation sim = engine::prepare(call.model);
        const engine::Plan plan = engine::criticality_plan(sim.structure, sim.plan, call.model.compile_options());
        return engine::criticality_records(engine::run_criticality(sim.structure, plan, call.run), call.run.seed);
      }));
    auto sim = std::make_unique<engine::Simulation>();
    std::vector<engine::Record> rows, histogram;
    without_gil([&] {
      *sim = engine::prepare(call.model);
      sim->distribution_options = call.distribution;
      sim->keep_makespans = call.keep;
      // The analytic estimates before the run, as the command line: bad input fails first.
      std::vector<bounds::DagEstimate> dag_estimates;
      if (call.estimates || (call.distribution.histogram_bins > 0 && engine::dag_estimates_apply(*sim)))
        dag_estimates = bounds::dag_estimates(engine::stochastic_dag(*sim));
      const engine::Estimator requested = call.estimates ? engine::comparison_estimator(call.estimator) : call.estimator;
      engine::run(*sim, call.run, call.metrics, requested, call.stop);
      const engine::Record r = engine::simulation_record(*sim, call.run.seed);
      if (call.estimates) rows = engine::comparison_records(sim->structure.name, dag_estimates, sim->estimate, call.run.seed);
      else rows = {r};
      if (sim->distribution && call.distribution.histogram_bins > 0) {
        histogram = engine::histogram_records(*sim->distribution, engine::histogram_marks(*sim, dag_estimates));
        if (!call.histogram_out.empty()) write_whole(call.histogram_out, "histogram_out", engine::render(histogram, engine::Format::csv));
      }
      return 0;
    });
    py::list records = to_list(rows);
    if (!call.keep && histogram.empty()) return records;
    py::tuple result = py::make_tuple(records);
    if (call.keep) {
      // The makespans without a copy: the array owns the vector.
      auto* kept = new std::vector<double>(std::move(sim->makespans));
      py::capsule owner(kept, [](void* p) { delete static_cast<std::vector<double>*>(p); });
      result = result + py::make_tuple(py::array_t<double>(static_cast<py::ssize_t>(kept->size()), kept->data(), owner));
    }
    if (!histogram.empty()) result = result + py::make_tuple(to_list(histogram));
    return result;
  });
}

py::list bounds(const py::kwargs& kwargs) {
  return guarded([&] {
    const BoundsCall call = bounds_call(kwargs);
    return to_list(without_gil([&] { return engine::bounds_records(call.model, call.estimates, [&] { return call.nn_run; }); }));
  });
}

// Several schedules on the same draws against a baseline: hetstruct compare's rows.
py::list compare(const py::kwargs& kwargs) {
  return guarded([&] {
    const CompareCall call = compare_call(kwargs);
    return to_list(without_gil([&] {
      return engine::compare_schedule_set(call.simulate.model, call.schedules.others, call.simulate.run,
                                          call.simulate.distribution);
    }));
  });
}

// A graph's static schedule: its records, and the mapping file written when output_mapping= names
// one (whole or not at all: a temporary beside it, renamed). The library names the algorithm
// `schedule` (simulate's schedule=); here it is algorithm=.
py::list schedule(const py::kwargs& kwargs) {
  return guarded([&] {
    const ScheduleCall call = schedule_call(kwargs);
    const auto scheduled = without_gil([&] {
      try {
        return engine::schedule_graph(call.model, !call.mapping_out.empty());
      } catch (const InputError& e) {
        if (e.where() != "schedule") throw;
        throw InputError("algorithm", e.problem(), e.hint());
      }
    });
    if (scheduled.mapping) write_whole(call.mapping_out, "output_mapping", *scheduled.mapping);
    return to_list(scheduled.records);
  });
}

// Laws fitted to measured runs: hetstruct fit's rows as dicts.
py::list fit(const py::kwargs& kwargs) {
  return guarded([&] {
    const FitCall call = fit_call(kwargs);
    const auto rows = without_gil([&] {
      return engine::fit_rows(engine::groups_of(call.inputs, call.grouping, engine::warn), call.options, engine::warn);
    });
    if (!call.out_graph.empty())
      write_whole(call.out_graph, "out_graph", engine::fitted_trace(call.inputs.graphs.front(), call.grouping, rows));
    return to_list(rows);
  });
}

py::list policies(const py::kwargs& kwargs) {
  return guarded([&] {
    const PoliciesCall call = policies_call(kwargs);
    return to_list(without_gil([&] { return engine::compare_policies(call.model, call.run, call.estimator, call.stop); }));
  });
}

// A sweep in one process: every configuration built before anything runs, its runs laid out and
// computed in order, each configuration's rows as soon as it is done (what `hetstruct sweep`
// does without MPI, --out or --resume).
py::list sweep(const py::kwargs& kwargs) {
  return guarded([&] {
    const SweepCall call = sweep_call(kwargs);
    return to_list(without_gil([&] {
      auto valid = engine::build_entries(call.grids, call.comparisons, call.skip_invalid, call.graph);
      auto todo = valid.entries;
      const auto runs = engine::plan_runs(todo, call.mean);
      engine::SweepShare share;
      share.pieces = engine::deal_blocks(engine::run_work(runs, call.run.reps), 1)[0];
      share.distribution = call.distribution;
      std::vector<std::vector<engine::Record>> rows(valid.entries.size());
      const bool target = engine::has_target(call.mean);
      share.entry_done = [&](const engine::Entry& entry, const engine::Job& job) {
        rows[entry.row] = engine::config_records(entry, job, call.comparisons, share.estimates, call.run.seed, share.extras, target);
      };
      share.compute(todo, runs, call.comparisons.size(), call.run);
      std::vector<engine::Record> records;
      for (auto& r : rows) records.insert(records.end(), r.begin(), r.end());
      return records;
    }), true);
  });
}

py::list table(const py::object& which, const py::kwargs& kwargs) {
  return guarded([&] {
    const TableCall call = table_call(which, kwargs);
    return to_list(without_gil([&] {
      std::vector<engine::Record> records;
      for (const auto& r : engine::regenerate(call.tables, call.run)) records.push_back(engine::cell_record(r));
      return records;
    }));
  });
}

py::list figure(const py::object& which, const py::kwargs& kwargs) {
  return guarded([&] {
    const FigureCall call = figure_call(which, kwargs);
    return to_list(without_gil([&] { return engine::figure_points(call.spec, call.run); }));
  });
}

py::list hbsp_replay(const py::kwargs& kwargs) {
  return guarded([&] {
    const ReplayCall call = replay_call(kwargs);
    return to_list(without_gil([&] {
      engine::hbsp::ReplayRecordOptions options;
      options.trace = call.trace ? &*call.trace : nullptr;
      if (call.monte_carlo) options.bootstrap = call.options;
      options.metrics = call.metrics;
      return engine::hbsp::replay_records(call.machine, call.input, options);
    }));
  });
}

}  // namespace

}  // namespace hetstruct::python

PYBIND11_MODULE(_hetstruct, m) {
  using namespace hetstruct::python;
  m.doc() = "hetstruct's library: Monte Carlo makespans of parallel structures on heterogeneous processors";
  py::register_exception_translator(&translate);
  hetstruct::engine::set_warning_handler([](const std::string& text) {
    std::lock_guard lock(warnings_mutex);
    warnings.push_back(keyword_text(text));
  });
  m.def("simulate", &simulate, "simulate(**options) -> [record] or ([record], makespans) with keep=True");
  m.def("bounds", &bounds, "bounds(**options) -> records: closed forms and bounds, or DAG estimates");
  m.def("sweep", &sweep, "sweep(**lists) -> records of every configuration of the grid");
  m.def("table", &table, py::arg("table"), "table(n, **sampling) -> records of Wilson's Table n (1..8 or 'all')");
  m.def("figure", &figure, py::arg("figure"), "figure(n, **options) -> points of Wilson's Figure n (5..10)");
  m.def("schedule", &schedule,
        ("schedule(graph=, algorithm=" + hetstruct::structures::schedule_names("|", "|") + ", ...) -> records per task of the static schedule").c_str());
  m.def("compare", &compare, "compare(graph=, schedules=[...], baseline=, **options) -> records of hetstruct compare");
  m.def("fit", &fit, "fit(samples= | graph= | sacct=, by=, laws=, seed=, out_graph=) -> records: laws fitted to runs");
  m.def("policies", &policies, "policies(**options) -> records of the master-slave dealing policies");
  m.def("hbsp_replay", &hbsp_replay, "hbsp_replay(machine=, program= | algorithm=, ...) -> records per superstep and total");
}
