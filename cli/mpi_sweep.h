// MPI for `hetstruct sweep` (built with -DHETSTRUCT_MPI=ON, OpenMPI's C API): under mpirun, the
// configurations left to simulate are dealt round-robin to the ranks, and rank 0 gathers every
// configuration's rows and writes the CSV. A configuration's rows depend only on the seed and the
// configuration (streams belong to (seed, replication, processor)), never on the rank that
// simulates it, so the CSV is the same, byte for byte, as the one-process run's.
//
// MPI is initialised only when the process was started by a launcher (mpirun sets
// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); otherwise the world is one process and no MPI
// call is made. MPI_Finalize runs at exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetstruct::cli {

class MpiWorld {
 public:
  MpiWorld();
  int rank() const { return rank_; }
  int size() const { return size_; }
  // This rank's share of `todo`: the items at positions rank, rank + size, ...
  std::vector<std::size_t> share(const std::vector<std::size_t>& todo) const;
  // Sends this rank's rows (rows[k] for k in `mine`) to rank 0, which fills them into `rows`;
  // `computed` becomes the sum over ranks on rank 0. True on rank 0.
  bool gather(std::vector<std::string>& rows, const std::vector<std::size_t>& mine, std::uint64_t& computed) const;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace hetstruct::cli
