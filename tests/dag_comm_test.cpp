// A custom DAG's generic plan with communication (engine/kernel/plan.h): each port model (free, one-port,
// one-port-greedy, with and without overlap) against an independent event-by-event simulation
// written here from the rules, on random DAGs, replication by replication; C = 0 against the
// zero-communication plan bit for bit; free against the longest path with edge weights; the
// one-port models never below free, and free where no two messages share a port; the two one-port
// models apart on a hand-computed graph; the same bits on any number of threads; processor scales
// with common random numbers.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <boost/graph/topological_sort.hpp>
#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"
#include "structures/task_graphs.h"
#include "dag_support.h"

namespace dag_comm_test {

namespace {

using hetstruct::InputError;
using hetstruct::distributions::Law;
using hetstruct::distributions::parse_law;
using hetstruct::distributions::Sampler;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

// A random DAG of `size` tasks on `width` processors, built as a reader would: edges from lower to
// higher vertex, listed in the file in a random order (senders interleaved), then each processor's
// tasks chained in vertex order. Task laws are continuous (no ties of event times), or with `ties`
// constants (many messages ready at once), or with `normal` normals (some times negative); some
// crossing edges get a message law of their own.
Structure random_dag(std::uint64_t seed, int size, int width, bool edge_laws, bool ties = false, bool normal = false) {
  std::mt19937_64 engine(seed);
  Structure s;
  s.kind = StructureKind::custom;
  s.name = "random";
  s.laws = {parse_law("u(0,1)"), parse_law("0.5*u(0,1)"), parse_law("u(0.2,0.8)"), parse_law("u(0,0.4)"),
            parse_law("c(0.25)")};
  if (ties) s.laws = {parse_law("c(1)"), parse_law("c(2)"), parse_law("c(3)"), parse_law("c(0.5)"), parse_law("c(1)")};
  if (normal)
    s.laws = {parse_law("n(0.5,1/12)"), parse_law("n(1,1/4)"), parse_law("u(0,1)"), parse_law("tn(0.2,0.01)"), parse_law("c(0.25)")};
  std::uniform_int_distribution<int> message_law(3, 4);
  std::bernoulli_distribution linked(0.15), own_law(0.5);
  hetstruct::testing::add_random_tasks(engine, s, size, width, 3);
  PrecedenceGraph& g = s.custom_graph();
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine)) {
        Precedence e{g[a].processor != g[b].processor};
        if (edge_laws && e.crosses_processors && own_law(engine)) e.comm_law = message_law(engine);
        boost::add_edge(a, b, e, g);
      }
  std::vector<std::uint32_t> file_order(boost::num_edges(g));
  std::iota(file_order.begin(), file_order.end(), 0u);
  std::shuffle(file_order.begin(), file_order.end(), engine);
  std::size_t k = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) g[e].file_index = file_order[k++];
  hetstruct::testing::chain_processors(s);
  s.levels = 1;
  return s;
}

CompileOptions comm(double c, std::optional<Port> port = std::nullopt, bool overlap = false) {
  CompileOptions options;
  options.comm_cost = c;
  options.port = port;
  options.overlap = overlap;
  return options;
}

// The model's rules, written out directly on the graph.
struct Reference {
  const Structure& s;
  double c;
  struct Msg {
    Vertex from, to;
    double time;
  };

  // Task times: one stream (domain dag_tasks) in vertex order, times the processor's scale.
  std::vector<double> task_times(std::uint64_t seed, std::uint64_t rep) const {
    const auto& g = s.graph();
    ProcessorStream stream(seed, rep, 0, ProcessorStream::dag_tasks);
    std::vector<double> x;
    for (Vertex v = 0; v < boost::num_vertices(g); ++v) {
      const double scale = s.processor_scale.empty() ? 1.0 : s.processor_scale[g[v].processor];
      x.push_back(scale * Sampler(s.laws[g[v].law])(stream));
    }
    return x;
  }
  // Messages: the edges between processors with a law of their own or C > 0, in the file's edge
  // order; times from one stream (domain messages) in that order.
  std::vector<Msg> messages(std::uint64_t seed, std::uint64_t rep) const {
    const auto& g = s.graph();
    std::vector<std::pair<std::uint32_t, PrecedenceGraph::edge_descriptor>> edges;  // file position, edge
    for (const auto e : boost::make_iterator_range(boost::edges(g)))
      if (g[boost::source(e, g)].processor != g[boost::target(e, g)].processor && (g[e].comm_law >= 0 || c > 0.0))
        edges.emplace_back(g[e].file_index, e);
    std::sort(edges.begin(), edges.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    ProcessorStream stream(seed, rep, 0, ProcessorStream::messages);
    std::vector<Msg> out;
    for (const auto& fe : edges) {
      const auto e = fe.second;
      const double time = g[e].comm_law >= 0 ? Sampler(s.laws[g[e].comm_law])(stream) : c;
      out.push_back({boost::source(e, g), boost::target(e, g), time});
    }
    return out;
  }

  // Free: the longest path with edge weights.
  double free(std::uint64_t seed, std::uint64_t rep) const {
    const auto& g = s.graph();
    const auto finish = free_finish(seed, rep);
    double makespan = minus_infinity;
    for (Vertex v = 0; v < finish.size(); ++v)
      if (boost::out_degree(v, g) == 0) makespan = std::max(makespan, finish[v]);
    return makespan;
  }
  // Free: each task's finish.
  std::vector<double> free_finish(std::uint64_t seed, std::uint64_t rep) const {
    const auto& g = s.graph();
    const auto x = task_times(seed, rep);
    const auto msgs = messages(seed, rep);
    std::vector<Vertex> reversed;
    boost::topological_sort(g, std::back_inserter(reversed));
    std::vector<double> finish(boost::num_vertices(g));
    for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
      const Vertex v = *it;
      double start = boost::in_degree(v, g) == 0 ? 0.0 : minus_infinity;
      for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) {
        const Vertex u = boost::source(e, g);
        double arrival = finish[u];
        for (const auto& m : msgs)
          if (m.from == u && m.to == v) arrival = finish[u] + m.time;
        start = std::max(start, arrival);
      }
      finish[v] = start + x[v];
    }
    return finish;
  }

  // One-port, event by event: at each step, scan every task whose inputs are all in and every
  // message whose sender has finished, and serve the earliest (messages before tasks at equal
  // times, then messages in the file's edge order, tasks by vertex).
  double one_port(std::uint64_t seed, std::uint64_t rep, bool overlap) const {
    const auto& g = s.graph();
    const std::size_t n = boost::num_vertices(g);
    const auto x = task_times(seed, rep);
    const auto msgs = messages(seed, rep);
    std::vector<double> finish(n, 0.0), arrival(msgs.size(), 0.0);
    std::vector<bool> done(n, false), sent(msgs.size(), false);
    std::vector<double> send_free(s.width, minus_infinity), receive_free(s.width, minus_infinity),
        compute_free(s.width, minus_infinity);
    auto message_of = [&](Vertex u, Vertex v) {
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (msgs[k].from == u && msgs[k].to == v) return static_cast<long>(k);
      return -1L;
    };
    for (std::size_t step = 0; step < n + msgs.size(); ++step) {
      double best = std::numeric_limits<double>::infinity();
      long best_message = -1, best_task = -1;
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (!sent[k] && done[msgs[k].from] && finish[msgs[k].from] < best) {
          best = finish[msgs[k].from];
          best_message = static_cast<long>(k);
        }
      for (Vertex v = 0; v < n; ++v) {
        if (done[v]) continue;
        double ready = 0.0;
        bool all_in = true;
        for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) {
          const Vertex u = boost::source(e, g);
          const long k = message_of(u, v);
          if (k >= 0 ? !sent[k] : !done[u]) all_in = false;
          else ready = std::max(ready, k >= 0 ? arrival[k] : finish[u]);
        }
        if (boost::in_degree(v, g) > 0 && all_in) {
          // ready started at 0: correct only when some input is >= 0; recompute from -inf.
          ready = minus_infinity;
          for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) {
            const long k = message_of(boost::source(e, g), v);
            ready = std::max(ready, k >= 0 ? arrival[k] : finish[boost::source(e, g)]);
          }
        }
        if (all_in && ready < best) {
          best = ready;
          best_task = static_cast<long>(v);
          best_message = -1;
        }
      }
      REQUIRE((best_task >= 0 || best_message >= 0));
      if (best_task >= 0) {
        const Vertex v = static_cast<Vertex>(best_task);
        const int p = g[v].processor;
        double start = best;
        if (!overlap) start = std::max({start, send_free[p], receive_free[p]});
        finish[v] = start + x[v];
        done[v] = true;
        if (!overlap) compute_free[p] = std::max(compute_free[p], finish[v]);
      } else {
        const auto& m = msgs[best_message];
        const int from = g[m.from].processor, to = g[m.to].processor;
        double start = std::max({best, send_free[from], receive_free[to]});
        if (!overlap) start = std::max({start, compute_free[from], compute_free[to]});
        const double end = start + m.time;
        send_free[from] = std::max(send_free[from], end);
        receive_free[to] = std::max(receive_free[to], end);
        arrival[best_message] = end;
        sent[best_message] = true;
      }
    }
    double makespan = minus_infinity;
    for (Vertex v = 0; v < n; ++v)
      if (boost::out_degree(v, g) == 0) makespan = std::max(makespan, finish[v]);
    return makespan;
  }

  // One-port greedy, from its rules, with explicit busy flags: at each step start every waiting
  // message (sorted by ready time, then file order) whose resources are idle, then every waiting
  // task in vertex order (plan order in the engine: the same here, since a processor's tasks are
  // chained, so at most one of them waits, and tasks on different processors share nothing), each
  // at the max of its ready time and its resources' free times; then take the earliest end among
  // the running items and every end at that time, and free their resources.
  double one_port_greedy(std::uint64_t seed, std::uint64_t rep, bool overlap) const {
    const auto& g = s.graph();
    const std::size_t n = boost::num_vertices(g);
    const auto x = task_times(seed, rep);
    const auto msgs = messages(seed, rep);
    enum { idle, running, ended };
    std::vector<int> task_state(n, idle), message_state(msgs.size(), idle);
    std::vector<double> finish(n, 0.0), arrival(msgs.size(), 0.0);
    std::vector<double> send_free(s.width, minus_infinity), receive_free(s.width, minus_infinity),
        compute_free(s.width, minus_infinity);
    std::vector<bool> sending(s.width, false), receiving(s.width, false), computing(s.width, false);
    auto message_of = [&](Vertex u, Vertex v) {
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (msgs[k].from == u && msgs[k].to == v) return static_cast<long>(k);
      return -1L;
    };
    for (;;) {
      std::vector<std::size_t> waiting;
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (message_state[k] == idle && task_state[msgs[k].from] == ended) waiting.push_back(k);
      std::sort(waiting.begin(), waiting.end(), [&](std::size_t a, std::size_t b) {
        const double ra = finish[msgs[a].from], rb = finish[msgs[b].from];
        return ra < rb || (ra == rb && a < b);
      });
      for (const std::size_t k : waiting) {
        const int from = g[msgs[k].from].processor, to = g[msgs[k].to].processor;
        if (sending[from] || receiving[to]) continue;
        if (!overlap && (computing[from] || computing[to])) continue;
        double start = std::max({finish[msgs[k].from], send_free[from], receive_free[to]});
        if (!overlap) start = std::max({start, compute_free[from], compute_free[to]});
        arrival[k] = start + msgs[k].time;
        sending[from] = receiving[to] = true;
        send_free[from] = receive_free[to] = arrival[k];  // a resource's free time: its last item's end
        message_state[k] = running;
      }
      for (Vertex v = 0; v < n; ++v) {
        if (task_state[v] != idle) continue;
        bool all_in = true;
        double ready = boost::in_degree(v, g) == 0 ? 0.0 : minus_infinity;
        for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) {
          const Vertex u = boost::source(e, g);
          const long k = message_of(u, v);
          if (k >= 0 ? message_state[k] != ended : task_state[u] != ended) all_in = false;
          else ready = std::max(ready, k >= 0 ? arrival[k] : finish[u]);
        }
        const int p = g[v].processor;
        if (!all_in || computing[p] || (!overlap && (sending[p] || receiving[p]))) continue;
        double start = std::max(ready, compute_free[p]);
        if (!overlap) start = std::max({start, send_free[p], receive_free[p]});
        finish[v] = start + x[v];
        computing[p] = true;
        compute_free[p] = finish[v];
        task_state[v] = running;
      }
      double next = std::numeric_limits<double>::infinity();
      bool any = false;
      for (Vertex v = 0; v < n; ++v)
        if (task_state[v] == running) any = true, next = std::min(next, finish[v]);
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (message_state[k] == running) any = true, next = std::min(next, arrival[k]);
      if (!any) break;
      for (Vertex v = 0; v < n; ++v)
        if (task_state[v] == running && finish[v] == next) {
          task_state[v] = ended;
          computing[g[v].processor] = false;
        }
      for (std::size_t k = 0; k < msgs.size(); ++k)
        if (message_state[k] == running && arrival[k] == next) {
          message_state[k] = ended;
          sending[g[msgs[k].from].processor] = false;
          receiving[g[msgs[k].to].processor] = false;
        }
    }
    double makespan = minus_infinity;
    for (Vertex v = 0; v < n; ++v) {
      REQUIRE(task_state[v] == ended);
      if (boost::out_degree(v, g) == 0) makespan = std::max(makespan, finish[v]);
    }
    return makespan;
  }
};

}  // namespace

TEST_CASE("DAG communication: each port model equals an event-by-event simulation of its rules", "[dag][comm]") {
  for (std::uint64_t graph = 0; graph < 6; ++graph) {
    const Structure s = random_dag(graph, 14 + 3 * static_cast<int>(graph), 2 + static_cast<int>(graph % 4), graph % 2 == 0);
    for (const double c : {0.0, 0.15, 0.6}) {
      CAPTURE(graph, c);
      const Reference ref{s, c};
      const Plan free = compile(s, comm(c, Port::free));
      const Plan one = compile(s, comm(c, Port::one_port));
      const Plan overlap = compile(s, comm(c, Port::one_port, true));
      Workspace wf(free), wo(one), wv(overlap);
      for (std::uint64_t rep = 0; rep < 20; ++rep) {
        CAPTURE(rep);
        const double f = evaluate(free, 3, rep, wf);
        REQUIRE(f == ref.free(3, rep));
        const double o = evaluate(one, 3, rep, wo);
        REQUIRE(o == ref.one_port(3, rep, false));
        const double v = evaluate(overlap, 3, rep, wv);
        REQUIRE(v == ref.one_port(3, rep, true));
        // Ports only delay: one-port is never below free, and computing while communicating helps.
        REQUIRE(o >= f);
        REQUIRE(v >= f);
        REQUIRE(o >= v);
      }
    }
  }
}

TEST_CASE("DAG communication: messages ready at once wait in the file's edge order", "[dag][comm]") {
  // Constant times: ties everywhere, the simulation against the reference with its own tie rule.
  for (std::uint64_t graph = 0; graph < 6; ++graph) {
    const Structure s = random_dag(200 + graph, 16 + 2 * static_cast<int>(graph), 3 + static_cast<int>(graph % 3), graph % 2 == 1, true);
    for (const double c : {0.5, 1.0}) {
      CAPTURE(graph, c);
      const Reference ref{s, c};
      for (const bool overlap : {false, true}) {
        const Plan plan = compile(s, comm(c, Port::one_port, overlap));
        Workspace ws(plan);
        REQUIRE(evaluate(plan, 3, 0, ws) == ref.one_port(3, 0, overlap));
      }
    }
  }
  // a and b finish at 1 and their three messages (C = 1) are ready at once; u and v share
  // processor 2 (u first), w is alone on 3. The file lists b -> v, a -> u, b -> w: b -> v [1,2],
  // a -> u waits for processor 2's receive port [2,3], b -> w for b's send port [2,3]; u [3,4],
  // v [4,5], w [3,6]: 6. Listed by sender (a -> u, b -> v, b -> w), b -> w waits for b -> v until 3,
  // [3,4], and w [4,7]: 7. Free ports: a, b -> w, w = 1 + 1 + 3 = 5 either way.
  const std::string tasks =
      "a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"]; u [processor=2, law=\"c(1)\"]; "
      "v [processor=2, law=\"c(1)\"]; w [processor=3, law=\"c(3)\"]; ";
  const Structure interleaved = parse_dot("digraph { " + tasks + "b -> v; a -> u; b -> w; }", "interleaved.dot");
  const Structure by_sender = parse_dot("digraph { " + tasks + "a -> u; b -> v; b -> w; }", "by_sender.dot");
  const auto makespan = [](const Structure& s, std::optional<Port> port) {
    const Plan plan = compile(s, comm(1.0, port));
    Workspace ws(plan);
    return evaluate(plan, 1, 0, ws);
  };
  REQUIRE(makespan(interleaved, Port::one_port) == 6.0);
  REQUIRE(makespan(by_sender, Port::one_port) == 7.0);
  REQUIRE(makespan(interleaved, Port::free) == 5.0);
  REQUIRE(makespan(by_sender, Port::free) == 5.0);
  REQUIRE(Reference{interleaved, 1.0}.one_port(1, 0, false) == 6.0);
  REQUIRE(Reference{by_sender, 1.0}.one_port(1, 0, false) == 7.0);
}

TEST_CASE("DAG communication: at C = 0 every port model is the zero-communication plan bit for bit", "[dag][comm]") {
  for (std::uint64_t graph = 0; graph < 4; ++graph) {
    const Structure s = random_dag(100 + graph, 30, 4, false);
    const Plan plain = compile(s);
    REQUIRE(plain.messages.empty());
    REQUIRE_FALSE(plain.communicates());
    Workspace ws(plain);
    for (const auto& options : {comm(0.0, Port::free), comm(0.0, Port::one_port), comm(0.0, Port::one_port, true),
                                comm(0.0, Port::one_port_greedy), comm(0.0, Port::one_port_greedy, true)}) {
      const Plan plan = compile(s, options);
      REQUIRE(plan.messages.empty());
      Workspace w(plan);
      for (std::uint64_t rep = 0; rep < 10; ++rep) REQUIRE(evaluate(plan, 9, rep, w) == evaluate(plain, 9, rep, ws));
    }
    // Messages that take no time (each crossing edge's own c(0)): the same bits under free and
    // one-port with overlap. Without overlap a message still waits for both ends to stop computing
    // and its sender waits with it (a rendezvous), which can only delay.
    Structure zero = s;
    zero.laws.push_back(Law::constant(0.0));
    auto& g = zero.custom_graph();
    for (const auto e : boost::make_iterator_range(boost::edges(g)))
      if (g[boost::source(e, g)].processor != g[boost::target(e, g)].processor) g[e].comm_law = static_cast<int>(zero.laws.size()) - 1;
    for (const auto& options : {comm(0.0, Port::free), comm(0.0, Port::one_port, true), comm(0.0, Port::one_port),
                                comm(0.0, Port::one_port_greedy, true), comm(0.0, Port::one_port_greedy)}) {
      const Plan plan = compile(zero, options);
      REQUIRE_FALSE(plan.messages.empty());
      CAPTURE(plan.communication());
      Workspace w(plan);
      for (std::uint64_t rep = 0; rep < 10; ++rep) {
        if (plan.overlap || plan.port == Port::free) REQUIRE(evaluate(plan, 9, rep, w) == evaluate(plain, 9, rep, ws));
        else REQUIRE(evaluate(plan, 9, rep, w) >= evaluate(plain, 9, rep, ws));
      }
    }
  }
}

TEST_CASE("DAG plan: messages and their laws exposed beside the predecessors", "[dag][comm]") {
  // a (0) -> b (1) with its own law u(0,0.4); a -> c (0): same processor; b -> c: C.
  Structure s;
  s.kind = StructureKind::custom;
  s.laws = {parse_law("u(0,1)"), parse_law("u(0,0.4)")};
  auto& g = s.custom_graph();
  for (const int p : {0, 1, 0}) boost::add_vertex(Task{TaskKind::compute, p, 0, 0, ""}, g);
  boost::add_edge(0, 1, Precedence{true, 1}, g);
  boost::add_edge(0, 2, Precedence{false, -1}, g);
  boost::add_edge(1, 2, Precedence{true, -1}, g);
  s.width = 2;
  const Plan zero = compile(s);
  REQUIRE(zero.messages.size() == 1);  // the edge with its own law; C = 0 gives the others none
  REQUIRE(zero.pred_comm == std::vector<int>{1, -1, -1});
  const Plan plan = compile(s, comm(0.5));
  REQUIRE(plan.messages.size() == 2);
  REQUIRE(plan.laws.size() == 3);
  REQUIRE(plan.laws[2] == Law::constant(0.5));  // laws[k] is what samplers[k] draws
  REQUIRE(plan.pred_comm == std::vector<int>{1, -1, 2});
  REQUIRE(plan.communication() == "free");
  REQUIRE(compile(s, comm(0.5, Port::one_port)).communication() == "one-port");
  REQUIRE(compile(s, comm(0.5, Port::one_port, true)).communication() == "one-port-overlap");
  REQUIRE(compile(s, comm(0.5, Port::one_port_greedy)).communication() == "one-port-greedy");
  REQUIRE(compile(s, comm(0.5, Port::one_port_greedy, true)).communication() == "one-port-greedy-overlap");
  REQUIRE(parse_port("one-port-greedy") == Port::one_port_greedy);
  REQUIRE(std::string(to_string(Port::one_port_greedy)) == "one-port-greedy");
  REQUIRE_THROWS_AS(parse_port("greedy"), InputError);
  REQUIRE_THROWS_AS(compile(s, comm(0.5, Port::free, true)), InputError);
  CompileOptions protocol = comm(0.5);
  protocol.protocol = &find_protocol(StructureKind::synchronous, "coordinator");
  REQUIRE_THROWS_AS(compile(s, protocol), InputError);
  REQUIRE_THROWS_AS(compile(synchronous(heterogeneous(2, 0, 0.5, Law::paper_uniform()), 3), comm(0.0, Port::free)),
                    InputError);
}

TEST_CASE("port-model registry: names, order, spellings and the lists messages print", "[dag][registry]") {
  const auto& models = port_models();
  REQUIRE(models.size() == 3);
  REQUIRE(models.front().port == Port::free);  // the default first
  REQUIRE_FALSE(models.front().one_port);
  for (const auto& m : models) {
    INFO(m.name);
    REQUIRE(std::string(m.summary).size() > 10);
    REQUIRE(parse_port(m.name) == m.port);
    REQUIRE(&port_model(m.port) == &m);
    const SpelledPort plain = parse_port_spelling(m.name);
    REQUIRE((plain.port == m.port && !plain.overlap));
    if (m.one_port) {
      const SpelledPort spelled = parse_port_spelling(port_spelling(m.port, true));
      REQUIRE((spelled.port == m.port && spelled.overlap));
    } else {
      REQUIRE_THROWS_AS(parse_port_spelling(port_spelling(m.port, true)), InputError);
    }
  }
  REQUIRE(port_names() == "free, one-port or one-port-greedy");
  REQUIRE(port_names(",", ",", true) == "free,one-port,one-port-overlap,one-port-greedy,one-port-greedy-overlap");
  REQUIRE(port_names(", ", " or ", false, true) == "one-port or one-port-greedy");
  REQUIRE(overlap_spellings() == "one-port-overlap and one-port-greedy-overlap");
  try {
    parse_port("greedy");
    FAIL("parse_port accepted 'greedy'");
  } catch (const InputError& e) {
    REQUIRE(std::string(e.what()) == "port: unknown port model 'greedy' (choose free, one-port or one-port-greedy)");
  }
}

TEST_CASE("DAG plan: task times are the stream's variates in vertex order, whatever the mapping", "[dag]") {
  // Ten tasks chained on one processor, declared in vertex order: the makespan is the running sum of
  // the stream's first ten variates. The same tasks each on a processor of its own: their max.
  Structure chain;
  chain.kind = StructureKind::custom;
  chain.laws = {parse_law("u(0,1)")};
  Structure spread = chain;
  auto& g = chain.custom_graph();
  auto& h = spread.custom_graph();
  for (int v = 0; v < 10; ++v) {
    boost::add_vertex(Task{TaskKind::compute, 0, 0, 0, ""}, g);
    boost::add_vertex(Task{TaskKind::compute, v, 0, 0, ""}, h);
    if (v > 0) boost::add_edge(v - 1, v, Precedence{}, g);
  }
  chain.width = 1;
  spread.width = 10;
  ProcessorStream stream(5, 7, 0, ProcessorStream::dag_tasks);
  const Sampler u(parse_law("u(0,1)"));
  double sum = 0.0, longest = minus_infinity;
  for (int v = 0; v < 10; ++v) {
    const double x = u(stream);
    sum += x;
    longest = std::max(longest, x);
  }
  const Plan a = compile(chain), b = compile(spread);
  Workspace wa(a), wb(b);
  REQUIRE(evaluate(a, 5, 7, wa) == sum);
  REQUIRE(evaluate(b, 5, 7, wb) == longest);
}

TEST_CASE("DAG plan: processor scales draw a times the same variates (common random numbers)", "[dag]") {
  const Structure s = random_dag(7, 40, 4, false);
  Structure doubled = s, mixed = s;
  doubled.processor_scale.assign(4, 2.0);
  mixed.processor_scale = {0.5, 1.0, 1.0, 1.0};
  const Plan plain = compile(s), twice = compile(doubled), hetero = compile(mixed);
  REQUIRE(plain.task_scale.empty());
  Workspace w1(plain), w2(twice), w3(hetero);
  for (std::uint64_t rep = 0; rep < 10; ++rep) {
    // Every task twice as long, no messages: exactly twice the makespan (a power of two scales exactly).
    REQUIRE(evaluate(twice, 1, rep, w2) == 2.0 * evaluate(plain, 1, rep, w1));
    // The reference draws a times the unscaled variate.
    REQUIRE(evaluate(hetero, 1, rep, w3) == Reference{mixed, 0.0}.free(1, rep));
  }
  // All ones is the plain plan.
  Structure ones = s;
  ones.processor_scale.assign(4, 1.0);
  REQUIRE(compile(ones).task_scale.empty());
  Structure short_list = s;
  short_list.processor_scale = {1.0, 2.0};
  REQUIRE_THROWS_AS(compile(short_list), InputError);
}

namespace {

// A random DAG in which no two messages share a port: a crossing edge is kept only when its
// sender's processor sends no other message and its receiver's processor receives no other.
Structure unshared_dag(std::uint64_t seed, int size, int width, bool normal) {
  std::mt19937_64 engine(seed);
  Structure s;
  s.kind = StructureKind::custom;
  s.laws = {parse_law("u(0,1)"), parse_law("u(0.2,0.8)"), parse_law("u(0,0.4)")};
  if (normal) s.laws = {parse_law("n(0.5,1/12)"), parse_law("n(1,1/4)"), parse_law("u(0,0.4)")};
  std::bernoulli_distribution linked(0.2), own_law(0.5);
  hetstruct::testing::add_random_tasks(engine, s, size, width, 2);
  PrecedenceGraph& g = s.custom_graph();
  std::vector<bool> sends(s.width, false), receives(s.width, false);
  std::uint32_t index = 0;
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b) {
      if (!linked(engine)) continue;
      const int p = g[a].processor, q = g[b].processor;
      Precedence e{p != q};
      if (e.crosses_processors) {
        if (sends[p] || receives[q]) continue;
        sends[p] = receives[q] = true;
        if (own_law(engine)) e.comm_law = 2;
      }
      e.file_index = index++;
      boost::add_edge(a, b, e, g);
    }
  hetstruct::testing::chain_processors(s, &index);
  s.levels = 1;
  return s;
}

// A pipeline of processors: processor i runs a chain of tasks, its last one sends to processor
// i+1's first. No two messages share a port, and each message meets both ends idle: its sender has
// nothing left to compute, its receiver has not begun.
Structure pipeline(std::uint64_t seed, int width) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> length(1, 4);
  Structure s;
  s.kind = StructureKind::custom;
  s.laws = {parse_law("u(0,1)"), parse_law("u(0,0.4)")};
  PrecedenceGraph& g = s.custom_graph();
  std::uint32_t index = 0;
  int previous = -1;
  for (int p = 0; p < width; ++p) {
    const int tasks = length(engine);
    for (int k = 0; k < tasks; ++k) {
      const auto v = static_cast<int>(boost::add_vertex(Task{TaskKind::compute, p, 0, 0, ""}, g));
      if (previous >= 0) {
        Precedence e{g[previous].processor != p, -1, index++};
        if (e.crosses_processors && p % 2 == 1) e.comm_law = 1;
        boost::add_edge(previous, v, e, g);
      }
      previous = v;
    }
  }
  s.width = width;
  s.levels = 1;
  return s;
}

double makespan_of(const Structure& s, double c, Port port, bool overlap = false, std::uint64_t seed = 1,
                   std::uint64_t rep = 0) {
  const Plan plan = compile(s, comm(c, port, overlap));
  Workspace ws(plan);
  return evaluate(plan, seed, rep, ws);
}

}  // namespace

TEST_CASE("DAG communication: one-port-greedy equals an event-by-event simulation of its rules", "[dag][comm][port]") {
  // Random times (continuous, some negative normals) and constant times (ties everywhere: many
  // messages ready at once, ends at once, zero-length waits), with and without edge laws.
  for (std::uint64_t graph = 0; graph < 9; ++graph) {
    const bool ties = graph % 3 == 1, normal = graph % 3 == 2;
    const Structure s = random_dag(300 + graph, 12 + 2 * static_cast<int>(graph), 2 + static_cast<int>(graph % 4),
                                   graph % 2 == 0, ties, normal);
    for (const double c : {0.15, 0.6, 1.0}) {
      const Reference ref{s, c};
      const Plan free = compile(s, comm(c, Port::free));
      Workspace wf(free);
      for (const bool overlap : {false, true}) {
        CAPTURE(graph, c, overlap);
        const Plan plan = compile(s, comm(c, Port::one_port_greedy, overlap));
        REQUIRE_FALSE(plan.messages.empty());
        Workspace ws(plan);
        for (std::uint64_t rep = 0; rep < (ties ? 1 : 20); ++rep) {
          CAPTURE(rep);
          const double greedy = evaluate(plan, 3, rep, ws);
          REQUIRE(greedy == ref.one_port_greedy(3, rep, overlap));
          REQUIRE(greedy >= evaluate(free, 3, rep, wf));  // ports only delay
        }
      }
    }
  }
}

TEST_CASE("DAG communication: a booked message delays a ready task under one-port, not under one-port-greedy", "[dag][comm][port]") {
  // tests/data/port_booking.dot, C = 1: a -> b [1,2], then a -> c [2,3] from processor 0's one send
  // port. one-port books processor 2's receive port for [2,3] when a finishes, so w (ready at 1)
  // runs [3,4] and c [4,6]: 6. one-port-greedy runs w at once [1,2], the message [2,3], c [3,5]: 5.
  // With overlap both run w [1,2] beside the messages: c [3,5], 5. Free: c at max(1 + 1, 2) = 2: 4.
  const Structure s = read_graph(std::string(HETSTRUCT_TEST_DATA) + "/port_booking.dot", {});
  REQUIRE(makespan_of(s, 1.0, Port::one_port) == 6.0);
  REQUIRE(makespan_of(s, 1.0, Port::one_port_greedy) == 5.0);
  REQUIRE(makespan_of(s, 1.0, Port::one_port, true) == 5.0);
  REQUIRE(makespan_of(s, 1.0, Port::one_port_greedy, true) == 5.0);
  REQUIRE(makespan_of(s, 1.0, Port::free) == 4.0);
  const Reference ref{s, 1.0};
  REQUIRE(ref.one_port(1, 0, false) == 6.0);
  REQUIRE(ref.one_port_greedy(1, 0, false) == 5.0);

  // The rendezvous: a message of time 0 still waits for both ends to stop computing. a (processor
  // 0, time 1) sends c (processor 1) a zero-length message; b (processor 1, 3) runs before c, and d
  // (processor 0, 5) after a. Free: c [3,4], d [1,6]: 6. one-port-greedy: at 1 the message waits
  // for b, so processor 0 starts d [1,6]; at 3 it waits for d; it goes at 6 and c runs [6,7]: 7.
  // one-port books the message at 3 (when b ends) on processor 0's send port, so d waits for it:
  // d [3,8]: 8. With overlap the message goes at 1: c [3,4], d [1,6]: 6, as free.
  const Structure rendezvous = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; d [processor=0, law=\"c(5)\"]; b [processor=1, law=\"c(3)\"]; "
      "c [processor=1, law=\"c(1)\"]; a -> c [comm=\"c(0)\"]; a -> d; b -> c; }",
      "rendezvous.dot");
  REQUIRE(makespan_of(rendezvous, 0.0, Port::free) == 6.0);
  REQUIRE(makespan_of(rendezvous, 0.0, Port::one_port_greedy) == 7.0);
  REQUIRE(makespan_of(rendezvous, 0.0, Port::one_port) == 8.0);
  REQUIRE(makespan_of(rendezvous, 0.0, Port::one_port, true) == 6.0);
  REQUIRE(makespan_of(rendezvous, 0.0, Port::one_port_greedy, true) == 6.0);
  REQUIRE(Reference{rendezvous, 0.0}.one_port_greedy(1, 0, false) == 7.0);
  REQUIRE(Reference{rendezvous, 0.0}.one_port(1, 0, false) == 8.0);

  // Neither model is always below the other (C = 1). a (processor 2) sends to b (0), c and d (1);
  // processor 1 runs c, d, f, processor 0 b, e. Free: 9. one-port: a -> b [1,2], a -> c [2,3],
  // a -> d booked [3,4], so c (ready 3) runs [4,5]; b [2,4], b -> d [5,6], c -> e [5,6], d and e
  // [6,7], e -> f [7,8], f [8,11]: 11. one-port-greedy: the same three messages, but at 4 the
  // message b -> d goes first and holds processor 1's receive port, so c runs only [5,6];
  // c -> e [6,7], d and e [7,8], e -> f [8,9], f [9,12]: 12.
  const Structure anomaly = parse_dot(
      "digraph { a [processor=2, law=\"c(1)\"]; b [processor=0, law=\"c(2)\"]; c [processor=1, law=\"c(1)\"]; "
      "d [processor=1, law=\"c(1)\"]; e [processor=0, law=\"c(1)\"]; f [processor=1, law=\"c(3)\"]; "
      "a -> b; a -> c; a -> d; b -> d; c -> e; e -> f; }",
      "anomaly.dot");
  REQUIRE(makespan_of(anomaly, 1.0, Port::free) == 9.0);
  REQUIRE(makespan_of(anomaly, 1.0, Port::one_port) == 11.0);
  REQUIRE(makespan_of(anomaly, 1.0, Port::one_port_greedy) == 12.0);
  REQUIRE(Reference{anomaly, 1.0}.one_port_greedy(1, 0, false) == 12.0);
}

TEST_CASE("DAG communication: the one-port models are free where no two messages share a port", "[dag][comm][port]") {
  // With overlap, exactly, for any times (negative normals included).
  for (std::uint64_t graph = 0; graph < 8; ++graph) {
    const Structure s = unshared_dag(500 + graph, 20 + 2 * static_cast<int>(graph), 3 + static_cast<int>(graph % 4), graph % 2 == 1);
    for (const double c : {0.2, 1.0}) {
      CAPTURE(graph, c);
      const Plan free = compile(s, comm(c, Port::free));
      REQUIRE_FALSE(free.messages.empty());
      const Plan one = compile(s, comm(c, Port::one_port, true)), greedy = compile(s, comm(c, Port::one_port_greedy, true));
      Workspace wf(free), wo(one), wg(greedy);
      for (std::uint64_t rep = 0; rep < 20; ++rep) {
        const double f = evaluate(free, 5, rep, wf);
        REQUIRE(evaluate(one, 5, rep, wo) == f);
        REQUIRE(evaluate(greedy, 5, rep, wg) == f);
      }
    }
  }
  // Without overlap, when moreover each message meets both ends idle (times >= 0): a pipeline.
  for (std::uint64_t graph = 0; graph < 6; ++graph) {
    const Structure s = pipeline(600 + graph, 2 + static_cast<int>(graph));
    for (const double c : {0.0, 0.3, 1.0}) {
      CAPTURE(graph, c);
      const Plan free = compile(s, comm(c, Port::free));
      Workspace wf(free);
      for (const auto& options : {comm(c, Port::one_port), comm(c, Port::one_port_greedy), comm(c, Port::one_port, true),
                                  comm(c, Port::one_port_greedy, true)}) {
        const Plan plan = compile(s, options);
        REQUIRE_FALSE(plan.messages.empty());
        Workspace ws(plan);
        for (std::uint64_t rep = 0; rep < 20; ++rep) REQUIRE(evaluate(plan, 5, rep, ws) == evaluate(free, 5, rep, wf));
      }
    }
  }
}

TEST_CASE("DAG communication: without overlap, the one-port models are free where no message meets a computation", "[dag][comm][port]") {
  // Replications whose free schedule meets plan.h's condition (no two messages share a port, and no
  // task of a message's two processors runs across its ready time or starts while it would travel):
  // both one-port models without overlap give free's makespan exactly.
  int met = 0, checked = 0;
  for (std::uint64_t graph = 0; graph < 12; ++graph) {
    const Structure s = unshared_dag(700 + graph, 10 + static_cast<int>(graph % 4), 6 + static_cast<int>(graph % 5), false);
    const auto& g = s.graph();
    for (const double c : {0.05, 0.3}) {
      const Reference ref{s, c};
      const Plan free = compile(s, comm(c, Port::free)), one = compile(s, comm(c, Port::one_port)),
                 greedy = compile(s, comm(c, Port::one_port_greedy));
      Workspace wf(free), wo(one), wg(greedy);
      for (std::uint64_t rep = 0; rep < 50; ++rep) {
        const auto finish = ref.free_finish(2, rep);
        const auto x = ref.task_times(2, rep);
        bool meets = true;
        for (const auto& m : ref.messages(2, rep)) {
          const double a = finish[m.from], b = a + m.time;
          for (Vertex w = 0; w < boost::num_vertices(g); ++w) {
            if (g[w].processor != g[m.from].processor && g[w].processor != g[m.to].processor) continue;
            const double start = finish[w] - x[w];
            if ((start < a && finish[w] > a) || (start >= a && start < b)) meets = false;
          }
        }
        ++checked;
        if (!meets) continue;
        ++met;
        CAPTURE(graph, c, rep);
        const double f = evaluate(free, 2, rep, wf);
        REQUIRE(evaluate(one, 2, rep, wo) == f);
        REQUIRE(evaluate(greedy, 2, rep, wg) == f);
      }
    }
  }
  CAPTURE(met, checked);
  REQUIRE(met >= 20);  // the condition is met often enough for the check to mean something
}

TEST_CASE("DAG communication: the one-port models give the same bits on 1, 2 and 3 threads", "[dag][comm][port]") {
  const Structure s = read_graph(std::string(HETSTRUCT_TEST_DATA) + "/stencil4x4.dot", {});
  const Structure r = random_dag(77, 40, 4, true, false, true);
  for (const Structure* g : {&s, &r})
    for (const Port port : {Port::one_port, Port::one_port_greedy})
      for (const bool overlap : {false, true}) {
        const Plan plan = compile(*g, comm(0.5, port, overlap));
        CAPTURE(plan.communication());
        RunOptions options;
        options.reps = 1000;  // 16 blocks, the last one partial
        options.seed = 11;
        options.threads = 1;
        const Estimate one = run(plan, options);
        for (const int threads : {2, 3}) {
          options.threads = threads;
          const Estimate other = run(plan, options);
          REQUIRE(other.mean == one.mean);
          REQUIRE(other.stderr_ == one.stderr_);
          REQUIRE(other.min == one.min);
          REQUIRE(other.max == one.max);
        }
      }
}

// A message cannot take a negative time: an edge law whose support reaches below 0 is refused when
// the plan is compiled (comm=-1 already was, by the reader), naming the edge; a normal law's hint
// points to tn(mean,variance). Before, comm="u(-2,-1)" let the receiver finish before its sender
// (a makespan of 0.52 where the sender alone ends at 1).
TEST_CASE("an edge law that can draw a negative time is refused", "[dag][comm]") {
  const auto with_edge = [](const std::string& comm) {
    return parse_dot("digraph g { a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"u(0,0.1)\"]; a -> b [comm=\"" + comm +
                         "\"]; }",
                     "neg.dot");
  };
  const auto error = [&](const std::string& comm) {
    try {
      (void)compile(with_edge(comm));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error("u(-2,-1)").find("edge 'a' -> 'b': the message law u(-2,-1) draws a negative time with probability 100%") !=
        std::string::npos);
  CHECK(error("n(1,1)").find("tn(mean,variance)") != std::string::npos);
  CHECK(error("mix(0.5:c(1),0.5:u(-1,1))").find("probability 25%") != std::string::npos);
  CHECK(error("0.5*u(-1,0.5)").find("edge 'a' -> 'b'") != std::string::npos);
  for (const char* fine : {"tn(1,1)", "u(0,2)", "c(0)", "exp(1)"}) {
    INFO(fine);
    CHECK(error(fine).empty());
  }
  // Within one processor an edge carries no message, but a law that cannot be a time is still refused.
  CHECK_THROWS_AS(compile(parse_dot("digraph g { a [processor=0, law=\"c(1)\"]; b [processor=0, law=\"c(1)\"]; "
                                    "a -> b [comm=\"u(-2,-1)\"]; }",
                                    "same.dot")),
                  InputError);
}

}  // namespace dag_comm_test
