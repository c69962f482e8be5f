// The library's parameter names (the papers' words: width, fast_count, ...) as this command line's
// flags, read from the parameter table (engine/simulate/parameters.h), so that a library error reads
// right from a flag: the library says "width: the width must be at least 1", the user reads "--n:
// the width must be at least 1".
#pragma once

#include <string>

#include "distributions/input_error.h"

namespace hetstruct::cli {

// The flag of a library parameter ("width" -> "--n"); the name itself when it has no row. HBSP's
// rows ("size", "root", ...) only with `hbsp` (the hbsp command's errors): elsewhere the words mean
// other things.
std::string flag_of(const std::string& parameter, bool hbsp = false);

// A library text with the settings it names spelled as flags ("memory_check off" ->
// "--no-memory-check"): its errors' problems and hints, and its warnings.
std::string flag_text(std::string text);

// The error's message with its parameter spelled as a flag: where() when it is a parameter, and
// the settings named in the hint ("memory_check off" -> "--no-memory-check").
std::string flag_message(const InputError& e);

// CLI11's parse errors in the same words as ours: "--levels: '1.5' is not a valid value" rather
// than "Could not convert: --levels = 1.5"; unexpected arguments in the order given.
std::string parse_error_message(const std::string& cli11_message);

}  // namespace hetstruct::cli
