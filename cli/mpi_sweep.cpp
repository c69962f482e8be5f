#include "cli/mpi_sweep.h"
#include "cli/output.h"
#include "engine/driver/interrupt.h"
#include "engine/sweep/sweep.h"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <list>
#include <stdexcept>
#include <string>
#include <thread>

namespace hetstruct::cli {

namespace {

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

// One rank's pieces as one buffer of 64-bit words: the piece count, then per piece (run, first,
// last, block count) and per block (count, mean, m2, min, max), then the paired moments' count and
// each (count, mean_a, mean_b, m2_a, m2_b, c_ab), then the makespans' count and each makespan,
// then 1 and a run estimated whole's result (mean, stddev, stderr, ci_low, ci_high, min, max,
// variance factor, then reps, estimator, controls, target met: 0 none, 1 no, 2 yes), or 0; the
// doubles bit for bit.
std::vector<char> pack(const std::vector<engine::BlockPiece>& pieces) {
  std::vector<char> buffer;
  auto put = [&](const auto& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    buffer.insert(buffer.end(), p, p + sizeof v);
  };
  put(static_cast<std::uint64_t>(pieces.size()));
  for (const auto& piece : pieces) {
    put(piece.run);
    put(piece.first);
    put(piece.last);
    put(static_cast<std::uint64_t>(piece.blocks.size()));
    for (const auto& b : piece.blocks) {
      put(b.count);
      put(b.mean);
      put(b.m2);
      put(b.min);
      put(b.max);
    }
    put(static_cast<std::uint64_t>(piece.paired.size()));
    for (const auto& m : piece.paired) {
      put(m.count);
      put(m.mean_a);
      put(m.mean_b);
      put(m.m2_a);
      put(m.m2_b);
      put(m.c_ab);
    }
    put(static_cast<std::uint64_t>(piece.makespans.size()));
    for (const double x : piece.makespans) put(x);
    put(static_cast<std::uint64_t>(piece.estimated.has_value()));
    if (const auto& r = piece.estimated) {
      const engine::Estimate& e = r->estimate;
      for (const double x : {e.mean, e.stddev, e.stderr_, e.ci_low, e.ci_high, e.min, e.max, r->variance_factor}) put(x);
      put(e.reps);
      put(static_cast<std::uint64_t>(r->estimator));
      put(static_cast<std::uint64_t>(r->controls));
      put(static_cast<std::uint64_t>(r->target_met ? 1 + *r->target_met : 0));
    }
  }
  return buffer;
}

// Appends to `pieces` the pieces that pack() put in `all` at `pos`.
void unpack(const std::vector<char>& all, std::size_t pos, std::vector<engine::BlockPiece>& pieces) {
  auto get = [&](auto& v) {
    if (pos + sizeof v > all.size()) throw std::runtime_error("MPI: a rank's blocks are cut short");
    std::memcpy(&v, all.data() + pos, sizeof v);
    pos += sizeof v;
  };
  std::uint64_t count = 0;
  get(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    engine::BlockPiece piece;
    std::uint64_t blocks = 0;
    get(piece.run);
    get(piece.first);
    get(piece.last);
    get(blocks);
    if (blocks > (all.size() - pos) / 40) throw std::runtime_error("MPI: a rank's blocks are cut short");
    piece.blocks.resize(blocks);
    for (auto& b : piece.blocks) {
      get(b.count);
      get(b.mean);
      get(b.m2);
      get(b.min);
      get(b.max);
    }
    std::uint64_t paired = 0, makespans = 0;
    get(paired);
    if (paired > (all.size() - pos) / 48) throw std::runtime_error("MPI: a rank's blocks are cut short");
    piece.paired.resize(paired);
    for (auto& m : piece.paired) {
      get(m.count);
      get(m.mean_a);
      get(m.mean_b);
      get(m.m2_a);
      get(m.m2_b);
      get(m.c_ab);
    }
    get(makespans);
    if (makespans > (all.size() - pos) / 8) throw std::runtime_error("MPI: a rank's blocks are cut short");
    piece.makespans.resize(makespans);
    for (auto& x : piece.makespans) get(x);
    std::uint64_t estimated = 0;
    get(estimated);
    if (estimated) {
      engine::EstimatorResult& r = piece.estimated.emplace();
      engine::Estimate& e = r.estimate;
      for (double* x : {&e.mean, &e.stddev, &e.stderr_, &e.ci_low, &e.ci_high, &e.min, &e.max, &r.variance_factor}) get(*x);
      std::uint64_t estimator = 0, controls = 0, met = 0;
      get(e.reps);
      get(estimator);
      get(controls);
      get(met);
      r.estimator = static_cast<engine::Estimator>(estimator);
      r.controls = static_cast<std::size_t>(controls);
      if (met) r.target_met = met == 2;
    }
    pieces.push_back(std::move(piece));
  }
}


}  // namespace

void mpi_check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

MpiWorld::MpiWorld() {
  if (!launched_by_mpirun()) return;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    // Worker threads compute, and only the main thread calls MPI.
    int provided = 0;  // Open MPI gives every level; FUNNELED asks for nothing beyond MPI_Init's
    mpi_check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    std::atexit([] {
      int finalised = 0;
      MPI_Finalized(&finalised);
      if (!finalised) MPI_Finalize();
    });
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiWorld::abort(const std::string& message, int status) const {
  std::cerr << "hetstruct: " << message << " (rank " << rank_ << " of " << size_ << ": stopping every rank)\n";
  remove_output_locks();  // MPI_Abort runs no destructor
  MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);  // MPI_Abort does not return; this is for the compiler
}

void MpiWorld::broadcast(std::string& text) const {
  if (size_ == 1) return;
  std::uint64_t length = text.size();
  mpi_check(MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  if (length > static_cast<std::uint64_t>(INT32_MAX)) abort("MPI: the file to resume exceeds 2 GB", 2);
  text.resize(length);
  mpi_check(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

namespace {
constexpr int pieces_tag = 1, done_tag = 2;
}  // namespace

struct PieceStream::Sent {
  std::list<std::vector<char>> buffers;  // each alive until its send completes
  std::vector<MPI_Request> requests;     // in the order of `buffers`

  // Forgets the sends that have completed (their buffers are free).
  void reap() {
    auto buffer = buffers.begin();
    for (std::size_t i = 0; i < requests.size();) {
      int done = 0;
      mpi_check(MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done) {
        requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(i));
        buffer = buffers.erase(buffer);
      } else {
        ++i;
        ++buffer;
      }
    }
  }
  void send(std::vector<char> buffer, int tag, const MpiWorld& world) {
    // A rank that stopped alone would leave rank 0 waiting: abort them all.
    if (buffer.size() > static_cast<std::size_t>(INT32_MAX)) world.abort("MPI: a rank's blocks exceed 2 GB", 1);
    buffers.push_back(std::move(buffer));
    requests.emplace_back();
    mpi_check(MPI_Isend(buffers.back().data(), static_cast<int>(buffers.back().size()), MPI_BYTE, 0, tag, MPI_COMM_WORLD,
                        &requests.back()),
              "MPI_Isend");
  }
};

PieceStream::PieceStream(const MpiWorld& world) : world_(world), sent_(std::make_unique<Sent>()) {}

PieceStream::~PieceStream() = default;

void PieceStream::send(std::vector<engine::BlockPiece>& pieces) {
  if (world_.rank() == 0 || pieces.empty()) return;
  sent_->reap();
  sent_->send(pack(pieces), pieces_tag, world_);
  pieces.clear();
}

void PieceStream::finish() {
  if (world_.rank() == 0) return;
  sent_->send({}, done_tag, world_);
  // Tested and slept rather than MPI_Waitall, which spins: rank 0 may compute for a while yet, and
  // ranks often share cores (--oversubscribe).
  for (sent_->reap(); !sent_->requests.empty(); sent_->reap()) {
    engine::throw_if_interrupted();  // mpirun's SIGTERM, or Ctrl-C, while rank 0 is still busy
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool PieceStream::poll(std::vector<engine::BlockPiece>& pieces) {
  if (world_.size() == 1) return true;
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    mpi_check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status), "MPI_Iprobe");
    if (!arrived) break;
    int length = 0;
    mpi_check(MPI_Get_count(&status, MPI_BYTE, &length), "MPI_Get_count");
    std::vector<char> buffer(static_cast<std::size_t>(length));
    mpi_check(MPI_Recv(buffer.data(), length, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE),
              "MPI_Recv");
    if (status.MPI_TAG == done_tag) ++finished_;
    else unpack(buffer, 0, pieces);
  }
  return finished_ == world_.size() - 1;
}

}  // namespace hetstruct::cli
