// `hetstruct fit`: task-time laws fitted by maximum likelihood to measured runs, one row per law
// and group (engine/fit/fit.h, docs/fit.md).
//
//   hetstruct fit --samples FILE | --graph A.json [B.json ...] | --sacct FILE [--by category|name]
//                 [--laws LIST] [--seed S] [--format csv|json|text] [--out F] [--out-graph FIT.json]
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/options.h"

namespace hetstruct::cli {

struct FitCommand {
  std::string samples, sacct, by = "category", laws, out_graph;
  std::vector<std::string> graphs;
  std::uint64_t seed = 1;
  OutputOptions output;
  CLI::Option* by_option = nullptr;

  void add_to(CLI::App& app);
  int execute();
};

}  // namespace hetstruct::cli
