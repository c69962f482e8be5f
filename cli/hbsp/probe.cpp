// `hetstruct hbsp probe` under mpirun (built with -DHETSTRUCT_MPI=ON): the measurements of
// engine/hbsp/probe.h with OpenMPI's C API. Durations are taken with std::chrono::steady_clock
// (nanoseconds on Linux) rather than MPI_Wtime, whose resolution depends on the build.
#include "cli/hbsp/probe.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <iostream>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "cli/mpi_sweep.h"
#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"

namespace hetstruct::cli {

// The probe's model (engine/hbsp/probe.h).
using engine::hbsp::median;
using engine::hbsp::probe_barriers_per_sample;
using engine::hbsp::probe_kernel;
using engine::hbsp::probe_machine_text;
using engine::hbsp::probe_processor_name;
using engine::hbsp::probe_trace_text;
using engine::hbsp::ProbeMachine;
using engine::hbsp::ProbeMeasurements;
using engine::hbsp::ProbePlan;
using engine::hbsp::ProbeRound;
using engine::hbsp::summarise_probe;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// True when `ok` on every rank: a rank that cannot go on must not leave the others in a collective.
bool agree(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  mpi_check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return all != 0;
}

class Probe {
 public:
  Probe(const ProbePlan& plan, int rank, int size) : plan_(plan), rank_(rank), size_(size) {
    // The first p ranks for every p, for L on p processors.
    for (int p = 1; p <= size_; ++p) {
      MPI_Comm c = MPI_COMM_NULL;
      mpi_check(MPI_Comm_split(MPI_COMM_WORLD, rank_ < p ? 0 : MPI_UNDEFINED, rank_, &c), "MPI_Comm_split");
      prefixes_.push_back(c);
    }
  }
  ~Probe() {
    for (MPI_Comm& c : prefixes_)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  // False on every rank when one of them cannot hold the buffers.
  bool allocate() {
    bool ok = true;
    try {
      out_.assign(plan_.message_bytes, 1);  // touched now, so no page fault is timed
      in_.assign(plan_.message_bytes, 0);
      probe_kernel(scratch_);
    } catch (const std::bad_alloc&) {
      ok = false;
    }
    return agree(ok);
  }

  // Untimed: connections between pairs are set up on first use.
  void warm_up() { send(1); }

  // One round; the vectors are filled on rank 0 only.
  ProbeRound round() {
    ProbeRound r;
    const double kernel_time = kernel();
    const double send_time = send(plan_.repeats);
    r.barrier = barriers();
    if (rank_ == 0) {
      r.send.resize(static_cast<std::size_t>(size_));
      r.kernel.resize(static_cast<std::size_t>(size_));
    }
    mpi_check(MPI_Gather(&send_time, 1, MPI_DOUBLE, r.send.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Gather");
    mpi_check(MPI_Gather(&kernel_time, 1, MPI_DOUBLE, r.kernel.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Gather");
    return r;
  }

 private:
  // Every rank at once, as in a superstep's local computation.
  double kernel() {
    std::vector<double> t;
    for (std::uint64_t i = 0; i < plan_.repeats; ++i) {
      mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
      const auto t0 = Clock::now();
      sink_ = sink_ + probe_kernel(scratch_);
      t.push_back(seconds_since(t0));
    }
    return median(t);
  }

  // One sender at a time, so that senders do not share the network; this rank's time per message
  // when it sends. With one rank, the message goes to itself. The repetitions are interleaved and
  // the first sender rotates: with a fixed order, rank 0 (always first, right after the kernel)
  // came out slowest in every run on a loaded 2-core node.
  double send(std::uint64_t repeats) {
    const int bytes = static_cast<int>(plan_.message_bytes);
    const int destinations = size_ == 1 ? 1 : size_ - 1;
    std::vector<double> t;
    for (std::uint64_t i = 0; i < repeats; ++i, ++turn_) {
      for (int s = 0; s < size_; ++s) {
        const int j = static_cast<int>((turn_ + static_cast<std::uint64_t>(s)) % static_cast<std::uint64_t>(size_));
        MPI_Request request = MPI_REQUEST_NULL;
        if (rank_ != j || size_ == 1)
          mpi_check(MPI_Irecv(in_.data(), bytes, MPI_BYTE, j, tag, MPI_COMM_WORLD, &request), "MPI_Irecv");
        mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");  // every receive is posted
        if (rank_ == j) {
          const auto t0 = Clock::now();
          for (int k = 0; k < size_; ++k)
            if (k != j || size_ == 1) mpi_check(MPI_Send(out_.data(), bytes, MPI_BYTE, k, tag, MPI_COMM_WORLD), "MPI_Send");
          t.push_back(seconds_since(t0) / destinations);
        }
        mpi_check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
      }
    }
    return median(t);
  }

  // L for p = 1..P on rank 0 (which is in every prefix); the ranks outside a prefix wait.
  std::vector<double> barriers() {
    std::vector<double> latency;
    for (int p = 1; p <= size_; ++p) {
      const MPI_Comm c = prefixes_[static_cast<std::size_t>(p - 1)];
      std::vector<double> t;
      for (std::uint64_t i = 0; i < plan_.repeats; ++i) {
        mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        if (c == MPI_COMM_NULL) continue;
        mpi_check(MPI_Barrier(c), "MPI_Barrier");  // the ranks leave the world barrier at different times
        const auto t0 = Clock::now();
        for (int b = 0; b < probe_barriers_per_sample; ++b) mpi_check(MPI_Barrier(c), "MPI_Barrier");
        t.push_back(seconds_since(t0) / probe_barriers_per_sample);
      }
      if (rank_ == 0) latency.push_back(median(t));
    }
    return latency;
  }

  static constexpr int tag = 5;  // issue 5
  const ProbePlan& plan_;
  int rank_, size_;
  std::vector<MPI_Comm> prefixes_;
  std::vector<char> out_, in_;
  std::vector<std::uint32_t> scratch_;
  std::uint64_t turn_ = 0;  // the first sender of the next repetition is turn_ mod P
  volatile std::uint64_t sink_ = 0;
};

// hostname:rank of every rank, on rank 0.
std::vector<std::string> gather_names(int rank, int size) {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  mpi_check(MPI_Get_processor_name(host, &length), "MPI_Get_processor_name");
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME : 0);
  mpi_check(MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
                   MPI_COMM_WORLD),
        "MPI_Gather");
  std::vector<std::string> names;
  if (rank == 0)
    for (int j = 0; j < size; ++j) {
      const char* h = all.data() + static_cast<std::size_t>(j) * MPI_MAX_PROCESSOR_NAME;
      names.push_back(probe_processor_name(std::string(h, strnlen(h, MPI_MAX_PROCESSOR_NAME)), j));
    }
  return names;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// The checked options, the same on every rank: rank 0 throws what is wrong, the others get none
// and leave quietly (exit 2).
std::optional<ProbePlan> agreed_plan(const ProbeOptions& options, int rank) {
  ProbePlan plan;
  try {
    plan = validate_probe(options);
  } catch (const InputError&) {
    if (rank != 0) return std::nullopt;
    throw;
  }
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised)
    throw InputError("hbsp probe", "not started by mpirun: it measures MPI ranks",
                     "mpirun -n P hetstruct hbsp probe --machine M --trace T; P = 1 is accepted");
  std::optional<InputError> output_error;
  if (rank == 0) try {
      check_probe_outputs(plan);
    } catch (const InputError& e) {
      output_error = e;
    }
  if (!agree(!output_error)) {
    if (output_error) throw *output_error;
    return std::nullopt;
  }
  return plan;
}

// Sleeps `seconds` in short naps, so that Ctrl-C is seen within 0.1 s.
void nap(double seconds) {
  const auto wake = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (Clock::now() < wake && !engine::interrupt_flag().load())
    std::this_thread::sleep_for(std::min<Clock::duration>(wake - Clock::now(), std::chrono::milliseconds(100)));
}

// Rank 0's one line once the probe is done.
void report_probe(const ProbePlan& plan, const ProbeMeasurements& measured, int size, double seconds) {
  const ProbeMachine s = summarise_probe(plan, measured);
  std::cerr << "hetstruct hbsp probe: " << size << (size == 1 ? " rank, " : " ranks, ") << plan.rounds
            << (plan.rounds == 1 ? " round" : " rounds") << " in " << fixed(seconds, 1)
            << " s: r up to " << fixed(*std::max_element(s.r.begin(), s.r.end()), 3) << ", g = " << s.g
            << " us/byte, L(p=" << size << ") = " << s.latency.back() << " us; wrote " << plan.machine_path << " and "
            << plan.trace_path << "\n";
}

}  // namespace

int run_probe(const ProbeOptions& options) {
  const MpiWorld world;  // initialises MPI only under mpirun
  // Every rank stops at one round (agree() on the interrupt flag): never at once, in a collective.
  const engine::CooperativeStop cooperative;
  const int rank = world.rank(), size = world.size();
  const auto agreed = agreed_plan(options, rank);
  if (!agreed) return 2;
  const ProbePlan& plan = *agreed;

  Probe probe(plan, rank, size);
  if (!probe.allocate()) {
    if (rank != 0) return 2;
    throw InputError("--message-kb", "a rank cannot hold two buffers of " + options.message_kb + " KB",
                     "give a smaller --message-kb");
  }
  ProbeMeasurements measured;
  measured.names = gather_names(rank, size);
  std::set<std::string> hosts;
  for (const auto& n : measured.names) hosts.insert(n.substr(0, n.rfind(':')));
  const std::string provenance = utc_now() + ", " + std::to_string(size) + (size == 1 ? " rank" : " ranks") + " on " +
                                 std::to_string(hosts.size()) + (hosts.size() == 1 ? " host" : " hosts");
  probe.warm_up();

  const auto began = Clock::now();
  auto last_checkpoint = began;
  Clock::time_point origin;
  Progress progress("hbsp probe");
  std::uint64_t k = 0;
  for (; k < plan.rounds; ++k) {
    if (k > 0 && plan.interval > 0.0) nap(plan.interval);
    // Every rank stops at the same round, or none: no rank may be left in a collective.
    if (!agree(!engine::interrupt_flag().load())) break;
    mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (k == 0) origin = Clock::now();
    const double start = seconds_since(origin);
    ProbeRound round = probe.round();
    if (rank != 0) continue;
    round.start = start;
    measured.rounds.push_back(std::move(round));
    progress.update(k + 1, plan.rounds);
    // Both files at most every 2 s, so that an interrupted probe keeps the rounds done; a problem
    // with them is reported after the last round.
    if (k + 1 < plan.rounds && Clock::now() - last_checkpoint > std::chrono::seconds(2)) try {
        write_file_atomically(plan.machine_path, probe_machine_text(plan, measured, provenance));
        write_file_atomically(plan.trace_path, probe_trace_text(plan, measured, provenance));
        last_checkpoint = Clock::now();
      } catch (const InputError&) {
      }
  }
  const bool interrupted = k < plan.rounds;
  if (rank != 0) return interrupted ? 130 : 0;
  if (interrupted && measured.rounds.empty()) throw engine::Interrupted();

  write_file_atomically(plan.machine_path, probe_machine_text(plan, measured, provenance));
  write_file_atomically(plan.trace_path, probe_trace_text(plan, measured, provenance));
  if (interrupted)
    throw engine::Interrupted("interrupted; the " + std::to_string(k) + " rounds measured are in " + plan.machine_path +
                              " and " + plan.trace_path);
  report_probe(plan, measured, size, seconds_since(began));
  return 0;
}

}  // namespace hetstruct::cli
