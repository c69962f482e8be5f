// Boost.Random's normal variate with its common case inline. Boost's ziggurat
// (boost::random::detail::unit_normal_distribution) calls generate_int_float_pair out of line for
// every draw, and that call is the larger part of a normal draw's cost in the hot loops (about 3%
// of the event-driven nearest-neighbour protocol at n = 16). Here the first rectangle test, which
// accepts about 99% of the draws, is written out for the 63-bit ProcessorStream (engine/streams.h);
// every other path is Boost's own code. The variates are Boost's bit for bit: the same engine
// calls, the same arithmetic in the same order (tests/law_test.cpp compares them over millions of
// draws, tails included).
#pragma once

#include <cstdint>
#include <type_traits>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>

namespace hetstruct::distributions {

namespace ziggurat_detail {

// The rest of one ziggurat iteration after its first rectangle test failed (Boost's own lines),
// then, if it rejects, Boost's whole loop for a fresh draw: an iteration keeps no state.
template <class Engine>
[[gnu::noinline]] double unit_normal_slow(Engine& eng, double x, int i, int sign) {
  using boost::random::detail::normal_table;
  using Unit = boost::random::detail::unit_normal_distribution<double>;
  const double* const table_x = normal_table<double>::table_x;
  const double* const table_y = normal_table<double>::table_y;
  if (i == 0) return Unit().generate_tail(eng) * sign;
  const double y01 = boost::random::uniform_01<double>()(eng);
  const double y = table_y[i] + y01 * (table_y[i + 1] - table_y[i]);
  double y_above_ubound, y_above_lbound;
  if (table_x[i] >= 1) {
    y_above_ubound = (table_x[i] - table_x[i + 1]) * y01 - (table_x[i] - x);
    y_above_lbound = y - (table_y[i] + (table_x[i] - x) * table_y[i] * table_x[i]);
  } else {
    y_above_lbound = (table_x[i] - table_x[i + 1]) * y01 - (table_x[i] - x);
    y_above_ubound = y - (table_y[i] + (table_x[i] - x) * table_y[i] * table_x[i]);
  }
  if (y_above_ubound < 0 && (y_above_lbound < 0 || y < Unit::f(x))) return x * sign;
  return Unit()(eng);
}

// An engine whose variates are the 63-bit integers [0, 2^63), its range a constant expression
// (ProcessorStream).
template <class Engine>
concept SixtyThreeBits = requires { typename std::integral_constant<std::uint64_t, Engine::max()>; } &&
                         Engine::min() == 0 && Engine::max() == (std::uint64_t{1} << 63) - 1;

}  // namespace ziggurat_detail

// A standard normal variate, exactly as boost::random::detail::unit_normal_distribution draws it.
template <class Engine>
[[gnu::always_inline]] inline double unit_normal(Engine& eng) {
  if constexpr (ziggurat_detail::SixtyThreeBits<Engine>) {
    // generate_int_float_pair<double, 8> on a 63-bit engine: one call, the low 8 bits the
    // bucket, bits 8..62 the fraction over 2^55, with bit 10 cleared (Boost keeps 53 digits so).
    std::uint64_t u = eng();
    int i = static_cast<int>(u & 0xff);
    u &= ~(std::uint64_t{1} << 10);
    const double r = static_cast<double>(u >> 8) * (1.0 / static_cast<double>(std::uint64_t{1} << 55));
    const int sign = (i & 1) * 2 - 1;
    i >>= 1;
    const double* const table_x = boost::random::detail::normal_table<double>::table_x;
    const double x = r * table_x[i];
    if (x < table_x[i + 1]) [[likely]]
      return x * sign;
    return ziggurat_detail::unit_normal_slow(eng, x, i, sign);
  } else {
    return boost::random::detail::unit_normal_distribution<double>()(eng);
  }
}

// What boost::random::normal_distribution<double>::operator() returns, with unit_normal's inline
// common case.
template <class Engine>
[[gnu::always_inline]] inline double normal_variate(const boost::random::normal_distribution<double>& law, Engine& eng) {
  return unit_normal(eng) * law.sigma() + law.mean();
}

}  // namespace hetstruct::distributions
