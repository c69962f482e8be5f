// The typed model: parse_model turns every text into a value once, refuses a bad one where it is
// given (even where it would not act), and keeps the user's text beside what records print back.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/simulate/simulation.h"
#include "tests/support.h"

namespace model_test {

using hetstruct::distributions::Law;
using hetstruct::distributions::Spelled;
using hetstruct::engine::Model;
using hetstruct::engine::ModelTexts;
using hetstruct::engine::parse_model;
using hetstruct::testing::error_of;

ModelTexts wilson_texts() {
  ModelTexts t;
  t.set("structure", "sync").set("width", "6").set("fast_count", "2").set("levels", "10");
  return t;
}

ModelTexts graph_texts() {
  ModelTexts t;
  t.set("graph", std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot");
  return t;
}

TEST_CASE("parse_model: every text becomes a value, with the user's text kept beside it", "[model]") {
  ModelTexts t = wilson_texts();
  t.set("scale", "4/5").set("law", "normal").set("fast_law", "c(1)").set("comm_cost", "1/40");
  t.set("slowdown", "u(1,2)").set("machine_slowdown", "gamma(4,0.25)");
  const Model m = parse_model(t);
  CHECK(m.scale == Spelled<double>{0.8, "4/5"});
  CHECK(m.comm == Spelled<double>{0.025, "1/40"});
  CHECK(m.law == Spelled<Law>{Law::paper_normal(), "normal"});
  REQUIRE(m.fast_law);
  CHECK(*m.fast_law == Spelled<Law>{Law::constant(1.0), "c(1)"});
  CHECK(m.fast_law_value() == Law::constant(1.0));
  REQUIRE(m.slowdown);
  CHECK(m.slowdown->value == std::vector<Law>{Law::uniform(1.0, 2.0)});
  REQUIRE(m.machine_slowdown);
  CHECK(m.machine_slowdown->value == Law::gamma(4.0, 0.25));
  CHECK(m.slowed());
  CHECK(m.compile_options().comm_cost == 0.025);
  CHECK(m.compile_options().slowdown.processor == std::vector<Law>{Law::uniform(1.0, 2.0)});

  // The defaults are Wilson's: u(0,1), a = 1/2, C = 0, no fast law, no slowdown.
  const Model d = parse_model(wilson_texts());
  CHECK(d.law == Spelled<Law>{Law::paper_uniform(), "uniform"});
  CHECK(d.scale == Spelled<double>{0.5, "1/2"});
  CHECK(d.comm == Spelled<double>{0.0, "0"});
  CHECK_FALSE(d.fast_law);
  CHECK_FALSE(d.slowed());
  CHECK(d.is_paper_uniform());
  CHECK(d.fast_law_value() == Law::scaled(0.5, Law::paper_uniform()));
  // A law in the syntax is not Wilson's name, even where it is the same law.
  CHECK(parse_model(ModelTexts(wilson_texts()).set("law", "u(0,1)")).law == Spelled<Law>{Law::paper_uniform(), "u(0,1)"});
  CHECK(error_of([] { (void)hetstruct::engine::parse_law_of("fast_law", "uniform"); }).rfind("fast_law: ", 0) == 0);

  // Model::wilson parses its texts as parse_model does.
  const Model w = Model::wilson(hetstruct::structures::StructureKind::synchronous, 6, 2, "4/5", "normal", 10, 0.025);
  CHECK(w.scale == m.scale);
  CHECK(w.law == m.law);
  CHECK(w.comm.value == m.comm.value);

  // A graph's machine: numbers, one count of cores standing for every processor.
  const Model g = parse_model(ModelTexts(graph_texts()).set("processor_scale", "1,1/2").set("processor_cores", "3"));
  CHECK(g.processor_scales == std::vector<double>{1.0, 0.5});
  CHECK(g.processor_cores == std::vector<int>{3});
  const auto built = g.build();
  CHECK(built.processor_scale == std::vector<double>{1.0, 0.5});
  CHECK(built.processor_cores == std::vector<int>(static_cast<std::size_t>(built.width), 3));
}

TEST_CASE("parse_model: a bad value is refused where it is given, naming its parameter", "[model]") {
  const auto refusal = [](ModelTexts t) { return error_of([&] { (void)parse_model(t); }); };
  const auto starts = [](const std::string& text, const std::string& parameter) { return text.rfind(parameter + ": ", 0) == 0; };
  CHECK(refusal(ModelTexts(wilson_texts()).set("scale", "0")) == "scale: the scale must be > 0, got 0");
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("scale", "1/0x")), "scale"));
  CHECK(refusal(ModelTexts(wilson_texts()).set("comm_cost", "-1/4")) == "comm_cost: the communication cost must be >= 0, got -1/4");
  CHECK(refusal(ModelTexts(wilson_texts()).set("comm_cost", "1e31")) ==
        "comm_cost: the communication cost 1e31 is more than the limit 1e30");
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("law", "u(1,")), "law"));
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("law", "")), "law"));
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("fast_law", "n(1)")), "fast_law"));
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("slowdown", "gamma(-1,1)")), "slowdown"));
  CHECK(starts(refusal(ModelTexts(wilson_texts()).set("machine_slowdown", "q(1)")), "machine_slowdown"));
  CHECK(starts(refusal(ModelTexts(graph_texts()).set("processor_scale", "1,0")), "processor_scale"));
  CHECK(starts(refusal(ModelTexts(graph_texts()).set("processor_cores", "2,x")), "processor_cores"));
  // Even where the value would not act: a scale beside the processors' scales (no fast processor).
  CHECK(refusal(ModelTexts(graph_texts()).set("processor_scale", "1,1/2").set("scale", "-2")) ==
        "scale: the scale must be > 0, got -2");
  // A combination that makes no sense is named before the values are read.
  CHECK(starts(refusal(ModelTexts(graph_texts()).set("law", "u(1,")), "law"));
  CHECK(refusal(ModelTexts(graph_texts()).set("law", "u(1,")).find("has no effect on a graph") != std::string::npos);
}

TEST_CASE("Model: a field set past the parser is refused where the model is used", "[model]") {
  Model m = parse_model(wilson_texts());
  m.scale = {0.0, "0"};
  CHECK(error_of([&] { (void)m.build(); }) == "scale: the scale must be > 0, got 0");
  m.scale = {0.5, "1/2"};
  m.comm = {2e30, "2e30"};
  CHECK(error_of([&] { (void)m.compile_options(); }) == "comm_cost: the communication cost 2e30 is more than the limit 1e30");
}

TEST_CASE("Model: records print Wilson's law names as given, other laws canonically", "[model]") {
  const auto law_printed = [](const std::string& law) {
    hetstruct::engine::RunOptions run;
    run.reps = 10;
    hetstruct::engine::Simulation sim = hetstruct::engine::prepare(parse_model(ModelTexts(wilson_texts()).set("law", law)));
    hetstruct::engine::run(sim, run, false, hetstruct::engine::Estimator::mc);
    return hetstruct::engine::simulation_record(sim, run.seed).text("law");
  };
  CHECK(law_printed("normal") == "normal");
  CHECK(law_printed("uniform") == "uniform");
  CHECK(law_printed("n( 1/2 , 1/12 )") == "n(0.5,0.08333333333333333)");
}

}  // namespace model_test
