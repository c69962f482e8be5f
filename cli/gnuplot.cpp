#include "cli/gnuplot.h"

#include <spawn.h>
#include <unistd.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"

extern char** environ;

namespace hetstruct::cli {

std::string gnuplot_quote(const std::string& text, const std::string& option) {
  // In a single-quoted gnuplot string only '' is special (no backslash escapes, no `command`
  // substitution, no @macros); a line break would end the command.
  if (text.find_first_of(std::string("\n\r\0", 3)) != std::string::npos)
    throw InputError(option, "gnuplot cannot take a file name with a line break or a NUL", "rename the folder or file");
  std::string q = "'";
  for (const char c : text) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

void check_gnuplot_base(const std::string& base, const std::string& option) { gnuplot_quote(base, option); }

namespace {

struct Image {
  std::string path, temporary;
};

// The temporary script and images of one gnuplot run, removed whatever happens: renamed images
// are no longer there, and on any failure (an exception included) nothing temporary is left.
struct Temporaries {
  std::string script;
  std::vector<Image> images;
  ~Temporaries() {
    std::remove(script.c_str());
    for (const auto& image : images) std::remove(image.temporary.c_str());
  }
};

std::string temporary_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

// Runs gnuplot on `text`, a script that writes each image to its temporary name, and renames the
// images into place once gnuplot has succeeded. `script_path` names the script in messages and
// places the temporary copy beside it.
void run_script(const std::string& script_path, const std::string& text, std::vector<Image> images) {
  const engine::CooperativeStop cooperative;  // Ctrl-C waits for gnuplot, then removes the temporaries
  Temporaries temporaries{temporary_name(script_path), std::move(images)};
  write_file_atomically(temporaries.script, text);

  const char* argv[] = {"gnuplot", temporaries.script.c_str(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "gnuplot", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0)
    throw SystemFailure("cannot run gnuplot, which draws the images: install it (Debian: gnuplot-nox); the CSV and the gnuplot script are written");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (engine::interrupt_flag().load()) throw engine::Interrupted();  // Ctrl-C reaches gnuplot too (one process group)
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw SystemFailure("gnuplot failed on " + script_path + " (its messages are above); the CSV and the script are written");
  for (const auto& image : temporaries.images)
    if (std::rename(image.temporary.c_str(), image.path.c_str()) != 0)
      throw InputError(image.path, "cannot move the image into place");
}

}  // namespace

void draw_with_gnuplot(const std::string& base, const std::string& option, const GnuplotScript& script, bool draw) {
  check_gnuplot_base(base, option);
  const std::string svg = base + ".svg", png = base + ".png";
  write_file_atomically(base + ".gp", script(svg, png));
  if (!draw) return;
  const std::string svg_tmp = temporary_name(svg), png_tmp = temporary_name(png);
  run_script(base + ".gp", script(svg_tmp, png_tmp), {{svg, svg_tmp}, {png, png_tmp}});
}

namespace {

const char* bound_equations(structures::StructureKind structure) {
  if (structure == structures::StructureKind::synchronous) return "Eq. 11";
  if (structure == structures::StructureKind::nearest_neighbor) return "Eq. 12";
  return "Eq. 13, 17";
}

const char* long_name(structures::StructureKind structure) {
  if (structure == structures::StructureKind::synchronous) return "Synchronous";
  if (structure == structures::StructureKind::nearest_neighbor) return "Nearest-Neighbor";
  return "Asynchronous Master-Slave";
}

}  // namespace

int gnuplot_column(const std::vector<std::string>& columns, const std::string& name) {
  const auto at = std::find(columns.begin(), columns.end(), name);
  if (at == columns.end()) throw std::logic_error("gnuplot script: no column '" + name + "'");
  return static_cast<int>(at - columns.begin()) + 1;
}

std::string figure_sampling(const std::vector<engine::Record>& points, const engine::FigureRun& run) {
  std::vector<std::string> estimators;
  std::uint64_t low = std::numeric_limits<std::uint64_t>::max(), high = 0;
  for (const auto& p : points) {
    const std::string e = p.text("estimator");
    if (std::find(estimators.begin(), estimators.end(), e) == estimators.end()) estimators.push_back(e);
    const std::uint64_t reps = std::stoull(p.text("reps"));
    low = std::min(low, reps);
    high = std::max(high, reps);
  }
  if (points.empty()) low = high = run.sampling.reps;
  std::string text;
  for (const auto& e : estimators) text += (text.empty() ? "" : "/") + e;
  text += (text.empty() ? "" : ", ") + std::to_string(low) + (low == high ? "" : "-" + std::to_string(high)) +
          " replications per point";
  if (run.stop.active()) text += ", each to its target";
  return text;
}

std::string figure_script(const engine::FigureSpec& spec, const engine::FigureRun& run,
                          const std::vector<std::string>& columns, const std::string& csv, const std::string& svg,
                          const std::string& png, const std::string& sampling) {
  const std::string x = std::to_string(gnuplot_column(columns, "comm")) + ":";
  std::ostringstream g;
  g << "# Figure " << spec.number << " of Wilson's paper, regenerated by hetstruct.\n"
    << "set datafile separator ','\n"
    << "set title \"Figure " << spec.number << ": simulated (" << spec.n << "," << spec.m << ") "
    << long_name(spec.structure) << " structure with upper and lower bounds\\n{/*0.8 " << run.law
    << " laws, a = " << run.scale << ", p = " << run.levels << ", "
    << (sampling.empty() ? std::to_string(run.sampling.reps) + " replications per point" : sampling) << "}\"\n"
    << "set xlabel 'Communication time C'\n"
    << "set ylabel 'Expected execution time'\n"
    << "set xrange [0:0.26]\n"
    << "set key top left box opaque\n"
    << "set grid\n"
    << "plot " << gnuplot_quote(csv, "csv") << " skip 1 using " << x << gnuplot_column(columns, "upper")
    << " with linespoints lw 2 pt 6 dt 2 lc rgb '#c0392b' title 'upper bound (" << bound_equations(spec.structure)
    << ")', \\\n"
    << "     '' skip 1 using " << x << gnuplot_column(columns, "mean") << ':' << gnuplot_column(columns, "ci_low") << ':'
    << gnuplot_column(columns, "ci_high") << " with yerrorlines lw 2 pt 7 lc rgb '#1f4e79' title 'simulated (95% CI)', \\\n"
    << "     '' skip 1 using " << x << gnuplot_column(columns, "lower")
    << " with linespoints lw 2 pt 4 dt 3 lc rgb '#27ae60' title 'lower bound (" << bound_equations(spec.structure)
    << ")'\n";
  const std::string plot = g.str();
  return "set terminal svg size 800,560 dynamic enhanced font 'sans,12'\nset output " + gnuplot_quote(svg, "svg") +
         "\n" + plot + "set terminal pngcairo size 1000,700 enhanced font 'sans,12'\nset output " +
         gnuplot_quote(png, "png") + "\nreplot\n";
}

}  // namespace hetstruct::cli
