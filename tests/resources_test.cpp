// Resource estimates (engine/driver/resources.h): the arithmetic behind the memory guard and the time notice.
#include <cmath>

#include <catch2/catch.hpp>

#include "engine/driver/resources.h"
#include "distributions/input_error.h"

namespace resources_test {

using namespace hetstruct;

TEST_CASE("memory estimates grow with processors, threads and DAG files", "[resources]") {
  const double base = engine::model_bytes(0, 0, 1);
  // 700 bytes per processor and 30 per processor and thread, 13 per byte of a graph file (the single-pass DOT reader) (the
  // measured peaks, tests/memory_estimate.py: 10^6 processors of sync take 735 MB).
  REQUIRE(engine::model_bytes(1000000, 0, 2) - base == Approx(7.6e8));
  REQUIRE(engine::model_bytes(0, 1000, 4) - base == Approx(13000.0));
  REQUIRE(engine::model_bytes(1000000, 0, 2) > 735.0 * 1024 * 1024);
}

TEST_CASE("time estimates are tasks x replications x ns per task over the threads", "[resources]") {
  // The arithmetic, not the measured ns per task (a table that benchmarks may update): linear in
  // tasks and replications, inverse in threads (0 counts as one), event protocols the slowest.
  using engine::PlanKind;
  const double one = engine::run_seconds(PlanKind::synchronous, 1e6, 1000, 1);
  REQUIRE(one > 0.0);
  REQUIRE(engine::run_seconds(PlanKind::synchronous, 2e6, 1000, 1) == Approx(2.0 * one));
  REQUIRE(engine::run_seconds(PlanKind::synchronous, 1e6, 3000, 1) == Approx(3.0 * one));
  REQUIRE(engine::run_seconds(PlanKind::synchronous, 1e6, 1000, 4) == Approx(one / 4.0));
  REQUIRE(engine::run_seconds(PlanKind::dag, 1e6, 1000, 0) == engine::run_seconds(PlanKind::dag, 1e6, 1000, 1));
  for (const auto kind : {PlanKind::asynchronous, PlanKind::synchronous, PlanKind::neighbor_sequential,
                          PlanKind::neighbor_plain, PlanKind::task_pool, PlanKind::dag})
    REQUIRE(engine::run_seconds(kind, 1e6, 1000, 1) < engine::run_seconds(PlanKind::protocol, 1e6, 1000, 1));
}

TEST_CASE("the memory guard refuses what the machine cannot hold", "[resources]") {
  const double available = engine::available_bytes();
  REQUIRE(available > 0.0);
  REQUIRE(std::isfinite(available));  // /proc/meminfo or sysconf on Linux
  REQUIRE_NOTHROW(engine::check_memory(available / 2, "width", "4 processors"));
  REQUIRE_THROWS_AS(engine::check_memory(available * 2, "width", "4 processors"), InputError);
  REQUIRE_THROWS_WITH(engine::check_memory(1e15, "width", "4 processors"),
                      Catch::Contains("909 TB of memory") && Catch::Contains("memory_check off"));
}

TEST_CASE("sizes and durations read as people write them", "[resources]") {
  REQUIRE(engine::human_bytes(512) == "512 B");
  REQUIRE(engine::human_bytes(1.5 * 1024 * 1024) == "1.5 MB");
  REQUIRE(engine::human_bytes(21.0 * 1024 * 1024 * 1024) == "21 GB");
  REQUIRE(engine::human_seconds(59.4) == "59 s");
  REQUIRE(engine::human_seconds(200) == "3 min 20 s");
  REQUIRE(engine::human_seconds(4800) == "1 h 20 min");
  REQUIRE(engine::human_seconds(3 * 86400 + 7200) == "3 days 2 h");
  REQUIRE(engine::human_seconds(1e12) == "more than 30 years");
}

}  // namespace resources_test
