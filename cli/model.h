// The model options shared by `simulate`, `bounds` and `policies`: engine::Model's fields bound to
// flags; resolved() hands the options given to engine::parse_model (engine/simulate/model.h), the
// parser the Python module and the sweep share.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "engine/simulate/model.h"

namespace hetstruct::cli {

struct ModelOptions {
  engine::Model model;                  // its whole numbers, task options and flags, read by CLI11
  // The texts engine::parse_model reads; the defaults are Model's, as the help prints them.
  std::string scale = model.scale.text;  // a
  std::string law = model.law.text;
  std::string fast_law;
  std::string comm = model.comm.text;    // C
  std::string scales;                   // a graph's processors' scales
  std::string cores;                    // a graph's processors' cores
  std::string slowdown, machine_slowdown;
  std::string structure;                // async, sync, nn, ms (empty with --graph)
  std::string exchange = "sequential";  // nearest-neighbour exchange rule (zero communication)
  std::string task_law = "normal";      // STG and WfFormat: the law around each task's mean
  std::string protocol;                 // of the structure's family (empty: its default)
  std::string policy;                   // master-slave dealing (empty: dynamic)
  std::string port;                     // a graph's port model (empty: free)
  std::string dispatch;                 // a graph's dispatch, ready or ordered (empty: by the input)
  std::string platform, sharing;        // a DOT graph's SimGrid platform file and its sharing model
  std::string schedule;                 // a graph's tasks placed by this algorithm (heft, cpop, heft-sd)
  double sd_weight = 1.0;               // heft-sd: the k of mean + k sd

  // Which of the model's options a command offers: one it would ignore is not offered.
  struct Offer {
    bool structure = true;
    bool structure_required = true;
    bool graph = true;
    bool protocol = true;
    bool policy = true;
    // The structure, where the command fixes it (policies: ms) instead of offering it.
    std::optional<structures::StructureKind> fixed_structure{};
    bool schedule = true;  // --schedule and --sd-weight (the schedule command names its own)
    bool slowdown = false;  // --slowdown and --machine-slowdown (simulate)
  };
  // Registers the options on a subcommand.
  void add_to(CLI::App& app, Offer offer);
  // The model with its names parsed by engine::parse_model (InputError naming the library's
  // parameter, which cli/parameters.cpp spells as a flag: an unknown name, a structure without --n). With a graph, an option that does not act on one is refused (the
  // graph's width, laws and levels are its own); without one, the graph's options are; --exchange
  // acts on nn only, and where the command runs protocols (simulate) only at C = 0.
  engine::Model resolved() const;

 private:
  CLI::App* app_ = nullptr;
  bool protocols_ = true;  // the command runs protocols (with communication nn runs one, whatever --exchange says)
  std::optional<structures::StructureKind> fixed_structure_;
};

}  // namespace hetstruct::cli
