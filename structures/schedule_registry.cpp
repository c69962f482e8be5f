// The scheduler registry (structures/schedule_registry.h).
#include "structures/schedule_registry.h"

#include <stdexcept>

#include "distributions/input_error.h"
#include "structures/append_schedules.h"

namespace hetstruct::structures {

const std::vector<SchedulerInfo>& schedulers() {
  using A = ScheduleAlgorithm;
  static const std::vector<SchedulerInfo> table = {
      {A::heft, "heft", "HEFT: decreasing upward rank, earliest finish with insertion", heft, true},
      {A::cpop, "cpop", "CPOP: the critical path on its fastest processor, the rest by earliest finish", cpop, true},
      {A::heft_sd, "heft-sd", "HEFT on each time's mean + k standard deviations (k: sd_weight)", heft, true},
      {A::peft, "peft", "PEFT: decreasing rank_oct, least earliest finish + optimistic cost, with insertion", peft, true},
      {A::etf, "etf", "ETF: the ready task and processor of earliest start, appended", etf, false},
      {A::min_min, "min-min", "min-min by rounds of ready tasks: the least best completion first, appended", min_min, false},
      {A::max_min, "max-min", "max-min by rounds of ready tasks: the largest best completion first, appended", max_min, false},
      {A::sufferage, "sufferage", "sufferage by rounds of ready tasks: the largest loss from its second best first, appended",
       sufferage, false},
      {A::mct, "mct", "MCT: decreasing upward rank, least completion time, appended", mct, false},
      {A::met, "met", "MET: decreasing upward rank, least execution time, appended", met, false},
      {A::olb, "olb", "OLB: decreasing upward rank, the processor free first, appended", olb, false},
  };
  return table;
}

const SchedulerInfo& scheduler(ScheduleAlgorithm algorithm) {
  for (const auto& s : schedulers())
    if (s.algorithm == algorithm) return s;
  throw std::logic_error("schedule: an algorithm missing from the registry");
}

std::string schedule_names(const std::string& separator, const std::string& last) {
  const auto& table = schedulers();
  std::string out;
  for (std::size_t k = 0; k < table.size(); ++k) {
    if (k > 0) out += k + 1 == table.size() ? last : separator;
    out += table[k].name;
  }
  return out;
}

ScheduleAlgorithm parse_schedule_algorithm(const std::string& name) {
  for (const auto& s : schedulers())
    if (name == s.name) return s.algorithm;
  throw InputError("schedule", "unknown algorithm '" + name + "'", "choose " + schedule_names());
}

const char* to_string(ScheduleAlgorithm algorithm) { return scheduler(algorithm).name; }

}  // namespace hetstruct::structures
