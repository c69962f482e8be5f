// Conditional-expectation controls for the master-slave task pool near its end (issue 11, the
// master-bound cells of Tables 5 and 8). Nothing here samples.
//
// When the master is the bottleneck every slave waits in line, the master serves one every 2C (a
// result received, a task sent), and the makespan is the latest end of the last tasks dealt. Its
// randomness is then in the last draws and in which slaves (fast or slow) get them: the line's
// order, which a drawn time itself changes (a slave is back in line at the end of its task). For a
// draw x near the end, V(x) is the expected makespan given the state when x is drawn and x itself,
// the remaining tasks predicted to go to the first slaves in line, each served 2C after the one
// before, with fresh draws of their laws. V(x) - E V(X) has mean 0 given that state however good
// the prediction is (a martingale difference: the draw is independent of the state), so a sum of
// them over the last draws is an exact control with a known mean, 0. Measured (branch ms-proto,
// study/): on the last 16-20 draws, variance factors 10-16 on master-bound cells, where the last
// draws' linear controls give 2.4-3.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "distributions/law.h"

namespace hetstruct::bounds {

// The state when a task near the end of the pool is dealt, as its control sees it.
struct Dealing {
  struct Waiting {
    double ready;  // when it joined the line: the end of its current task
    int processor;
    const distributions::Law* law;
  };
  double start = 0.0;  // when the drawn task starts (its send ends); it ends at start + x
  int processor = 0;   // who draws it; in the line, equal ready times go to the lower index first
  const distributions::Law* law = nullptr;  // the drawn task's law
  double service = 0.0;  // the master's time per slave served when every slave waits: 2C
  int remaining = 0;     // tasks still to deal after this one
  std::vector<Waiting> line;  // the other slaves in line, in line order (ready, then processor)
  // The latest end that no later dealing changes (the master's own tasks, processors out of work);
  // -infinity if none.
  double settled = -std::numeric_limits<double>::infinity();
};

// V(x): the expected makespan given the drawn time x. The next `remaining` tasks go to the first
// slaves in line, the drawing slave among them by its new ready time start + x, the k-th of them
// (k = 1, 2, ...) starting at start + k * service; each slave is dealt at most one of them (the
// line's slaves in order, then no more). A slave that gets one ends with it; the others end as
// they stand (their ready times, the drawn task at start + x, `settled`).
double dealing_value(const Dealing& d, double x);

// E V(X) over the drawn task's law, by quadrature (Gauss-Legendre between the laws' cuts: exact
// but for rounding where every law is uniform or constant, about 1e-12 relative otherwise).
double dealing_mean(const Dealing& d);

// The control the estimator takes (engine/kernel/plan.cpp ControlSpec::dealing_draws): V replaced by a
// cheaper V~ whose own mean is exact, so that V~(x) - E V~(X) still has mean 0 (any function of
// the state and x would do; the nearer V, the more variance it removes). V costs about 1 ms a draw
// (R + 1 arrangements of R-fold products at 20 Gauss nodes on 2R pieces), 50 times a master-bound
// replication. V~:
// - works on one grid of step h = service / m (h at most a law's sd / 8), anchored at the start:
//   the k-th dealt task starts k*m steps later, so every CDF the products need is a table entry
//   of its law, computed once here (clipped to 0 and 1 where below 1e-7 or above 1 - 1e-7);
// - takes the CDF of each predicted maximum linear between grid points: its expected maximum is
//   then a trapezoid sum, and all R + 1 arrangements come from prefix and suffix products in one
//   pass over the grid;
// - where the drawing slave is dealt again (place k in line, k < R) is the constant c~_k, as V is;
// - behind the dealt ones, is constant on each grid cell of x (the value at the cell's middle).
// E V~(X) then needs only P(X in each place's range) and P(X in each cell): exact CDFs (the grid's
// are tabulated). Measured against V: within 0.01 on master-bound states at C = 0.1.
class DealingControls {
 public:
  // `laws`: every law a state may name (a Dealing's law pointers must point into laws()).
  // Throws std::invalid_argument where fits() is false.
  //
  // `rare`: a piece of V~ (a place in line, a cell behind the dealt ones) whose probability is
  // below it takes the value of its neighbour. A rare piece holds a large deviation that a run
  // of R replications sees about R p times: while R p is small, the control's sample mean sits
  // near -p * deviation, many of its own standard errors from 0, and the regression, whose
  // coefficient grows as the control's spread shrinks, turns that into a bias of the estimate.
  // Measured on Table 5's normal-law (5,0) cell at C = 0.25: with no merging, cv read 0.05 (36
  // standard errors) below plain sampling at 40,000 replications, and merging below 1e-4 still
  // left 0.07 (13 standard errors of the table's run) at 3,600; 1e-3 agrees with the previous
  // table everywhere (mean z^2 0.27 over its 108 cells) and keeps the factor (8.1 at (16,8),
  // against 8.5 with 1e-4 and 5.2 with 1e-2). The estimator takes max(1e-3, 10 / R) for a cap of R
  // replications (engine::fit_controls), so that every kept piece is seen about 10 times.
  DealingControls(std::vector<distributions::Law> laws, double service, double rare = 1e-3);
  double rare() const { return rare_; }
  // Whether every law's support() spans at most max_cells grid steps (long tails may not).
  static bool fits(const std::vector<distributions::Law>& laws, double service);
  static constexpr double max_cells = 1e6;
  const std::vector<distributions::Law>& laws() const { return laws_; }
  double step() const { return step_; }
  double service() const { return service_; }

  struct Values {
    double value;  // V~(x)
    double mean;   // E V~(X)
    double control;  // V~(x) - E V~(X), without the start's rounding: exactly 0 where V~ is constant
  };
  Values operator()(const Dealing& d, double x) const;

 private:
  struct Table {
    int first = 0;                    // grid index of clipped[1]
    std::vector<double> clipped;      // CDF at first-1 .. first+size-2: 0 at the front, 1 at the back
    std::vector<double> below;        // P(X < u h) for u = first .. first + below.size() - 1
    double at(long u) const;          // the clipped CDF at grid index u
  };
  std::size_t index_of(const distributions::Law* law) const;

  std::vector<distributions::Law> laws_;
  double service_;
  double rare_;
  double step_;
  long per_service_;  // m: grid steps per service
  std::vector<Table> tables_;
};

}  // namespace hetstruct::bounds
