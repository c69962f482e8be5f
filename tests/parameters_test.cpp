// The library names parameters in the papers' words; the command line spells them as its flags
// through one table (cli/parameters.h).
#include <catch2/catch.hpp>

#include "cli/parameters.h"
#include "engine/simulate/model.h"
#include "engine/simulate/parameters.h"

#include <set>
#include <stdexcept>
#include <string>
#include "tests/support.h"

namespace parameters_test {

using namespace hetstruct;
using namespace hetstruct::engine;

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

TEST_CASE("parameters: every row has a flag, a keyword, help and a kind, and no two rows share a spelling", "[parameters]") {
  std::set<std::string> names, flags, keywords, keys;
  for (const auto& p : engine::parameters()) {
    INFO(p.name);
    REQUIRE(std::string(p.name).size() > 0);
    REQUIRE(std::string(p.flag).size() > 0);
    REQUIRE(std::string(p.keyword).size() > 0);
    REQUIRE(std::string(p.help).size() > 10);
    REQUIRE(std::string(to_string(p.kind)) != "?");
    REQUIRE(names.insert(p.name).second);
    REQUIRE(flags.insert(p.flag).second);
    REQUIRE(keywords.insert(p.keyword).second);
    REQUIRE(find_parameter(p.name) == &p);
    REQUIRE(&parameter(p.name) == &p);
    if (p.kind == ParameterKind::command) continue;  // a command's name, not an option
    // An option: a long flag, its short one (if any) one letter, the TOML key the flag without dashes,
    // the keyword the flag's words joined by '_' (memory_check: the flag says what turns it off).
    const std::string flag = p.flag;
    REQUIRE(flag.rfind("--", 0) == 0);
    REQUIRE(std::string(p.key) == flag.substr(2));
    REQUIRE(keys.insert(p.key).second);
    const std::string shortf = p.short_flag;
    REQUIRE((shortf.empty() || (shortf.size() == 2 && shortf[0] == '-')));
    std::string words = flag.substr(2);
    if (words.rfind("no-", 0) == 0) words = words.substr(3);
    for (auto& c : words)
      if (c == '-') c = '_';
    REQUIRE(words == p.keyword);
    REQUIRE(option_names(p) == (shortf.empty() ? flag : flag + "," + shortf));
  }
  REQUIRE(find_parameter("no such parameter") == nullptr);
  REQUIRE_THROWS_AS(parameter("no such parameter"), std::logic_error);
  // The spellings the papers' names take on the command line and in Python.
  REQUIRE(std::string(parameter("width").flag) == "--n");
  REQUIRE(std::string(parameter("comm_cost").keyword) == "comm");
  REQUIRE(option_names(parameter("levels")) == "--levels,-p");
  REQUIRE(help_of(parameter("policy"), "dynamic | equal") == "Master-slave dealing (default: the first): dynamic | equal");
}

TEST_CASE("parameters: parse_model knows the name of every model row, and refuses any other", "[parameters]") {
  int model_rows = 0;
  for (const auto& p : engine::parameters()) {
    ModelTexts t;
    t.set(p.name, "");
    INFO(p.name);
    if (p.scope == ParameterScope::model) {
      ++model_rows;
      // Known: the text is parsed (and may be refused as the user's error), never a programming error.
      try {
        (void)parse_model(t);
      } catch (const InputError&) {
      }
    } else {
      REQUIRE_THROWS_AS(parse_model(t), std::logic_error);
    }
  }
  REQUIRE(model_rows == 28);  // 26 and the platform's platform and sharing
  ModelTexts unknown;
  unknown.set("n", "8");  // a flag's spelling, not the parameter's name
  REQUIRE_THROWS_AS(parse_model(unknown), std::logic_error);
  // A named value reaches the model: the name is the parser's.
  ModelTexts named;
  named.set("structure", "sync").set("width", "3").set("levels", "7").set("comm_cost", "1/4");
  const Model m = parse_model(named);
  REQUIRE(m.width == 3);
  REQUIRE(m.levels == 7);
}

}  // namespace parameters_test
