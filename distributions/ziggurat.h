// Boost.Random's normal variate with its common case inline. Boost's ziggurat
// (boost::random::detail::unit_normal_distribution) calls generate_int_float_pair out of line for
// every draw, and that call is the larger part of a normal draw's cost in the hot loops (a
// quarter of the time a task of the zero-communication async and sync recurrences). Here the
// first rectangle test, which accepts about 99% of the draws, is written out for the 63-bit
// ProcessorStream (engine/kernel/streams.h). Any other draw is Boost's own, from the stream as it was
// before the draw, so the variates are Boost's bit for bit: the same engine calls, the same
// arithmetic in the same order (tests/law_test.cpp compares them over millions of draws, tails
// included).
#pragma once

#include <cstdint>
#include <type_traits>

#include <boost/random/normal_distribution.hpp>

namespace hetstruct::distributions {

namespace ziggurat_detail {

// Boost's whole draw, out of line: the rare path stays out of the hot loops.
template <class Engine>
[[gnu::noinline]] double boost_unit_normal(Engine& eng) {
  return boost::random::detail::unit_normal_distribution<double>()(eng);
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
    const Engine before = eng;
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
    // The tail, a wedge or a rejection: Boost's draw again from the same state, which takes the
    // same first step and goes on as Boost does.
    eng = before;
  }
  return ziggurat_detail::boost_unit_normal(eng);
}

// What boost::random::normal_distribution<double>::operator() returns, with unit_normal's inline
// common case.
template <class Engine>
[[gnu::always_inline]] inline double normal_variate(const boost::random::normal_distribution<double>& law, Engine& eng) {
  return unit_normal(eng) * law.sigma() + law.mean();
}

}  // namespace hetstruct::distributions
