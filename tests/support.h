// Helpers shared by the Catch2 tests.
#pragma once

#include <iostream>
#include <sstream>
#include <string>

#include "distributions/input_error.h"

namespace hetstruct::testing {

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
