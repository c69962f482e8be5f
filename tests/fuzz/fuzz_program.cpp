// libFuzzer harness: the HBSP program CSV parser (engine::hbsp::parse_program) on a fixed 4-processor machine, p = 3, then its replay.
// InputError is a normal outcome; a crash, a sanitizer report, another exception or a hang is a
// finding (see fuzz_targets.h). Build: tests/fuzz/CMakeLists.txt; run: tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hetstruct::fuzz::check_program(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
