// Helpers shared by the tests of custom DAGs (tests/criticality_test.cpp,
// tests/criticality_models_test.cpp, tests/dag_comm_test.cpp): the steps their random DAGs take
// alike, and a criticality run. Each draws from the caller's engine in the order the tests always
// drew, so that a seed gives the same graph as before.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/criticality.h"
#include "structures/custom.h"
#include "structures/structure.h"

namespace hetstruct::testing {

// `size` tasks t0, t1, ... added to a custom DAG, each with a processor below `width` and then a law
// among the first `law_count` of s.laws, drawn in that order task by task; s.width grows to the
// highest processor used plus one.
inline void add_random_tasks(std::mt19937_64& engine, structures::Structure& s, int size, int width, int law_count) {
  std::uniform_int_distribution<int> law(0, law_count - 1), processor(0, width - 1);
  structures::PrecedenceGraph& g = s.custom_graph();
  for (int v = 0; v < size; ++v) {
    structures::Task t;
    t.processor = processor(engine);
    t.law = law(engine);
    t.name = "t" + std::to_string(v);
    boost::add_vertex(t, g);
    s.width = std::max(s.width, t.processor + 1);
  }
}

// Each processor's tasks chained in vertex order, as a reader does: an edge from the processor's
// previous task unless one is there already. The edges a builder adds are no file's edges
// (not_a_file_edge), unless `file_index` is given: then each takes the next position from it.
inline void chain_processors(structures::Structure& s, std::uint32_t* file_index = nullptr) {
  structures::PrecedenceGraph& g = s.custom_graph();
  std::vector<int> last(static_cast<std::size_t>(s.width), -1);
  const int size = static_cast<int>(boost::num_vertices(g));
  for (int v = 0; v < size; ++v) {
    const int p = g[v].processor;
    if (last[p] >= 0 && !boost::edge(last[p], v, g).second) {
      structures::Precedence e{false};
      if (file_index) e.file_index = (*file_index)++;
      boost::add_edge(last[p], v, e, g);
    }
    last[p] = v;
  }
}

// The criticality of `s` (engine/simulate/criticality.h) over `reps` replications of `seed`, on the
// plan criticality_plan makes of s's own.
inline engine::CriticalityRun criticality_run(const structures::Structure& s, std::uint64_t seed, std::uint64_t reps,
                                              int threads, const engine::CompileOptions& options) {
  const engine::Plan plan = engine::compile(s, options);
  const engine::Plan used = engine::criticality_plan(s, plan, options);
  engine::RunOptions run;
  run.seed = seed;
  run.reps = reps;
  run.threads = threads;
  return engine::run_criticality(s, used, run);
}

// A custom DAG's message times of the replication just evaluated into `ws`, by file edge (0 where
// an edge carries none: within one processor, or without a law of its own at C = 0), as the plan
// draws them in file edge order.
inline std::vector<double> messages_by_edge(const structures::CustomDag& dag, double comm, const engine::Workspace& ws) {
  std::vector<double> out(dag.edges.size(), 0.0);
  std::size_t m = 0;
  for (std::size_t e = 0; e < dag.edges.size(); ++e) {
    const auto& edge = dag.edges[e];
    if (dag.tasks[edge.from].processor == dag.tasks[edge.to].processor) continue;
    if (edge.comm_law < 0 && !(comm > 0.0)) continue;
    out[e] = ws.message_times.at(m++);
  }
  // The rule above and the plan's must name the same messages.
  if (m != ws.message_times.size()) throw std::logic_error("messages_by_edge: the edges carry another count of messages than the plan");
  return out;
}

}  // namespace hetstruct::testing
