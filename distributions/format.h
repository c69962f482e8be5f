// Numbers as text, the two forms the libraries print: one helper each, so that a number reads the
// same in every message and every canonical text (the CLI transcript tests compare outputs).
#pragma once

#include <charconv>
#include <sstream>
#include <string>

namespace hetstruct::distributions {

// The shortest text that reads back to the same double (std::to_chars): canonical texts such as
// Law::to_string, which must parse back to an equal value.
inline std::string format_exact(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// Six significant digits, as an ostream prints a double by default: numbers quoted in messages
// (the HBSP machine, program and trace readers), where the magnitude matters, not every digit.
inline std::string format_brief(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

}  // namespace hetstruct::distributions
