// Drawing with gnuplot: quoting file names into a script, running gnuplot so that its images are
// written whole (temporary names, renamed once gnuplot has succeeded, removed on every failure),
// and the script of Wilson's Figures 5-10. Every hetstruct drawing (figure, plot, hbsp predict) is
// a script BASE.gp with its two images BASE.svg and BASE.png.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/simulate/record.h"
#include "engine/wilson/figures.h"

namespace hetstruct::cli {

// `text` as a gnuplot single-quoted string ('it''s' for it's). InputError naming `option` for a
// text gnuplot cannot take in a script: a line break or a NUL.
std::string gnuplot_quote(const std::string& text, const std::string& option);

// gnuplot's 1-based number of the CSV column `name` among `columns` (a logic_error when absent:
// the scripts name their own records' columns).
int gnuplot_column(const std::vector<std::string>& columns, const std::string& name);

// Throws what gnuplot_quote would for BASE.gp, .svg and .png: call it before any work.
void check_gnuplot_base(const std::string& base, const std::string& option);

// A script for two images, as a function of their paths (unquoted; the script quotes them with
// gnuplot_quote).
using GnuplotScript = std::function<std::string(const std::string& svg, const std::string& png)>;

// Writes BASE.gp (the script with BASE.svg and BASE.png) and, with `draw`, draws the images:
// gnuplot runs on a temporary copy of the script whose images have temporary names, and these are
// renamed into place once gnuplot has succeeded. On every failure the temporary script and images
// are removed. Throws InputError (naming `option`) for a BASE gnuplot cannot quote, before
// anything is written; std::runtime_error when gnuplot is missing or fails (BASE.gp is written);
// engine::Interrupted on Ctrl-C.
void draw_with_gnuplot(const std::string& base, const std::string& option, const GnuplotScript& script,
                       bool draw = true);

// The script of one of Wilson's figures: `csv` holds figure_points' records (its header
// `columns`), drawn to `svg` and `png`.
// `sampling`: how the points were estimated, for the subtitle (figure_sampling); empty: the
// replications per point of plain sampling, run.sampling.reps.
std::string figure_script(const engine::FigureSpec& spec, const engine::FigureRun& run,
                          const std::vector<std::string>& columns, const std::string& csv, const std::string& svg,
                          const std::string& png, const std::string& sampling = {});
// How figure_points' records were estimated, from their estimator and reps columns: "mc, 10000
// replications per point", or "cv, 1856-2176 replications per point, each to its target".
std::string figure_sampling(const std::vector<engine::Record>& points, const engine::FigureRun& run);

}  // namespace hetstruct::cli
