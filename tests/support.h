// Helpers shared by the Catch2 tests.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <sstream>
#include <string>

#include "distributions/input_error.h"

namespace hetstruct::testing {

// A fresh folder (mkdtemp) under the system's temporary folder, removed with everything in it.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "hetstruct-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + ".XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// The message of the InputError `f` throws ("" when it throws none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// What `f` prints on std::cout (restored even when `f` throws).
template <class F>
std::string captured_stdout(F f) {
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  try {
    f();
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  return captured.str();
}

}  // namespace hetstruct::testing
