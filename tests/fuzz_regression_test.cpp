// Fuzzing regressions (issue 6): the committed fuzz corpus (tests/fuzz/corpus/<harness>/, seeds
// and every input a fuzzer found, named crash-*) replayed through the harnesses' own checks
// (tests/fuzz/fuzz_targets.h), plus the findings written out as cases. Each input must give
// InputError or a valid result: no crash, no other exception, no accepted value that breaks a
// documented property. Runs in every build; the sanitizer builds (tests/sanitize.sh) run it too.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/hbsp/model.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "fuzz/fuzz_targets.h"
#include "structures/structure.h"

namespace fuzz_regression_test {

using hetstruct::InputError;
using Catch::Matchers::Contains;
namespace fz = hetstruct::fuzz;

namespace {

const std::filesystem::path corpus_root = std::filesystem::path(HETSTRUCT_TEST_DATA) / ".." / "fuzz" / "corpus";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every file of corpus/<name>, in name order, through `check`; returns how many.
template <class Check>
std::size_t replay_corpus(const std::string& name, Check check) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(corpus_root / name))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    INFO("corpus file " << f.string());
    REQUIRE_NOTHROW(check(read_file(f)));
  }
  return files.size();
}

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("fuzz corpus: law strings", "[fuzz-regression]") { CHECK(replay_corpus("law", fz::check_law) > 10); }
TEST_CASE("fuzz corpus: DOT graphs", "[fuzz-regression]") { CHECK(replay_corpus("dot", fz::check_dot) > 10); }
TEST_CASE("fuzz corpus: STG task graphs", "[fuzz-regression]") { CHECK(replay_corpus("stg", fz::check_stg) > 5); }
TEST_CASE("fuzz corpus: WfFormat workflows", "[fuzz-regression]") {
  CHECK(replay_corpus("wfformat", fz::check_wfformat) > 5);
}
TEST_CASE("fuzz corpus: HBSP machine files", "[fuzz-regression]") {
  CHECK(replay_corpus("machine", fz::check_machine) > 5);
}
TEST_CASE("fuzz corpus: HBSP program CSV", "[fuzz-regression]") {
  CHECK(replay_corpus("program", fz::check_program) > 5);
}
TEST_CASE("fuzz corpus: r_j traces", "[fuzz-regression]") { CHECK(replay_corpus("trace", fz::check_trace) > 5); }
TEST_CASE("fuzz corpus: sweep lists, ranges, CSV records and TOML configs", "[fuzz-regression]") {
  CHECK(replay_corpus("sweep", fz::check_sweep) > 20);
}

// Finding (fuzz_sweep): a field holding a carriage return, which csv_field wrote unquoted and
// parse_csv_line dropped on reading back: `sweep --resume` then refused its own --out file, e.g.
// after --law $'c(1)\r' ("1 configuration(s) outside this grid"). csv_field quotes it now.
TEST_CASE("fuzz finding: a carriage return in a CSV field reads back", "[fuzz-regression]") {
  const std::vector<std::string> records = {"\"\r\"", "c(1)\r,x", "\"a\r\nb\",\"\r\"\"\""};
  for (const auto& text : records) {
    REQUIRE_NOTHROW(fz::check_csv_record(text));
    REQUIRE_NOTHROW(fz::check_sweep(text));
  }
}

// Finding: a law nested a few ten thousand deep overflowed the stack of the recursive parser
// (a segmentation fault of `hetstruct simulate --law`, and of a DOT file with such a law).
TEST_CASE("fuzz finding: deeply nested laws are refused, not a stack overflow", "[fuzz-regression]") {
  using hetstruct::distributions::parse_law;
  const std::size_t deep = 50000;
  for (const std::string& text : {repeat("(", deep) + "u(0,1)" + repeat(")", deep), repeat("2*", deep) + "u(0,1)",
                                  repeat("mix(1:", deep) + "u(0,1)" + repeat(")", deep)}) {
    REQUIRE_THROWS_AS(parse_law(text), InputError);
    REQUIRE_THROWS_WITH(parse_law(text), Contains("nested more than"));
    REQUIRE_NOTHROW(fz::check_law(text));
  }
  // Reasonable nesting still parses.
  CHECK(parse_law(repeat("(", 50) + "u(0,1)" + repeat(")", 50)) == parse_law("u(0,1)"));
  CHECK(parse_law(repeat("mix(1:", 30) + "c(2)" + repeat(")", 30)).mean() == 2.0);
}

// Finding: finite parameters whose moments overflow were accepted, their variance (or mean, or
// support) inf: u(1,01e308) was the fuzzer's input. Now refused with a message.
TEST_CASE("fuzz finding: laws whose moments overflow are refused", "[fuzz-regression]") {
  using hetstruct::distributions::parse_law;
  for (const char* text : {"u(1,01e308)", "u(-1e200,1e200)", "2*n(1e308,1)", "1e300*u(0,1e10)",
                           "1e200*(1e200*u(0,1))", "1e-200*(1e-200*u(0,1))", "mix(0.5:c(-1e200),0.5:c(1e200))"}) {
    INFO(text);
    REQUIRE_THROWS_AS(parse_law(text), InputError);
    REQUIRE_NOTHROW(fz::check_law(text));
  }
  CHECK_THROWS_WITH(parse_law("u(1,1e308)"), Contains("overflows") && Contains("position 0"));
  // A fraction of two finite numbers can overflow: 4/1e-308 read as inf (as --a, --comm, ...).
  CHECK_THROWS_WITH(parse_law("u(0,4/1e-308)"), Contains("number out of range"));
  CHECK_THROWS_AS(hetstruct::distributions::parse_number("4/1e-308", "--a"), InputError);
  REQUIRE_NOTHROW(fz::check_law("4/\v1e-308"));
  // Already 1e-200*u(0,1) has a variance (1e-400/12) below the smallest normal double (issue 6).
  CHECK_THROWS_WITH(parse_law("1e-200*(1e-200*u(0,1))"), Contains("variance underflows"));
  CHECK_THROWS_WITH(parse_law("1e-160*(1e-160*c(1))"), Contains("scale factors multiply"));
  // Large but representable laws stay accepted.
  CHECK(parse_law("u(0,1e150)").variance() > 0.0);
  CHECK(parse_law("1e100*n(1e100,1e100)").mean() == Approx(1e200));
}

// Finding: boost::read_graphviz (Boost 1.74) recurses once per nested '{': a DOT file with a few
// ten thousand nested braces overflowed the stack (a segmentation fault of simulate --graph).
TEST_CASE("fuzz finding: deeply nested DOT subgraphs are refused, not a stack overflow", "[fuzz-regression]") {
  using hetstruct::structures::parse_dot;
  const std::size_t deep = 50000;
  const std::string vertex = R"dot(a [processor=0, law="u(0,1)"];)dot";
  for (const std::string& text : {"digraph g {" + repeat("{", deep) + vertex + repeat("}", deep) + "}",
                                  "digraph g {" + repeat("subgraph {", deep) + vertex + repeat("}", deep) + "}",
                                  "digraph g { a -> " + repeat("{", deep) + "b" + repeat("}", deep) + " }"}) {
    REQUIRE_THROWS_AS(parse_dot(text, "deep.dot"), InputError);
    REQUIRE_THROWS_WITH(parse_dot(text, "deep.dot"), Contains("deep.dot:1") && Contains("nested more than"));
    REQUIRE_NOTHROW(fz::check_dot(text));
  }
  // Braces in strings and comments are text, not nesting.
  const std::string many = repeat("{", 500);
  const std::string text = "digraph g {\n// " + many + "\n/* " + many + " */\n# " + many + "\n" +
                           R"dot(a [processor=0, law="u(0,1)", label=")dot" + many + R"dot("];
  b [processor=0, law="c(1)", label=<<b>)dot" + many + R"dot(<br/></b>>];
  subgraph s { subgraph t { a -> b; } }
})dot";
  const auto s = parse_dot(text, "text.dot");
  CHECK(boost::num_vertices(s.graph()) == 2);
  CHECK(s.levels == 2);
}

// Finding: machine speeds whose sum or ratio overflows were accepted, and the shares c_j came
// out 0 or the relative speeds inf: `hbsp replay --algorithm prefix` costed no local work at all
// (9 against the paper form's 1009). Now refused with a message: since issue 6's ranges, by the
// speed's own range, [1e-30, 1e30] (bounds/hbsp/model.h).
TEST_CASE("fuzz finding: machine speeds whose sum or ratio overflows are refused", "[fuzz-regression]") {
  namespace model = hetstruct::bounds::hbsp;
  const auto parse = [](const std::string& text) {
    std::istringstream in(text);
    return model::parse_machine(in, "m.txt");
  };
  for (const char* speeds : {"index=1e308", "index=1e-308"}) {
    const std::string text = std::string("g 1\nL 1\nprocessor a r=1 index=1e30\nprocessor b r=1 ") + speeds + "\n";
    INFO(text);
    REQUIRE_THROWS_WITH(parse(text), Contains("m.txt:4") && Contains("field 'index'") && Contains("limit"));
    REQUIRE_NOTHROW(fz::check_machine(text));
  }
  // Wide but representable speeds stay accepted.
  const auto m = parse("g 1\nL 1\nprocessor a r=1 c=1e-30\nprocessor b r=1 c=1e30\n");
  CHECK(m.share(0, 2) > 0.0);
  CHECK(m.relative_speed(1, 2) == Approx(1e60));
}

}  // namespace fuzz_regression_test
