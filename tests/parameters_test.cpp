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

TEST_CASE("an error quotes input readably: a long token cut, bytes that do not print escaped", "[parameters]") {
  // Issue 38: an error line echoed a megabyte of input, or raw binary.
  const std::string megabyte(1 << 20, 'x');
  const InputError long_token("--a", "'" + megabyte + "' is not a number");
  CHECK(std::string(long_token.what()) == "--a: '" + std::string(77, 'x') + "...' is not a number");
  CHECK(long_token.problem() == "'" + std::string(77, 'x') + "...' is not a number");
  // 80 characters are kept whole; 81 are cut.
  CHECK(InputError("", "'" + std::string(80, 'y') + "'").problem() == "'" + std::string(80, 'y') + "'");
  CHECK(InputError("", "'" + std::string(81, 'y') + "'").problem() == "'" + std::string(77, 'y') + "...'");
  // Bytes: control bytes and bytes that are not UTF-8 as \xNN, a newline as \n; UTF-8 as it is.
  CHECK(InputError("g\xff.dot:3", "vertex 'a\x01" "b\nc\x7f': has no law", "caf\xc3\xa9").what() ==
        std::string("g\\xff.dot:3: vertex 'a\\x01b\\nc\\x7f': has no law (caf\xc3\xa9)"));
  // A cut counts an escape as one character, and never splits it.
  const InputError binary("", "'" + std::string(100, '\xff') + "'");
  std::string cut;
  for (int i = 0; i < 77; ++i) cut += "\\xff";
  CHECK(binary.problem() == "'" + cut + "...'");
  // Apostrophes are not quotes (the graph's width), and a quote inside a token stays in it.
  const std::string words = "the graph's width, the task's name";
  CHECK(InputError("", words).problem() == words);
  CHECK(InputError("", "'it's " + std::string(90, 'z') + "' here").problem() == "'it's " + std::string(72, 'z') + "...' here");
  // A message rewrapped with a cut token keeps it as it is (InputError(where, e.problem())).
  CHECK(InputError("law", long_token.problem()).problem() == long_token.problem());
  // Unquoted input as a net: a part over 1000 characters is cut.
  CHECK(InputError("", "got " + megabyte).problem().size() == 1000);
}

}  // namespace parameters_test
