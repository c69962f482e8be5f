#!/usr/bin/env bash
# Sanitizer builds of the test suite for CI (issue 6), each in its own build directory; any
# sanitizer report fails the run (reports abort the process: -fno-sanitize-recover=all,
# halt_on_error=1).
#
#   tests/sanitize.sh asan   AddressSanitizer + UndefinedBehaviorSanitizer (with LeakSanitizer,
#                            except for the MPI tests: OpenMPI's own allocations): the whole ctest
#                            suite (Catch2 tests and CLI transcript tests) in build-asan/
#   tests/sanitize.sh tsan   ThreadSanitizer: the parallel engine's tests (Catch2 [engine],
#                            [tables] and every test named "... threads"), and the determinism CLI
#                            tests (1 vs 2 threads) in build-tsan/. Needs the annotations of
#                            distributions/tsan.h in the engine's parallel loops (Debian's libtbb is not
#                            instrumented) and tests/tsan.supp for TBB's own internals.
#   tests/sanitize.sh [all]  both
#
# Builds are RelWithDebInfo at -O1 with assertions on (no NDEBUG), unity builds as build.sh's. Environment: CXX (default
# g++), HETSTRUCT_JOBS (default nproc). Debian 12 packages: those of install-deps.sh (gcc's
# libasan8, libubsan1 and libtsan2 come with build-essential).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
what=${1:-all}
case "$what" in asan|tsan|all) ;; *) echo "usage: tests/sanitize.sh [asan|tsan|all]" >&2; exit 2 ;; esac
jobs=${HETSTRUCT_JOBS:-$(nproc)}
cxx=${CXX:-g++}

configure_and_build() {  # build dir, sanitizer flags
  local dir=$1 flags=$2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
    -DHETSTRUCT_TESTS=ON -DHETSTRUCT_BENCHMARKS=OFF -DHETSTRUCT_PYTHON=OFF >/dev/null  # an instrumented module cannot load into Python
  cmake --build "$dir" -j"$jobs"
}

run_asan() {
  local start=$SECONDS
  configure_and_build build-asan "-fsanitize=address,undefined -fno-sanitize-recover=all"
  echo "sanitize: asan build $((SECONDS - start)) s" >&2
  start=$SECONDS
  (
    asan=detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:halt_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export HETSTRUCT_INTERRUPT_REPS=8000  # cli.interrupt's sweeps: 280 s at its default here, ~60 s at this
    cd build-asan
    ASAN_OPTIONS=$asan:detect_leaks=1 ctest --output-on-failure -j"$jobs" -LE '^mpi$'
    # OpenMPI does not free what MPI_Init allocates (some of it in components it has unloaded by
    # exit, so a suppression cannot name them): the MPI tests (label mpi) run without
    # LeakSanitizer, with every other check on. (None without HETSTRUCT_MPI: ctest runs nothing.)
    ASAN_OPTIONS=$asan:detect_leaks=0 ctest --output-on-failure -L '^mpi$'
  )
  echo "sanitize: asan ctest $((SECONDS - start)) s" >&2
}

run_tsan() {
  local start=$SECONDS
  configure_and_build build-tsan "-fsanitize=thread"
  echo "sanitize: tsan build $((SECONDS - start)) s" >&2
  start=$SECONDS
  (
    # tests/tsan.supp silences reports whose frames lie inside oneTBB's uninstrumented library
    # only (see the file); a race with a frame in hetstruct's code is still reported.
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=7 suppressions=$root/tests/tsan.supp"
    # The engine's and the tables' tests, and every "... on 1 and 2 threads" test (protocols, HBSP
    # bootstrap): Catch2 joins the filters with OR.
    build-tsan/tests/hetstruct_tests "[engine],[tables],*threads*"
    cd build-tsan
    ctest --output-on-failure -R '^cli\.determinism\.'
  )
  echo "sanitize: tsan tests $((SECONDS - start)) s" >&2
}

case "$what" in
  asan) run_asan ;;
  tsan) run_tsan ;;
  all) run_asan; run_tsan ;;
esac
echo "sanitize: $what passed with no sanitizer report" >&2
