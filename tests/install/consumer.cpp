// One simulation through an installed hetstruct (tests/install.sh): Wilson's synchronous structure of
// width 4 with one fast processor, 1,000 plain replications from seed 1; prints the mean at full precision,
// which the test compares with `hetstruct simulate` on the same model.
#include <cstdio>

#include "engine/simulate/model.h"
#include "engine/simulate/simulation.h"

int main() {
  using namespace hetstruct;
  engine::ModelTexts texts;
  texts.set("structure", "sync").set("width", "4").set("fast_count", "1").set("scale", "1/2").set("law", "uniform");
  engine::Simulation simulation = engine::prepare(engine::parse_model(texts));
  engine::RunOptions options;
  options.seed = 1;
  options.reps = 1000;
  engine::run(simulation, options, false, engine::Estimator::mc);
  std::printf("%.17g\n", simulation.estimate.mean);
  return 0;
}
