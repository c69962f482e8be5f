// libFuzzer harness: the STG reader (structures::parse_stg, and the text as a mapping file), then the engine on the graph.
// InputError is a normal outcome; a crash, a sanitizer report, another exception or a hang is a
// finding (see fuzz_targets.h). Build: tests/fuzz/CMakeLists.txt; run: tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hetstruct::fuzz::check_stg(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
