#include "engine/driver/resources.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <oneapi/tbb/info.h>

#include "distributions/input_error.h"

namespace hetstruct::engine {

namespace {

// Measured (peak RSS, simulate --reps 1, tests/memory_estimate.py): 10^6 processors take 752 MB
// of sync on 1 and on 2 threads and 811 MB of nn (a processor's sampler, its copy in the control
// variates' twin plan, the structure and the plan), 2*10^6 take 1,495 MB; a DOT file takes 11-12
// bytes per byte beyond the 11 MB of any run since the reader reads it in one pass (a 3 MB file of
// 40,000 tasks 48 MB, 8.1 MB of 100,000 tasks 111 MB, 86 MB of 10^6 tasks 999 MB; 32-34 before).
// The estimate is set a few percent above: within 25% of those.
constexpr double bytes_per_processor = 700.0;
constexpr double bytes_per_processor_thread = 30.0;
constexpr double bytes_per_dag_file_byte = 13.0;
constexpr double bytes_base = 16.0 * 1024 * 1024;  // the executable, TBB, CLI11, the tables (11 MB measured)

// ns per task on one core (hetstruct_bench, (16,8), load ~2; rounded up).
double ns_per_task(engine::PlanKind kind) {
  switch (kind) {
    case engine::PlanKind::asynchronous:
    case engine::PlanKind::synchronous: return 6.0;
    case engine::PlanKind::neighbor_sequential:
    case engine::PlanKind::neighbor_plain: return 7.0;
    case engine::PlanKind::task_pool: return 30.0;
    case engine::PlanKind::dag: return 10.0;
    case engine::PlanKind::protocol: return 180.0;  // the slowest (nn event protocols)
  }
  return 180.0;
}

}  // namespace

double model_bytes(std::uint64_t width, std::uint64_t dag_file_bytes, int threads) {
  return bytes_base + static_cast<double>(width) * (bytes_per_processor + threads * bytes_per_processor_thread) +
         static_cast<double>(dag_file_bytes) * bytes_per_dag_file_byte;
}

double run_seconds(engine::PlanKind kind, double tasks_per_rep, double reps, int threads) {
  return tasks_per_rep * reps * ns_per_task(kind) * 1e-9 / std::max(threads, 1);
}

double available_bytes() {
  double available = INFINITY;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kb = 0.0;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") available = kb * 1024.0;
  if (available == INFINITY) {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) available = static_cast<double>(pages) * static_cast<double>(page);
  }
  // In a container (cgroup v2) the limit may be far below the machine's memory.
  double limit = 0.0, used = 0.0;
  if (std::ifstream max("/sys/fs/cgroup/memory.max"); max >> limit) {  // "max" (no limit) fails to read
    std::ifstream current("/sys/fs/cgroup/memory.current");
    current >> used;
    available = std::min(available, std::max(limit - used, 0.0));
  }
  return available;
}

void check_memory(double bytes, const std::string& parameter, const std::string& what) {
  const double available = available_bytes();
  if (bytes <= available) return;
  throw InputError(parameter, what + " need about " + human_bytes(bytes) + " of memory, more than the " + human_bytes(available) +
                             " this machine has available",
                   "make the model smaller, or run anyway with memory_check off");
}

void check_model_memory(std::uint64_t width, std::uint64_t dag_file_bytes, const std::string& parameter,
                        const std::string& what) {
  check_memory(model_bytes(width, dag_file_bytes, tbb::info::default_concurrency()), parameter, what);
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 5) {
    bytes /= 1024.0;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, bytes < 10 && u > 0 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return text;
}

std::string human_seconds(double seconds) {
  std::ostringstream out;
  if (!(seconds < 1e9)) return "more than 30 years";
  const auto s = static_cast<long long>(std::llround(seconds));
  if (s < 60) out << s << " s";
  else if (s < 3600) out << s / 60 << " min " << s % 60 << " s";
  else if (s < 86400) out << s / 3600 << " h " << s % 3600 / 60 << " min";
  else out << s / 86400 << " days " << s % 86400 / 3600 << " h";
  return out.str();
}

}  // namespace hetstruct::engine
