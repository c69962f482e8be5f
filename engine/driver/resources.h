// What a run will take, estimated from its size before anything is built: memory, to refuse a run
// the machine cannot hold (with a flag to override), and time, to say so before a long wait.
//
// Memory: a processor costs its law, sampler, streams and buffers (about 700 bytes, plus 30 per
// worker thread); a DAG costs about 13 bytes per byte of its DOT file (the reader's graph and the
// plan); replications cost nothing, their statistics stream (engine/driver/monte_carlo.h). Time: tasks
// times replications at the plan's cost per task, measured with hetstruct_bench, over the threads.
#pragma once

#include <cstdint>
#include <string>

#include "engine/kernel/plan.h"  // PlanKind

namespace hetstruct::engine {

// A regular structure of `width` processors, or a DAG read from a file of `dag_file_bytes`.
double model_bytes(std::uint64_t width, std::uint64_t dag_file_bytes, int threads);

// The time of `reps` replications of `tasks_per_rep` tasks on a plan of this kind.
double run_seconds(engine::PlanKind kind, double tasks_per_rep, double reps, int threads);

// The memory this machine has available now (MemAvailable; the physical memory if unknown).
double available_bytes();

// Refuses an estimate above the available memory: InputError on `parameter` (width, graph), saying
// `what` needs it ("2000000000 processors"); its hint names the `memory_check` setting that overrides it.
void check_memory(double bytes, const std::string& parameter, const std::string& what);

// check_memory of model_bytes with every core's buffers.
void check_model_memory(std::uint64_t width, std::uint64_t dag_file_bytes, const std::string& parameter,
                        const std::string& what);

// "1.2 GB", "3 min 20 s": sizes and durations for messages.
std::string human_bytes(double bytes);
std::string human_seconds(double seconds);

}  // namespace hetstruct::engine
