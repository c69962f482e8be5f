// Wilson's bounds on the expected makespan with a constant communication time C (Section 5.1).
// Each takes the zero-communication expectation it is built on as an argument: closed forms
// (closed_forms.h) where they exist, a simulated E(nn) for the nearest-neighbour structure.
// Nothing here samples.
#pragma once

#include <vector>

#include "distributions/law.h"

namespace hetstruct::bounds {

struct Bounds {
  double lower;
  double upper;
};

// Eq. 10-11, synchronous: E(synch_{n,m}) + 2pC <= E(X) <= E(synch_{n,m}) + (n+1)pC.
Bounds synchronous_bounds(double zero_comm_mean, int width, int levels, double comm);

// Eq. 12, nearest-neighbour: E(nn_{n,m}) + 2pC <= E(X) <= E(nn_{n,m}) + C(2n + 6(p-1)).
Bounds neighbor_bounds(double zero_comm_mean, int width, int levels, double comm);

// Eq. 14-16: the speed-proportional split of the np tasks between n-m processors of mean task
// time slow_mean (x tasks each) and m of mean fast_mean (y tasks each), each task costing 2C of
// communication; the ceilings as in Eq. 16.
struct Split {
  long slow_tasks;  // x
  long fast_tasks;  // y
};
Split proportional_split(int width, int fast_count, int levels, double slow_mean, double fast_mean, double comm);

// Eq. 13 and 17, asynchronous master-slave. Upper (Eq. 13): E(asynch') + 2 n' p' C with
// n' = n-1 processors, p' = ceil(np/(n-1)) tasks each and E(asynch') from the normal
// approximation over the slow law. Lower: Eq. 17, max[x(mu_slow + 2C), y(mu_fast + 2C)], when
// 0 < m < n; Eq. 13's E(asynch) + 2pC when all processors share a speed (E(asynch) the
// asynchronous expectation over the processors' laws). Width >= 2 (a master and at least one slave).
Bounds master_slave_bounds(const std::vector<distributions::Law>& processor_laws, int fast_count, int levels,
                           double comm);

}  // namespace hetstruct::bounds
