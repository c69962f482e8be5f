#include "cli/plot.h"

#include "cli/gnuplot.h"
#include "cli/options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/output.h"
#include "cli/sweep.h"
#include "distributions/input_error.h"

namespace hetstruct::cli {

namespace {

bool to_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v);
}

// Titles and labels quoted for gnuplot (cli/gnuplot.h: the one quoting rule).
std::string quote(const std::string& s) { return gnuplot_quote(s, "plot"); }

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name, const char* option) const {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
      std::string names;
      for (const auto& h : header) names += (names.empty() ? "" : ", ") + h;
      throw InputError(option, "no column '" + name + "' in the CSV", "columns: " + names);
    }
    return static_cast<int>(it - header.begin());
  }
  int find(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  }
};

Table parse_table(const std::string& path, const std::string& text) {
  Table t;
  std::istringstream in(text);
  std::string line;
  std::size_t lineno = 0;
  std::vector<std::string> fields;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line == "\r") continue;
    if (!parse_csv_line(line, fields)) throw InputError(path + ":" + std::to_string(lineno), "unterminated quote");
    if (t.header.empty()) {
      t.header = fields;
      continue;
    }
    if (fields.size() != t.header.size())
      throw InputError(path + ":" + std::to_string(lineno), std::to_string(fields.size()) + " fields, the header has " +
                                                                std::to_string(t.header.size()));
    t.rows.push_back(fields);
  }
  if (t.header.empty()) throw InputError(path, "empty CSV");
  return t;
}

const char* palette[] = {"#1f4e79", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#2c3e50",
                         "#e67e22", "#2980b9"};

struct Point {
  double x, y, lo, hi;
  bool bars;
  std::size_t row;
};

// A histogram CSV of `simulate --histogram` (engine::histogram_records): its columns.
const char* const histogram_columns[] = {"bin_low", "bin_high", "count", "density", "cdf", "normal_density", "normal_cdf"};
bool is_histogram(const Table& t) {
  for (const char* name : histogram_columns)
    if (t.find(name) < 0) return false;
  return true;
}

// The vertical lines of a histogram CSV: each further column is an analytic value of the expected
// makespan (engine::HistogramMark), the same on every row; an empty one is left out.
std::vector<std::pair<std::string, double>> histogram_marks(const PlotCommand& o, const Table& t) {
  std::vector<std::pair<std::string, double>> marks;
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    const auto& name = t.header[c];
    if (std::find(std::begin(histogram_columns), std::end(histogram_columns), name) != std::end(histogram_columns)) continue;
    const std::string& text = t.rows.front()[c];
    double v = 0;
    if (text.empty()) continue;
    if (!to_number(text, v)) throw InputError(o.csv_path + ":2", "column '" + name + "' is not numeric");
    marks.emplace_back(name, v);
  }
  return marks;
}

// A mark's line and key entry: lower bounds dotted, upper bounds dashed, the rest solid.
std::string mark_style(const std::string& name, std::size_t i) {
  const auto ends_with = [&](const char* suffix) {
    const std::string s(suffix);
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  // The histogram and the Normal fit take the palette's first two colours.
  const char* lc = palette[(2 + i) % (sizeof palette / sizeof *palette)];
  return std::string("lw 1.5 lc rgb '") + lc + "' dt " + (ends_with("_lower") ? "3" : ends_with("_upper") ? "2" : "1");
}

// The histogram (density, as boxes) with the Normal fit's density, and the empirical CDF at the
// bins' edges with the Normal fit's CDF: two panels side by side.
std::string histogram_plot(const PlotCommand& o, const Table& t) {
  const int lo = t.find("bin_low"), hi = t.find("bin_high"), density = t.find("density"), cdf = t.find("cdf");
  const int normal_density = t.find("normal_density"), normal_cdf = t.find("normal_cdf");
  if (t.rows.empty()) throw InputError("plot", "the histogram has no bin");
  auto number = [&](std::size_t r, int c) {
    double v = 0;
    if (t.rows[r][c].empty()) return std::string("NaN");  // an undefined value (a bin of zero width)
    if (!to_number(t.rows[r][c], v))
      throw InputError(o.csv_path + ":" + std::to_string(r + 2), "column '" + t.header[c] + "' is not numeric");
    return full(v);
  };
  const auto marks = histogram_marks(o, t);
  std::ostringstream g;
  g << "# hetstruct plot " << o.csv_path << ": the makespan's histogram and empirical CDF, with the Normal fit"
    << (marks.empty() ? "" : " and the analytic estimates") << "\n"
    << "$bins << EOD\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    g << number(r, lo) << ' ' << number(r, hi) << ' ' << number(r, density) << ' ' << number(r, normal_density) << '\n';
  g << "EOD\n$cdf << EOD\n" << number(0, lo) << " 0 NaN\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) g << number(r, hi) << ' ' << number(r, cdf) << ' ' << number(r, normal_cdf) << '\n';
  g << "EOD\n";
  const std::string overall = o.title.empty() ? o.csv_path : o.title;
  // Each mark is an arrow from the bottom to the top of both panels, with a key entry naming it.
  std::ostringstream arrows, keys;
  double x_low = 0, x_high = 0;
  to_number(number(0, lo), x_low);
  to_number(number(t.rows.size() - 1, hi), x_high);
  for (std::size_t i = 0; i < marks.size(); ++i) {
    const auto& [name, value] = marks[i];
    std::ostringstream label;
    label << name << " " << std::setprecision(5) << value;
    arrows << "set arrow " << i + 1 << " from first " << full(value) << ", graph 0 to first " << full(value)
           << ", graph 1 nohead front " << mark_style(name, i) << "\n";
    keys << ", \\\n     keyentry with lines " << mark_style(name, i) << " title " << quote(label.str());
    x_low = std::min(x_low, value);
    x_high = std::max(x_high, value);
  }
  std::ostringstream p;
  p << "set datafile missing NaN\nset grid\nset key top left box opaque noenhanced\nset xlabel 'makespan'\n";
  // Arrows outside the x range would be drawn outside the panels: the range covers every mark.
  if (!marks.empty() && x_high > x_low) {
    const double pad = 0.02 * (x_high - x_low);
    p << "set xrange [" << full(x_low - pad) << ":" << full(x_high + pad) << "]\n";
  }
  p << arrows.str();
  p << "set multiplot layout 1,2 title " << quote(overall) << " noenhanced\n"
    << "set autoscale y\nset title 'histogram'\nset ylabel 'density'\nset style fill transparent solid 0.45 border lc rgb '#1f4e79'\n"
    << "plot $bins using (($1+$2)/2):3:($2-$1) with boxes lc rgb '#1f4e79' title 'simulated', \\\n"
    << "     $bins using (($1+$2)/2):4 with lines lw 2 lc rgb '#c0392b' title 'Normal fit (mean, sd)'" << keys.str() << "\n"
    << "set title 'empirical CDF (at the bin edges)'\nset ylabel 'P(makespan <= x)'\nset yrange [0:1]\n"
    << "plot $cdf using 1:2 with linespoints lw 1.5 pt 7 ps 0.4 lc rgb '#1f4e79' title 'simulated', \\\n"
    << "     $cdf using 1:3 with lines lw 2 dt 2 lc rgb '#c0392b' title 'Normal fit'" << keys.str() << "\n"
    << "unset multiplot\n";
  return g.str() + p.str();
}

// A text field of an inline data block: double-quoted (a name with spaces stays one field); a
// double quote or a line break inside would end it, and becomes a single quote or a space.
std::string datafile_text(std::string text) {
  for (char& c : text) {
    if (c == '"') c = '\'';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return '"' + text + '"';
}

bool is_criticality(const Table& t) {
  return t.find("task") >= 0 && t.find("criticality") >= 0 && t.find("criticality_stderr") >= 0 && t.find("slack") >= 0;
}

// The tasks most often critical (at most this many, by criticality, then in the file's order).
constexpr std::size_t criticality_bars = 40;

// A criticality CSV (simulate --criticality): the most critical tasks as bars with their 95%
// intervals (1.96 binomial standard errors), and their mean slack beside.
std::string criticality_plot(const PlotCommand& o, const Table& t) {
  const int task = t.find("task"), crit = t.find("criticality"), se = t.find("criticality_stderr"), slack = t.find("slack");
  if (t.rows.empty()) throw InputError("plot", "the criticality CSV has no task");
  struct Bar {
    std::string task;
    double criticality, stderr_, slack;
  };
  std::vector<Bar> bars;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    Bar b{t.rows[r][task], 0, 0, 0};
    const auto read = [&](int c, double& v, bool empty_ok) {
      if (empty_ok && t.rows[r][c].empty()) {
        v = std::nan("");
        return;
      }
      if (!to_number(t.rows[r][c], v))
        throw InputError(o.csv_path + ":" + std::to_string(r + 2), "column '" + t.header[c] + "' is not numeric");
    };
    read(crit, b.criticality, false);
    read(se, b.stderr_, false);
    read(slack, b.slack, true);
    bars.push_back(b);
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.criticality > b.criticality; });
  if (bars.size() > criticality_bars) bars.resize(criticality_bars);
  std::ostringstream g;
  g << "# hetstruct plot " << o.csv_path << ": the tasks by criticality (95% intervals) and their mean slack\n$bars << EOD\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    g << i << ' ' << full(b.criticality) << ' ' << full(std::max(0.0, b.criticality - 1.96 * b.stderr_)) << ' '
      << full(std::min(1.0, b.criticality + 1.96 * b.stderr_)) << ' ' << (std::isnan(b.slack) ? "NaN" : full(b.slack)) << ' '
      << datafile_text(b.task) << '\n';
  }
  g << "EOD\n";
  const std::string overall = (o.title.empty() ? o.csv_path : o.title) + (t.rows.size() > bars.size()
      ? " (the " + std::to_string(bars.size()) + " most critical of " + std::to_string(t.rows.size()) + " tasks)" : std::string());
  std::ostringstream p;
  p << "set datafile missing NaN\nset grid ytics\nset key off\nset style fill solid 0.6 border lc rgb '#1f4e79'\n"
    << "set boxwidth 0.7\nset xtics rotate by -60 noenhanced\nset xrange [-0.7:" << bars.size() - 0.3 << "]\n"
    << "set multiplot layout 2,1 title " << quote(overall) << " noenhanced\n"
    << "set title 'criticality: the fraction of replications in which the task is on a critical path'\n"
    << "set ylabel 'criticality'\nset yrange [0:1.05]\n"
    << "plot $bars using 1:2:xtic(6) with boxes lc rgb '#1f4e79', \\\n"
    << "     $bars using 1:2:3:4 with yerrorbars pt -1 lc rgb '#c0392b'\n"
    << "set title 'mean slack (latest finish minus finish)'\nset ylabel 'slack'\nset autoscale y\n"
    << "plot $bars using 1:5:xtic(6) with boxes lc rgb '#27ae60'\n"
    << "unset multiplot\n";
  return g.str() + p.str();
}

}  // namespace

std::string plot_script(const PlotCommand& o, const std::string& csv_text, const std::string& svg,
                        const std::string& png) {
  const Table t = parse_table(o.csv_path, csv_text);
  if (o.x.empty() && is_criticality(t)) {
    const std::string plot = criticality_plot(o, t);
    const auto datablocks_end = plot.find("set datafile missing");
    std::ostringstream script;
    script << "set terminal svg size 1100,800 dynamic enhanced font 'sans,12'\nset output " << quote(svg) << "\n"
           << plot << "set terminal pngcairo size 1375,1000 enhanced font 'sans,12'\nset output " << quote(png) << "\n"
           << plot.substr(datablocks_end) << "unset output\n";
    return script.str();
  }
  if (o.x.empty() && is_histogram(t)) {
    const std::string plot = histogram_plot(o, t);
    const auto datablocks_end = plot.find("set datafile missing");
    std::ostringstream script;
    script << "set terminal svg size 1100,500 dynamic enhanced font 'sans,12'\nset output " << quote(svg) << "\n"
           << plot << "set terminal pngcairo size 1375,625 enhanced font 'sans,12'\nset output " << quote(png) << "\n"
           << plot.substr(datablocks_end) << "unset output\n";
    return script.str();
  }
  if (o.x.empty())
    throw InputError("--x", "missing: give the column on the x axis", "only a histogram or criticality CSV needs none");
  const int xc = t.column(o.x, "--x"), yc = t.column(o.y, "--y");
  const int sc = o.series.empty() ? -1 : t.column(o.series, "--series");
  const int fc = o.facet.empty() ? -1 : t.column(o.facet, "--facet");
  const int ec = t.find("estimator"), lo_c = t.find("ci_low"), hi_c = t.find("ci_high");
  std::vector<std::pair<int, std::string>> filters;
  for (const auto& w : o.where) {
    const auto eq = w.find('=');
    if (eq == std::string::npos) throw InputError("--where", "'" + w + "' is not COLUMN=VALUE");
    filters.emplace_back(t.column(w.substr(0, eq), "--where"), w.substr(eq + 1));
  }
  std::set<std::string> wanted;
  for (const auto& e : o.estimators) {
    for (const auto& item : split_list("--estimator", e)) wanted.insert(item);
  }
  if (!wanted.empty() && ec < 0) throw InputError("--estimator", "the CSV has no estimator column");

  auto matches = [](const std::string& field, const std::string& value) {
    double a = 0, b = 0;
    return field == value || (to_number(field, a) && to_number(value, b) && a == b);
  };

  // facet -> (series label -> points), in order of first appearance.
  std::vector<std::string> facets;
  std::map<std::string, std::vector<std::string>> series_order;
  std::map<std::string, std::map<std::string, std::vector<Point>>> data;
  std::map<std::string, std::string> series_value, series_estimator;
  std::vector<std::string> values_seen;  // series values, for colours
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    bool keep = true;
    for (const auto& [c, v] : filters) keep = keep && matches(row[c], v);
    const std::string estimator = ec >= 0 ? row[ec] : "";
    if (!wanted.empty() && !wanted.count(estimator)) keep = false;
    if (!keep) continue;
    double x = 0, y = 0;
    if (!to_number(row[xc], x))
      throw InputError("--x", "column '" + o.x + "' is not numeric (row " + std::to_string(r + 2) + ": '" + row[xc] + "')");
    if (row[yc].empty()) continue;  // an undefined value
    if (!to_number(row[yc], y))
      throw InputError("--y", "column '" + o.y + "' is not numeric (row " + std::to_string(r + 2) + ": '" + row[yc] + "')");
    const std::string facet = fc >= 0 ? row[fc] : "";
    const std::string value = sc >= 0 ? row[sc] : "";
    const std::string label = (sc >= 0 ? o.series + "=" + value : std::string()) +
                              (estimator.empty() ? "" : (sc >= 0 ? " " : "") + estimator);
    if (std::find(facets.begin(), facets.end(), facet) == facets.end()) facets.push_back(facet);
    auto& order = series_order[facet];
    if (std::find(order.begin(), order.end(), label) == order.end()) order.push_back(label);
    if (std::find(values_seen.begin(), values_seen.end(), value) == values_seen.end()) values_seen.push_back(value);
    series_value[label] = value;
    series_estimator[label] = estimator;
    Point p{x, y, 0, 0, false, r};
    if (o.y == "value" && lo_c >= 0 && hi_c >= 0 && to_number(row[lo_c], p.lo) && to_number(row[hi_c], p.hi)) p.bars = true;
    data[facet][label].push_back(p);
  }
  if (facets.empty()) throw InputError("plot", "no row to plot (check --where and --estimator)");

  // One point per x in a series: otherwise the plot would zigzag between configurations.
  for (auto& [facet, by_label] : data) {
    for (auto& [label, points] : by_label) {
      std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
      for (std::size_t i = 1; i < points.size(); ++i) {
        if (points[i].x != points[i - 1].x) continue;
        std::string differ;
        const auto& r1 = t.rows[points[i - 1].row];
        const auto& r2 = t.rows[points[i].row];
        for (std::size_t c = 0; c < t.header.size(); ++c) {
          if (static_cast<int>(c) == yc || r1[c] == r2[c]) continue;
          const auto& h = t.header[c];
          if (h == "value" || h == "stderr" || h == "ci_low" || h == "ci_high" || h == "method") continue;
          differ += (differ.empty() ? "" : ", ") + h;
        }
        throw InputError("plot", "series '" + (label.empty() ? std::string("(all)") : label) + "' has several rows at " +
                                     o.x + " = " + t.rows[points[i].row][xc] +
                                     (differ.empty() ? std::string() : " (they differ in " + differ + ")"),
                         "split them with --series or --facet, or keep one with --where");
      }
    }
  }

  const std::size_t nf = facets.size();
  const std::size_t cols = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(nf))));
  const std::size_t rows = (nf + cols - 1) / cols;
  std::ostringstream g;
  g << "# hetstruct plot " << o.csv_path << ": " << o.y << " against " << o.x
    << (o.series.empty() ? "" : ", series " + o.series) << (o.facet.empty() ? "" : ", facets " + o.facet) << "\n"
    << "# The data is inline (one datablock per series and facet).\n";
  int block = 0;
  std::map<std::pair<std::string, std::string>, int> block_of;
  for (const auto& facet : facets) {
    for (const auto& label : series_order[facet]) {
      const int b = ++block;
      block_of[{facet, label}] = b;
      g << "$s" << b << " << EOD\n";
      for (const auto& p : data[facet][label]) {
        g << full(p.x) << ' ' << full(p.y);
        if (p.bars) g << ' ' << full(p.lo) << ' ' << full(p.hi);
        g << '\n';
      }
      g << "EOD\n";
    }
  }
  g << "set datafile missing NaN\nset grid\nset key outside right top box opaque noenhanced\n"
    << "set xlabel " << quote(o.x) << " noenhanced\nset ylabel " << quote(o.y) << " noenhanced\n";
  const std::string overall = o.title.empty() ? o.csv_path : o.title;
  if (nf > 1)
    g << "set multiplot layout " << rows << "," << cols << " title " << quote(overall) << " noenhanced\n";
  for (const auto& facet : facets) {
    if (nf > 1) g << "set title " << quote(o.facet + " = " + facet) << " noenhanced\n";
    else g << "set title " << quote(overall) << " noenhanced\n";
    g << "plot ";
    bool first = true;
    for (const auto& label : series_order[facet]) {
      const auto& pts = data[facet][label];
      const bool bars = std::all_of(pts.begin(), pts.end(), [](const Point& p) { return p.bars; });
      const std::string& est = series_estimator[label];
      const std::size_t colour =
          static_cast<std::size_t>(std::find(values_seen.begin(), values_seen.end(), series_value[label]) - values_seen.begin());
      const char* lc = palette[colour % (sizeof palette / sizeof *palette)];
      std::string style;
      if (est == "closed_form") style = "with lines lw 2";
      else if (est == "lower_bound") style = "with lines lw 1.5 dt 3";
      else if (est == "upper_bound") style = "with lines lw 1.5 dt 2";
      else if (bars) style = o.points ? "using 1:2:3:4 with yerrorbars pt 7 ps 0.6" : "using 1:2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.6";
      else style = o.points ? "with points pt 7 ps 0.6" : "with linespoints lw 1.5 pt 7 ps 0.6";
      if (est == "difference") style += " dt 4";
      if (style.rfind("using", 0) != 0) style = "using 1:2 " + style;
      g << (first ? "" : ", \\\n     ") << "$s" << block_of[{facet, label}] << ' ' << style << " lc rgb '" << lc
        << "' title " << quote(label.empty() ? o.y : label) << " noenhanced";
      first = false;
    }
    g << "\n";
  }
  if (nf > 1) g << "unset multiplot\n";
  const std::string plot = g.str();
  const std::size_t w = 800 + 350 * (cols - 1), h = 560 + 380 * (rows - 1);
  std::ostringstream script;
  script << "set terminal svg size " << w << "," << h << " dynamic enhanced font 'sans,12'\nset output " << quote(svg)
         << "\n"
         << plot << "set terminal pngcairo size " << (w * 5 / 4) << "," << (h * 5 / 4)
         << " enhanced font 'sans,12'\nset output " << quote(png) << "\n";
  // replot does not replay a multiplot: draw again.
  const auto datablocks_end = plot.find("set datafile missing");
  script << plot.substr(datablocks_end) << "unset output\n";
  return script.str();
}

void PlotCommand::add_to(CLI::App& app) {
  app_ = app.add_subcommand("plot",
                            "Plot any sweep CSV to SVG and PNG through gnuplot (writes the .gp script too); a histogram "
                            "CSV of simulate --histogram-out as its histogram and empirical CDF with the Normal fit and the "
                            "analytic estimates marked; a criticality CSV of simulate --criticality as its most critical tasks with their "
                            "slack");
  app_->add_option("csv", csv_path, "The CSV (one header row), e.g. from hetstruct sweep")->required();
  app_->add_option("--x,-x", x, "Column on the x axis (numeric; required except for a histogram or criticality CSV)");
  app_->add_option("--y,-y", y, "Column on the y axis")->capture_default_str();
  app_->add_option("--series", series, "Column whose values split the series");
  app_->add_option("--facet", facet, "Column whose values split the plot into panels");
  app_->add_option("--where", where, "Keep only rows with COLUMN=VALUE (repeatable)");
  app_->add_option("--estimator,-e", estimators, "Estimators to draw (default all): mc,closed_form,lower_bound,...");
  app_->add_flag("--points", points, "Monte Carlo estimates as points with error bars, not joined by lines");
  app_->add_option("--title", title, "Plot title (default: the CSV's name)");
  app_->add_option("--out,-o", out_base, "Output base name: BASE.gp, BASE.svg, BASE.png (default: the CSV's name)")
      ->check(non_empty("leave --out out for the CSV's name"));
}

bool PlotCommand::parsed() const { return app_ != nullptr && app_->parsed(); }

int PlotCommand::execute() {
  std::ifstream in(csv_path, std::ios::binary);
  if (!in) throw InputError(csv_path, "cannot read the CSV");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string base = out_base;
  if (base.empty()) {
    base = csv_path;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".csv") == 0) base.resize(base.size() - 4);
  }
  const std::string csv = buffer.str();
  draw_with_gnuplot(
      base, "--out", [&](const std::string& svg, const std::string& png) { return plot_script(*this, csv, svg, png); },
      run_gnuplot);
  std::cerr << "hetstruct plot: wrote " << base << ".gp, .svg, .png\n";
  return 0;
}

}  // namespace hetstruct::cli
