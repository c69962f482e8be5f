#include "cli/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>
#include <vector>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/resources.h"
#include "engine/simulate/run_options.h"

namespace hetstruct::cli {

std::string full(double x) { return std::isnan(x) ? "" : distributions::format_exact(x); }

std::string fixed(double x, int decimals) {
  if (std::isnan(x)) return "undefined";
  // Fixed point up to 1e15; beyond, exponent notation (a 300-digit integer part does not fit).
  char buf[64];
  std::snprintf(buf, sizeof buf, std::abs(x) < 1e15 ? "%.*f" : "%.*e", decimals, x);
  return buf;
}

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t max) {
  return engine::parse_count(option, text, max);
}

namespace {
// The folder that holds `path`'s entry.
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string output_file_problem(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    return "'" + path + "' is a folder, not a file to write: name a file in it";
  const std::string dir = folder_of(path);
  if (::access(dir.c_str(), W_OK) != 0) return "cannot write '" + path + "': the folder '" + dir + "' is missing or not writable";
  return {};
}

namespace {

// Flushes `folder`'s entries to disk, so that a rename in it survives a system crash; 0, or the
// errno of the failure. A file system that cannot flush a folder (EINVAL, ENOTSUP: some network and
// FUSE file systems) has nothing to flush: not an error.
int sync_folder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  int error = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  if (error == EINVAL || error == ENOTSUP) error = 0;
  return error;
}

// A path that names a device, a pipe or a socket (/dev/null, /dev/stdout to a terminal): written
// straight into, since a rename would replace the device with a regular file (as root, in /dev).
bool is_special_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

// Writes all of `content` to `fd`; 0, or the errno of the failure.
int write_all(int fd, const std::string& content) {
  for (std::size_t at = 0; at < content.size();) {
    const ssize_t n = ::write(fd, content.data() + at, content.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    at += static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  if (is_special_file(path)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    const int error = fd < 0 ? errno : write_all(fd, content);
    if (fd >= 0) ::close(fd);
    if (error != 0) throw InputError(path, std::string("cannot write the output: ") + std::strerror(error));
    return;
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const engine::CooperativeStop cooperative;  // Ctrl-C here lets the file be written whole, or removed
  // What the path holds when this write fails: said with the error, so that a failed checkpoint
  // says that the previous one is still there.
  const std::string kept = ::access(path.c_str(), F_OK) == 0 ? "'" + path + "' keeps its previous contents"
                                                             : "nothing was written";
  const auto fail = [&](const std::string& step, int error) {
    ::unlink(tmp.c_str());
    throw InputError(path, "cannot " + step + ": " + std::strerror(error) + "; " + kept);
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail("create the temporary file '" + tmp + "'", errno);
  if (const int error = write_all(fd, content); error != 0) {
    ::close(fd);
    fail("write the output file", error);
  }
  // The data on disk before the rename: else a crash soon after may leave the new name on an empty
  // or partial file (a file system may order the rename before the data).
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail("flush the output file to disk (fsync)", error);
  }
  if (::close(fd) != 0) fail("write the output file", errno);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("move the output file into place", errno);
  // The rename is durable once the folder's entry is on disk.
  if (const int error = sync_folder(folder_of(path)); error != 0)
    throw InputError(path, std::string("written, but its folder could not be flushed to disk (fsync): ") +
                               std::strerror(error) + "; the new file is in place, but a system crash now could lose it");
}

namespace {

// The command name of process `pid` (Linux's /proc/PID/comm); empty where the system does not say.
std::string process_name(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

// The lock files held, for remove_output_locks(), which a signal handler may run: fixed storage,
// each slot's path written before its descriptor is published (a slot is free at -1, being filled
// at -2).
struct HeldLock {
  std::atomic<int> fd{-1};
  char path[PATH_MAX] = {};
};
std::array<HeldLock, 8> held_locks;  // a command holds one or two; past 8 a lock file may stay behind

bool same_file(int fd, const char* path) noexcept {
  struct stat held {}, named {};
  return ::fstat(fd, &held) == 0 && ::stat(path, &named) == 0 && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

void remember_lock(int fd, const std::string& path) noexcept {
  if (path.size() >= PATH_MAX) return;
  for (auto& slot : held_locks) {
    int expected = -1;
    if (!slot.fd.compare_exchange_strong(expected, -2)) continue;  // -2: taken, its path not written yet
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    slot.fd.store(fd);
    return;
  }
}

void forget_lock(int fd) noexcept {
  for (auto& slot : held_locks) {
    int expected = fd;
    if (slot.fd.compare_exchange_strong(expected, -1)) return;
  }
}

}  // namespace

void remove_output_locks() noexcept {
  for (auto& slot : held_locks) {
    const int fd = slot.fd.load();
    if (fd >= 0 && same_file(fd, slot.path)) ::unlink(slot.path);
  }
}

OutputLock::OutputLock(const std::string& path) : lock_path_(path + ".lock") {
  if (const auto problem = output_file_problem(path); !problem.empty()) throw InputError("--out", problem);
  if (is_special_file(path)) return;  // /dev/null: no rename replaces it, and nothing to guard
  // A few tries: a holder that ends between our F_SETLK and our F_GETLK, or a PATH.lock removed by
  // its run's end between our open and our lock, is tried again.
  for (int attempt = 0; attempt < 100; ++attempt) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0)
      throw InputError("--out", "cannot create the lock file '" + lock_path_ + "': " + std::strerror(errno));
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;  // l_start 0, l_len 0: the whole file
    if (::fcntl(fd_, F_SETLK, &lock) == 0) {
      if (names_ours()) {
        remember_lock(fd_, lock_path_);
        return;
      }
      release();  // the file we locked was removed by the run that held it: lock the one there now
      continue;
    }
    const int error = errno;
    if (error != EACCES && error != EAGAIN) {
      ::close(fd_);
      fd_ = -1;
      if (error == ENOLCK || error == ENOTSUP || error == EINVAL) {
        warn_later("--out: '" + path + "' could not be locked (" + std::strerror(error) +
                   "): a second sweep or command writing it would not have been refused");
        return;
      }
      throw InputError("--out", "cannot lock '" + lock_path_ + "': " + std::strerror(error));
    }
    struct flock holder {};
    holder.l_type = F_WRLCK;
    holder.l_whence = SEEK_SET;
    const bool asked = ::fcntl(fd_, F_GETLK, &holder) == 0;
    ::close(fd_);
    fd_ = -1;
    if (asked && holder.l_type == F_UNLCK) continue;  // released meanwhile
    // l_pid is 0 where the holder is not in this PID namespace (or on another host, over NFS).
    std::string who = "another process (the system does not say which)";
    if (asked && holder.l_pid > 0) {
      const std::string name = process_name(holder.l_pid);
      who = "process " + std::to_string(holder.l_pid) + (name.empty() ? "" : " (" + name + ")");
    }
    throw InputError("--out",
                     "'" + path + "' is being written by " + who + ", which holds its lock '" + lock_path_ +
                         "': a second writer would replace that run's rows",
                     "wait for it to end, or give another --out");
  }
  throw InputError("--out", "cannot lock '" + lock_path_ + "': it was removed and made again 100 times meanwhile");
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : lock_path_(std::move(other.lock_path_)), fd_(std::exchange(other.fd_, -1)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    remove_and_release();
    lock_path_ = std::move(other.lock_path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

bool OutputLock::names_ours() const noexcept { return fd_ >= 0 && same_file(fd_, lock_path_.c_str()); }

void OutputLock::release() noexcept {
  if (fd_ < 0) return;
  forget_lock(fd_);
  ::close(fd_);  // closing the descriptor releases the lock
  fd_ = -1;
}

void OutputLock::remove_and_release() noexcept {
  // Removed while still held, and only while the path names the file we lock (a PATH.lock removed
  // by hand and made again is another run's).
  if (names_ours()) ::unlink(lock_path_.c_str());
  release();
}

OutputLock::~OutputLock() { remove_and_release(); }

std::string claim_output_file(const std::string& path) {
  // The locks of the process's outputs, released (and their files removed) at exit.
  static std::map<std::string, OutputLock> held;
  if (held.count(path)) return {};
  // Under mpirun with several processes the command is refused after parsing (only sweep shares its
  // work, and locks on rank 0 alone): no process locks, so that each says why it is refused.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* size = std::getenv(name); size && std::atoi(size) > 1) return output_file_problem(path);
  try {
    held.emplace(path, OutputLock(path));
  } catch (const InputError& e) {
    return e.hint().empty() ? e.problem() : e.problem() + " (" + e.hint() + ")";
  }
  return {};
}

namespace {
std::vector<std::string>& pending_warnings() {
  static std::vector<std::string> pending;
  return pending;
}
}  // namespace

void announce_duration(double seconds, const std::string& what, const std::string& qualifier) {
  if (seconds < 60.0) return;
  std::cerr << "hetstruct: " << what << " should take about " << engine::human_seconds(seconds) << qualifier
            << " (Ctrl-C stops it cleanly)\n";
}

void warn_later(const std::string& text) {
  auto& pending = pending_warnings();
  if (std::find(pending.begin(), pending.end(), text) == pending.end()) pending.push_back(text);
}

void flush_warnings() {
  // Under mpirun every rank runs the command: rank 0 speaks for them all.
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* rank = std::getenv(name); rank && std::string(rank) != "0") return;
  for (const auto& text : pending_warnings()) std::cerr << "hetstruct: warning: " << text << "\n";
  pending_warnings().clear();
}

Progress::Progress(std::string label)
    : label_(std::move(label)),
      enabled_(::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::Progress(std::string label, std::FILE* stream)
    : label_(std::move(label)), stream_(stream), enabled_(true), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::finish() {
  std::lock_guard lock(mutex_);
  if (!printed_) return;
  std::fputs("\r\033[K", stream_);
  std::fflush(stream_);
  printed_ = false;
}

void Progress::set_label(std::string label) {
  std::lock_guard lock(mutex_);
  label_ = std::move(label);
}

void Progress::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_) return;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock) return;  // another thread is printing: skip, a later update will show
  const auto now = std::chrono::steady_clock::now();
  if (done < total && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(stream_, "\r\033[K%s: %5.1f%% (%llu/%llu), %.0f s elapsed, ETA %.0f s", label_.c_str(),
               100.0 * fraction, static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
               elapsed, eta);
  std::fflush(stream_);
  printed_ = true;
}

}  // namespace hetstruct::cli
