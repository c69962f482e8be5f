// The predictions of the HBSP^1 paper (Williams & Parsons 2001, Figures 4 and 6) from the cost
// model of bounds/hbsp/model.h: the improvement factors T_s/T_f (scatter's root slowest vs fastest,
// equal shares c_j = 1/p) and T_u/T_b (equal vs balanced shares, root fastest) for every p the
// machine gives an L for and n = 100, 200, ..., 1000 KB (n in bytes: g is per byte), under both
// accountings. `hetstruct hbsp predict` writes these rows as CSV and plots them.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bounds/hbsp/model.h"

namespace hetstruct::bounds::hbsp {

// One figure of the paper.
struct Prediction {
  const char* figure;   // "4" or "6", as numbered in the paper
  Algorithm algorithm;  // the collective the figure predicts
  const char* title;
};

// Figure 4 (scatter) and Figure 6 (two-phase broadcast).
std::span<const Prediction> paper_predictions();

// The p of the figures: every p >= 2 of the machine with an L (2, 4, ..., 10 on the shipped
// cluster); throws InputError naming the machine when there is none.
std::vector<int> predicted_p(const Machine& m);

// One point of a figure: numerator / denominator = factor for p processors and n_kb KB.
struct PredictionRow {
  const char* figure;
  Algorithm operation;
  char panel;         // 'a': T_s/T_f, 'b': T_u/T_b
  const char* ratio;  // "Ts/Tf" or "Tu/Tb"
  Accounting accounting;
  int p;
  int n_kb;
  double n_bytes;
  double numerator, denominator, factor;
};

// The rows of one figure: panels a then b, accountings paper then exact, p ascending, n_kb
// ascending (2 x 2 x |predicted_p| x 10 rows).
std::vector<PredictionRow> predict(const Machine& m, const Prediction& figure);

}  // namespace hetstruct::bounds::hbsp
