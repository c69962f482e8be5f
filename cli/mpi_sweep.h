// MPI for `hetstruct sweep` (built with -DHETSTRUCT_MPI=ON, OpenMPI's C API): under mpirun, the
// blocks of replications of every run the sweep needs are laid end to end and cut into one stretch
// per rank (engine::deal_blocks, engine/sweep/sweep.h), so that a few configurations with many replications keep
// every rank busy as well as many small ones do. Each rank computes its pieces and, as each of its
// configurations' parts is done, sends them to rank 0 (PieceStream) as raw per-block statistics;
// rank 0 folds each run's blocks in block order (the fold of one process) once they are all in,
// makes the rows of every configuration whose runs are all folded, checkpoints them to --out as one
// process does, and writes the CSV. Streams belong to (seed, replication, processor), never to a
// rank, so the CSV is the same, byte for byte, as the one-process run's.
//
// MPI is initialised only when the process was started by a launcher (mpirun sets
// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); otherwise the world is one process and no MPI
// call is made. MPI_Finalize runs at exit. Only the main thread calls MPI (MPI_THREAD_FUNNELED):
// rank 0 looks for arrivals from its progress callback when that runs on the main thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hetstruct::engine {
struct BlockPiece;  // engine/sweep/sweep.h
}  // namespace hetstruct::engine

namespace hetstruct::cli {

// Throws std::runtime_error naming `what` unless rc is MPI_SUCCESS.
void mpi_check(int rc, const char* what);

class MpiWorld {
 public:
  MpiWorld();
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0's `text` on every rank (the --resume file, read by the one process that locks it).
  void broadcast(std::string& text) const;
  // One line on stderr, then MPI_Abort: a rank that fails alone must not leave the others waiting
  // in a collective (MPI_Finalize at exit waits for every rank too).
  [[noreturn]] void abort(const std::string& message, int status) const;

 private:
  int rank_ = 0, size_ = 1;
};

// The computed pieces of the ranks other than 0 on their way to rank 0 while every rank computes,
// so that rank 0 can make and checkpoint a configuration's rows once all its blocks are in: a lost
// rank then loses only the configurations not complete yet. A message holds the pieces packed as
// raw 64-bit words (count, mean, m2, min, max: 40 bytes a block; a difference run's paired moments
// 48 more; an mc run that keeps its makespans 8 bytes a replication; a run estimated whole its
// result; the ranks share one binary on one kind of machine); a last, empty one says the rank is
// done. Messages between two ranks arrive in order (MPI's non-overtaking rule).
class PieceStream {
 public:
  explicit PieceStream(const MpiWorld& world);
  ~PieceStream();
  PieceStream(const PieceStream&) = delete;
  PieceStream& operator=(const PieceStream&) = delete;
  // A rank other than 0: sends `pieces` to rank 0 and clears them, without waiting for rank 0.
  void send(std::vector<engine::BlockPiece>& pieces);
  // A rank other than 0, after its last piece: says it is done, and waits until rank 0 has taken
  // everything it sent (engine::Interrupted if interrupted meanwhile).
  void finish();
  // Rank 0: appends to `pieces` what has arrived, without waiting; true once every other rank has
  // finished (everything it sent is then here).
  bool poll(std::vector<engine::BlockPiece>& pieces);

 private:
  struct Sent;  // the buffers of sends under way and their requests
  const MpiWorld& world_;
  std::unique_ptr<Sent> sent_;
  int finished_ = 0;  // rank 0: the ranks done
};

}  // namespace hetstruct::cli
