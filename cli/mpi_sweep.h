// MPI for `hetstruct sweep` (built with -DHETSTRUCT_MPI=ON, OpenMPI's C API): under mpirun, the
// blocks of replications of every run the sweep needs are laid end to end and cut into one stretch
// per rank (engine::deal_blocks, engine/sweep/sweep.h), so that a few configurations with many replications keep
// every rank busy as well as many small ones do. Each rank computes its pieces and gather() brings
// them to rank 0 as raw per-block statistics; rank 0 folds each run's blocks in block order (the
// fold of one process) and writes the CSV. Streams belong to (seed, replication, processor), never
// to a rank, so the CSV is the same, byte for byte, as the one-process run's.
//
// MPI is initialised only when the process was started by a launcher (mpirun sets
// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); otherwise the world is one process and no MPI
// call is made. MPI_Finalize runs at exit.
#pragma once

#include <cstddef>
#include <cstdint>
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
  // Sends this rank's computed pieces to rank 0, which appends the other ranks' to its own in
  // `pieces` (in rank order); the per-block statistics travel as their raw bits (count, mean, m2,
  // min, max: 40 bytes a block; a difference run's paired moments 48 more; an mc run that keeps
  // its makespans 8 bytes a replication; the ranks share one binary on one kind of machine). True on rank 0,
  // false on the others (whose `pieces` are then sent and left as they were).
  bool gather(std::vector<engine::BlockPiece>& pieces) const;
  // One line on stderr, then MPI_Abort: a rank that fails alone must not leave the others waiting
  // in a collective (MPI_Finalize at exit waits for every rank too).
  [[noreturn]] void abort(const std::string& message, int status) const;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace hetstruct::cli
