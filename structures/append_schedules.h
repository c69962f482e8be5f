// The static schedulers that append each task after its processor's last one (no insertion):
// ETF (Hwang, Chow, Anger and Lee, SIAM J. Comput. 18(2), 1989), the batch heuristics min-min,
// max-min (Ibarra and Kim, JACM 1977; Braun et al., JPDC 61(6), 2001) and sufferage (Maheswaran et
// al., JPDC 59(2), 1999) by rounds of ready tasks, and MCT, MET and OLB (Armstrong et al. 1998;
// Braun et al. 2001) in HEFT's order. docs/schedule.md states each rule and its ties. They take
// processors and tasks of one core only (InputError naming `processor_cores` otherwise).
#pragma once

#include "structures/schedule.h"

namespace hetstruct::structures {

Schedule etf(const SchedulingProblem& problem);
Schedule min_min(const SchedulingProblem& problem);
Schedule max_min(const SchedulingProblem& problem);
Schedule sufferage(const SchedulingProblem& problem);
Schedule mct(const SchedulingProblem& problem);
Schedule met(const SchedulingProblem& problem);
Schedule olb(const SchedulingProblem& problem);

}  // namespace hetstruct::structures
