// Kept for the files that still include it (cli/plot.cpp, cli/hbsp_command.cpp,
// tests/sweep_test.cpp); include what it forwards instead: Wilson's figures are in
// engine/wilson_figures.h, drawing them in cli/gnuplot.h.
#pragma once

#include "cli/gnuplot.h"
#include "engine/wilson_figures.h"

namespace hetstruct::cli {
using engine::figure_comm_values;
}  // namespace hetstruct::cli
