// libFuzzer harness: the sweep's text inputs: lists (split_list), whole numbers and numbers with
// ranges (expand_integers, expand_numbers; engine/sweep/grid.h), CSV records (parse_csv_line;
// engine/simulate/record.h) and the TOML config file (`sweep --config`, through SweepCommand and CLI11's
// ConfigTOML), on the same input. InputError is a normal outcome; a crash, a sanitizer report,
// another exception or a hang is a finding (see fuzz_targets.h). Build: tests/fuzz/CMakeLists.txt;
// run: tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hetstruct::fuzz::check_sweep(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
