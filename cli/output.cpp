#include "cli/output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <vector>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/resources.h"

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
  std::uint64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError(option, "'" + text + "' is not a whole number >= 0");
  if (value > max) throw InputError(option, text + " is more than the limit " + std::to_string(max));
  return value;
}

std::string output_file_problem(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    return "'" + path + "' is a folder, not a file to write: name a file in it";
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK) != 0) return "cannot write '" + path + "': the folder '" + dir + "' is missing or not writable";
  return {};
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const engine::CooperativeStop cooperative;  // Ctrl-C here lets the file be written whole, or removed
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, "cannot write the output file");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(path, "cannot move the output file into place");
  }
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
