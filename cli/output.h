// Output helpers: full-precision numbers, CSV fields, atomic files, progress on stderr.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/simulate/record.h"

namespace hetstruct::cli {

// A failure of the system the command runs on, not of its input nor of hetstruct: a program it
// needs is not installed. Exit status 1, its one line without "internal error".
struct SystemFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Shortest text that reads back to the same double (full precision for CSV and JSON);
// empty for NaN (an undefined value, such as the standard error of one replication).
std::string full(double x);
// Fixed-point text for humans (exponent notation from 1e15 on).
std::string fixed(double x, int decimals);
// CSV and JSON texts: the one module of engine/simulate/record.h.
using engine::csv_field;
using engine::json_string;
using engine::parse_csv_line;

// A count in plain decimal digits, at most `max`: CLI11 would read "-1" as 2^64-1 for an
// unsigned option. Throws InputError naming `option`.
std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t max);

// Why `path` cannot take a command's output file, checked before any work (write_file_atomically
// would fail only after it): an existing folder (the rename refuses it), a folder to write into
// that is missing or not writable. Empty when none applies.
std::string output_file_problem(const std::string& path);

// Writes `content` to `path` through a temporary file and a rename, so a reader never sees a
// half-written file: the temporary file's data is flushed to disk (fsync) before the rename, and
// the folder after it, so that after a system crash the path holds the old file or the new one
// whole, never an empty or partial one. Throws InputError when the file cannot be written, with
// the system's reason (strerror: "No space left on device") and what the path holds then.
void write_file_atomically(const std::string& path, const std::string& content);

// An advisory lock on an output file, held for a whole run so that a second writer of the same
// file is refused at once instead of replacing the first's rows at every checkpoint. The file
// itself is replaced by rename at every write (a lock on it would go with the old inode), so the
// lock is on a stable companion, PATH.lock, with classic POSIX record locks (fcntl F_SETLK): the
// kernel releases them when the process ends, however it ends (a crash, SIGKILL), and F_GETLK
// names the holder's PID (an open file description lock, F_OFD_GETLK, reports -1). Classic locks
// belong to the process: this is the one descriptor of PATH.lock it opens, and no child inherits
// the lock. The destructor removes PATH.lock, while still holding it; a run that took its lock on
// a PATH.lock removed meanwhile sees that the path no longer names its inode, and locks the new
// one (so removing it cannot let two runs hold "the" lock). A killed run leaves PATH.lock behind,
// unlocked: the next run takes it.
class OutputLock {
 public:
  OutputLock() = default;
  // Checks output_file_problem, then locks PATH.lock. Throws InputError naming --out and, where
  // the system says it, the other process (its PID and command name) when another process holds
  // the lock. On a file system without locks (ENOLCK) it warns and holds nothing.
  explicit OutputLock(const std::string& path);
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

 private:
  bool names_ours() const noexcept;  // PATH.lock is the file this descriptor locks
  void release() noexcept;
  void remove_and_release() noexcept;
  std::string lock_path_;
  int fd_ = -1;
};

// Removes the lock files this process holds (each only while its path still names the file it
// locks), for a process about to end without destructors: the interrupt handler's _exit, MPI_Abort.
// Async-signal-safe (fstat, stat and unlink on fixed storage). The locks themselves go with the
// process.
void remove_output_locks() noexcept;

// For a CLI11 validator of --out (commands that write their result once, at the end): the problem
// output_file_problem or OutputLock finds, as text, or empty when the file's lock is now held until
// the process exits.
std::string claim_output_file(const std::string& path);

// Warnings wait until the command has succeeded, so that a failing command still prints exactly
// one line; each distinct text is printed once, by flush_warnings().
void warn_later(const std::string& text);
void flush_warnings();

// One line on stderr when a run is expected to take more than a minute.
// `qualifier` follows the time ("about 3 min" + qualifier), e.g. " at most (the cap)".
void announce_duration(double seconds, const std::string& what, const std::string& qualifier = "");

// A progress line on stderr, only when stderr is a terminal; thread-safe and throttled.
class Progress {
 public:
  explicit Progress(std::string label);
  // Always on, writing to `stream` (for tests).
  Progress(std::string label, std::FILE* stream);
  ~Progress();
  void update(std::uint64_t done, std::uint64_t total);
  void set_label(std::string label);
  // Clears the progress line, so that what prints next (the result, on the same terminal) starts
  // on a clean line; a later update() draws it again.
  void finish();

 private:
  std::string label_;
  std::FILE* stream_ = stderr;
  bool enabled_;
  bool printed_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace hetstruct::cli
