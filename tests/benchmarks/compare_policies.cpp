// Every master-slave dealing policy (engine::master_slave_policies()) on one structure, paired:
// the same seed, so each policy's difference from equal-finish has the paired standard error.
// Wilson's (8,3), normal laws, a = 1/2, by default p = 100 levels, master-computes.
//
//   ./build/compare_policies [--reps 1000] [--seed 1] [--threads 2] [--levels 100]
//                            [--n 8] [--m 3] [--comm 0,0.025,0.05,0.1,0.25]
#include <cstdio>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "engine/kernel/communication.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"

using namespace hetstruct;

int main(int argc, char** argv) {
  std::uint64_t reps = 1000, seed = 1;
  int threads = 2, levels = 100, n = 8, m = 3;
  std::vector<double> comms = {0.0, 0.025, 0.05, 0.1, 0.25};
  CLI::App app("Every master-slave dealing policy side by side, paired");
  app.add_option("--reps", reps);
  app.add_option("--seed", seed);
  app.add_option("--threads", threads);
  app.add_option("--levels", levels);
  app.add_option("--n", n);
  app.add_option("--m", m);
  app.add_option("--comm", comms)->delimiter(',');
  CLI11_PARSE(app, argc, argv);
  const auto s = structures::master_slave(structures::heterogeneous(n, m, 0.5, distributions::Law::paper_normal()), levels);
  engine::RunOptions options;
  options.reps = reps;
  options.seed = seed;
  options.threads = threads;
  std::printf("(%d,%d) normal a=1/2, %d levels, master-computes, %llu replications, seed %llu\n", n, m, levels,
              static_cast<unsigned long long>(reps), static_cast<unsigned long long>(seed));
  std::printf("%-6s %-13s %10s %8s %22s   %s\n", "C", "policy", "mean", "stderr", "equal-finish minus it",
              "quotas (processor 0 = master)");
  for (const double c : comms) {
    auto compile = [&](engine::DealingPolicy policy) {
      engine::CompileOptions o;
      o.comm_cost = c;
      o.protocol = &engine::find_protocol(structures::StructureKind::master_slave, "master-computes");
      o.policy = policy;
      return engine::compile(s, o);
    };
    const auto finish = compile(engine::DealingPolicy::equal_finish);
    for (const auto& p : engine::master_slave_policies()) {
      const auto plan = compile(p.policy);
      const auto e = engine::run(plan, options);
      std::string diff = "";
      if (p.policy != engine::DealingPolicy::equal_finish) {
        const auto d = engine::run_difference(finish, plan, options);
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%+9.3f +- %.3f", d.mean, d.stderr_);
        diff = buffer;
      }
      std::string q;
      for (const auto x : engine::master_slave_quotas(*plan.protocol, plan.comm)) {
        if (!q.empty()) q += ' ';
        q += std::to_string(x);
      }
      std::printf("%-6g %-13s %10.3f %8.3f %22s   %s\n", c, p.name.c_str(), e.mean, e.stderr_, diff.c_str(), q.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
