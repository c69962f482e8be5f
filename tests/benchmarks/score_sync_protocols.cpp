// Scores every synchronous protocol against the synch cells of Wilson's Tables 3 (normal laws) and
// 6 (uniform laws), the way the readings of docs/semantics.md were scored: the mean makespan of
// each cell (p = 1000 levels, `--reps` replications, the same seed for every cell and protocol),
// its deviation in % from the paper's integer, and per table the worst and the mean |deviation|,
// leaving out the cells the paper contradicts itself on (engine::contradiction_flags).
//
//   ./build/score_sync_protocols [--reps 1000] [--seed 1] [--threads 2] [--levels 1000]
//                                [--protocols a,b,...] [--cells cells.csv]
//
// --cells writes every cell (protocol, table, law, a, C, n, m, paper, mean, stderr, deviation, flag).
// Homogeneous (n,0) cells do not depend on a, so each is simulated once, as `hetstruct table` does.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/simulate/model.h"
#include "engine/wilson/tables.h"
#include "engine/kernel/communication.h"
#include "engine/kernel/plan.h"

using namespace hetstruct;

namespace {

struct Score {
  int cells = 0, excluded = 0;
  double worst = 0.0, sum_abs = 0.0;  // worst keeps its sign
  std::string worst_cell;
};

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t reps = 1000, seed = 1;
  int threads = 2, levels = 1000;
  std::vector<std::string> protocols = engine::synchronous_protocol_names();
  std::string cells_path;
  CLI::App app("Scores the synchronous protocols on Tables 3 and 6");
  app.add_option("--reps", reps);
  app.add_option("--seed", seed);
  app.add_option("--threads", threads);
  app.add_option("--levels", levels);
  app.add_option("--protocols", protocols)->delimiter(',');
  app.add_option("--cells", cells_path);
  CLI11_PARSE(app, argc, argv);

  const auto all = engine::wilson_cells();
  const auto flags = engine::contradiction_flags(all);
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < all.size(); ++i)
    if ((all[i].table == 3 || all[i].table == 6) && all[i].structure == "synch") chosen.push_back(i);

  std::ofstream cells;
  if (!cells_path.empty()) {
    cells.open(cells_path);
    cells << "protocol,table,law,a,comm,n,m,paper,mean,stderr,deviation_pct,flag\n";
  }
  std::printf("%zu cells (Tables 3 and 6, synch), %llu replications of %d levels per cell, seed %llu\n",
              chosen.size(), static_cast<unsigned long long>(reps), levels, static_cast<unsigned long long>(seed));
  std::printf("%-36s %-26s %-26s %s\n", "protocol", "Table 3 worst / mean", "Table 6 worst / mean", "seconds");
  for (const auto& protocol : protocols) {
    const auto started = std::chrono::steady_clock::now();
    using Config = std::tuple<std::string, int, int, std::string, double>;  // law, n, m, a (m > 0), C
    std::map<Config, engine::Estimate> done;
    std::map<int, Score> scores;
    for (const auto i : chosen) {
      const auto& c = all[i];
      const Config key{c.law, c.n, c.m, c.m == 0 ? std::string() : c.a, c.comm};
      auto it = done.find(key);
      if (it == done.end()) {
        auto model = engine::Model::wilson(structures::parse_structure_kind(c.structure), c.n, c.m, c.a, c.law, levels, c.comm);
        model.protocol = &engine::find_protocol(structures::StructureKind::synchronous, protocol);
        engine::RunOptions options;
        options.reps = reps;
        options.seed = seed;
        options.threads = threads;
        it = done.emplace(key, engine::run(engine::compile(model.build(), model.compile_options()), options)).first;
      }
      const auto& e = it->second;
      const double deviation = 100.0 * (e.mean - c.paper) / c.paper;
      Score& s = scores[c.table];
      if (!flags[i].empty()) {
        ++s.excluded;
      } else {
        ++s.cells;
        s.sum_abs += std::abs(deviation);
        if (std::abs(deviation) > std::abs(s.worst)) {
          s.worst = deviation;
          s.worst_cell = "(" + std::to_string(c.n) + "," + std::to_string(c.m) + ") a=" + c.a + " C=" + std::to_string(c.comm).substr(0, 5);
        }
      }
      if (cells.is_open())
        cells << protocol << ',' << c.table << ',' << c.law << ',' << c.a << ',' << c.comm << ',' << c.n << ',' << c.m << ','
              << c.paper << ',' << e.mean << ',' << e.stderr_ << ',' << deviation << ',' << flags[i] << '\n';
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    auto cell = [&](int table) {
      const Score& s = scores[table];
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%+.2f%% / %.2f%% (%d, -%d)", s.worst, s.sum_abs / s.cells, s.cells, s.excluded);
      return std::string(buffer);
    };
    std::printf("%-36s %-26s %-26s %.0f\n", protocol.c_str(), cell(3).c_str(), cell(6).c_str(), seconds);
    for (const int table : {3, 6}) std::printf("    Table %d worst at %s\n", table, scores[table].worst_cell.c_str());
    std::fflush(stdout);
  }
  return 0;
}
