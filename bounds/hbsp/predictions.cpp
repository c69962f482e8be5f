#include "bounds/hbsp/predictions.h"

#include "distributions/input_error.h"

namespace hetstruct::bounds::hbsp {

namespace {

constexpr Prediction figures[] = {
    {"4", Algorithm::scatter, "scatter"},
    {"6", Algorithm::broadcast_two_phase, "two-phase broadcast"},
};

}  // namespace

std::span<const Prediction> paper_predictions() { return figures; }

std::vector<int> predicted_p(const Machine& m) {
  std::vector<int> ps;
  for (int p = 2; p <= m.size(); ++p)
    if (m.latency_by_p.count(p) || m.latency_any) ps.push_back(p);
  if (ps.empty())
    throw InputError(m.source.empty() ? "machine" : m.source, "no L for any p >= 2", "add 'L p=P VALUE' lines");
  return ps;
}

std::vector<PredictionRow> predict(const Machine& m, const Prediction& figure) {
  std::vector<PredictionRow> rows;
  AlgorithmParams a;
  a.algorithm = figure.algorithm;
  a.item_size = 1.0;  // n in bytes: g is per byte
  const auto ps = predicted_p(m);
  for (const char panel : {'a', 'b'}) {
    for (const auto accounting : {Accounting::paper, Accounting::exact}) {
      a.accounting = accounting;
      for (const int p : ps) {
        a.p = p;
        for (int kb = 100; kb <= 1000; kb += 100) {
          a.n = kb * kilobyte;
          double num = 0.0, den = 0.0;
          if (panel == 'a') {  // T_s / T_f: slowest vs fastest root, c_j = 1/p
            a.workload = Workload::equal;
            a.root.kind = RootChoice::slowest;
            num = closed_form(m, a);
            a.root.kind = RootChoice::fastest;
            den = closed_form(m, a);
          } else {  // T_u / T_b: equal vs balanced shares, fastest root
            a.root.kind = RootChoice::fastest;
            a.workload = Workload::equal;
            num = closed_form(m, a);
            a.workload = Workload::balanced;
            den = closed_form(m, a);
          }
          rows.push_back({figure.figure, figure.algorithm, panel, panel == 'a' ? "Ts/Tf" : "Tu/Tb", accounting, p, kb,
                          a.n, num, den, num / den});
        }
      }
    }
  }
  return rows;
}

}  // namespace hetstruct::bounds::hbsp
