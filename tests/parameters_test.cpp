// The library names parameters in the papers' words; the command line spells them as its flags
// through one table (cli/parameters.h).
#include <catch2/catch.hpp>

#include "cli/parameters.h"
#include "engine/simulate/model.h"
#include "tests/support.h"

namespace parameters_test {

using namespace hetstruct;

TEST_CASE("library errors name parameters, the CLI maps them to flags", "[parameters]") {
  engine::Model model = engine::Model::wilson(structures::StructureKind::synchronous, 3, 4, "1/2", "uniform", 10);
  try {
    model.build();
    FAIL("m > n was accepted");
  } catch (const InputError& e) {
    CHECK(e.where() == "fast_count");
    CHECK(cli::flag_message(e) == "--m: the fast count must be between 0 and the width 3, got 4");
  }
  model.fast_count = 0;
  const std::string negative = "comm_cost: the communication cost must be >= 0, got -1";
  CHECK(testing::error_of([] { (void)engine::parse_comm_cost("-1"); }) == negative);
  model.comm = {-1.0, "-1"};  // set directly, past the parser: refused where the model is used
  CHECK(testing::error_of([&] { model.compile_options(); }) == negative);
  CHECK(cli::flag_of("comm_cost") == "--comm");
  CHECK(cli::flag_of("scale") == "--a");
  CHECK(cli::flag_of("levels") == "--levels");
  CHECK(cli::flag_of("width") == "--n");
  CHECK(cli::flag_of("protocol") == "--protocol");
  CHECK(cli::flag_of("sweep") == "sweep");  // not a parameter: left as it is
  CHECK(cli::flag_message(InputError("width", "too wide", "make the model smaller, or run anyway with memory_check off")) ==
        "--n: too wide (make the model smaller, or run anyway with --no-memory-check)");
}

}  // namespace parameters_test
