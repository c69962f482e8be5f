#include "cli/mpi_sweep.h"

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace hetstruct::cli {

namespace {

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

MpiWorld::MpiWorld() {
  if (!launched_by_mpirun()) return;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    check(MPI_Init(nullptr, nullptr), "MPI_Init");
    std::atexit([] {
      int finalised = 0;
      MPI_Finalized(&finalised);
      if (!finalised) MPI_Finalize();
    });
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

std::vector<std::size_t> MpiWorld::share(const std::vector<std::size_t>& todo) const {
  std::vector<std::size_t> mine;
  for (std::size_t i = static_cast<std::size_t>(rank_); i < todo.size(); i += static_cast<std::size_t>(size_))
    mine.push_back(todo[i]);
  return mine;
}

bool MpiWorld::gather(std::vector<std::string>& rows, const std::vector<std::size_t>& mine,
                      std::uint64_t& computed) const {
  if (size_ == 1) return true;
  // One buffer per rank: (index, length) pairs as 64-bit words, then the bytes.
  std::vector<char> buffer;
  auto put = [&](std::uint64_t v) {
    const char* p = reinterpret_cast<const char*>(&v);
    buffer.insert(buffer.end(), p, p + sizeof v);
  };
  put(mine.size());
  for (const std::size_t k : mine) {
    put(k);
    put(rows[k].size());
    buffer.insert(buffer.end(), rows[k].begin(), rows[k].end());
  }
  if (buffer.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("MPI: a rank's rows exceed 2 GB");
  const int length = static_cast<int>(buffer.size());
  std::vector<int> lengths(rank_ == 0 ? size_ : 0), offsets(rank_ == 0 ? size_ : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<char> all;
  if (rank_ == 0) {
    long long total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = static_cast<int>(total);
      total += lengths[r];
    }
    if (total > INT32_MAX) throw std::runtime_error("MPI: the gathered rows exceed 2 GB");
    all.resize(static_cast<std::size_t>(total));
  }
  check(MPI_Gatherv(buffer.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  unsigned long long mine_count = computed, sum = 0;
  check(MPI_Reduce(&mine_count, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
  if (rank_ != 0) return false;
  computed = sum;
  std::size_t pos = 0;
  auto get = [&] {
    std::uint64_t v = 0;
    std::memcpy(&v, all.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
  };
  for (int r = 0; r < size_; ++r) {
    pos = static_cast<std::size_t>(offsets[r]);
    const std::uint64_t count = get();
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t k = get(), n = get();
      rows[k].assign(all.data() + pos, n);
      pos += n;
    }
  }
  return true;
}

}  // namespace hetstruct::cli
