// A value beside the text the user gave for it. Computing reads the value; records print the text,
// so that a fraction prints back as written (1/2, not 0.5) and Wilson's law names as named
// (uniform, not u(0,1)). Both come from one parse at the edge (engine/simulate/model.h).
#pragma once

#include <string>

#include "distributions/format.h"

namespace hetstruct::distributions {

template <class T>
struct Spelled {
  T value;
  std::string text;
  bool operator==(const Spelled&) const = default;
};

// A number the program computed: its text is its shortest exact decimal.
inline Spelled<double> spelled_exactly(double x) { return {x, format_exact(x)}; }

}  // namespace hetstruct::distributions
