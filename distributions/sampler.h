// Drawing task times: a Law compiled into a flat sampler over Boost.Random distributions.
//
// Works with any uniform random bit generator. A scaled leaf a*X draws X and multiplies by a, so
// X and a*X consume the same variates from the same stream (common random numbers).
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <boost/random/weibull_distribution.hpp>

#include "distributions/law.h"
#include "distributions/ziggurat.h"

namespace hetstruct::distributions {

// Monomorphic draws of one scaled leaf, for hot loops where every processor has a leaf of the
// same kind (Wilson's setting): no dispatch per draw, so the loop inlines the distribution.
struct UniformDraw {
  boost::random::uniform_real_distribution<double> dist;
  double scale;
  template <class Engine>
  double operator()(Engine& eng) const { return scale * dist(eng); }
};

struct NormalDraw {
  boost::random::normal_distribution<double> dist;
  double scale;
  template <class Engine>
  double operator()(Engine& eng) const { return scale * normal_variate(dist, eng); }
};

class Sampler {
 public:
  Sampler() : Sampler(Law::constant(0.0)) {}
  explicit Sampler(const Law& law) {
    double cumulative = 0.0;
    for (const auto& c : law.components()) {
      cumulative += c.weight;
      parts_.push_back(Part(c.leaf, cumulative));
    }
    parts_.back().cumulative_weight = 1.0;  // guard against rounding in the weights' sum
  }

  // The leaf kind of a single-leaf law; nothing for a mixture.
  std::optional<LeafKind> single_kind() const {
    if (parts_.size() != 1) return std::nullopt;
    return parts_[0].kind;
  }
  // Only for single_kind() == uniform / normal respectively.
  UniformDraw uniform_draw() const { return {parts_[0].uniform, parts_[0].scale}; }
  NormalDraw normal_draw() const { return {parts_[0].normal, parts_[0].scale}; }

  // The antithetic twin (engine/estimators/estimators.h): the same variates with every draw reflected about
  // its component's mean, x -> 2*mean - x: u(lo,hi)*s draws as u(-hi,-lo)*(-s), n(mu,v)*s as
  // n(-mu,v)*(-s), a constant stays; a mixture keeps its choice of component. Each map preserves
  // the law, so the twin's makespan has the makespan's law. Nothing for the other laws.
  std::optional<Sampler> reflected() const {
    Sampler twin = *this;
    for (auto& p : twin.parts_) {
      switch (p.kind) {
        case LeafKind::uniform:
          p.uniform = boost::random::uniform_real_distribution<double>(-p.uniform.b(), -p.uniform.a());
          p.scale = -p.scale;
          break;
        case LeafKind::normal:
          p.normal = boost::random::normal_distribution<double>(-p.normal.mean(), p.normal.sigma());
          p.scale = -p.scale;
          break;
        case LeafKind::constant: break;
        // No reflection about the mean preserves a truncated or a skewed law (the twin would not
        // have the makespan's law); an inverse-cdf twin (u -> 1-u) would need inversion sampling.
        case LeafKind::truncated_normal:
        case LeafKind::exponential:
        case LeafKind::gamma:
        case LeafKind::lognormal:
        case LeafKind::weibull:
        case LeafKind::empirical: return std::nullopt;
      }
    }
    return twin;
  }

  template <class Engine>
  double operator()(Engine& eng) const {
    if (parts_.size() == 1) return parts_[0].draw(eng);
    const double u = boost::random::uniform_01<double>()(eng);
    for (const auto& p : parts_)
      if (u < p.cumulative_weight) return p.draw(eng);
    return parts_.back().draw(eng);
  }

 private:
  struct Part {
    Part(const Leaf& leaf, double cumulative)
        : kind(leaf.kind),
          scale(leaf.scale),
          cumulative_weight(cumulative),
          uniform(leaf.kind == LeafKind::uniform ? leaf.first : 0.0,
                  leaf.kind == LeafKind::uniform ? leaf.second : 1.0),
          normal(leaf.kind == LeafKind::normal || leaf.kind == LeafKind::truncated_normal ? leaf.first : 0.0,
                 leaf.kind == LeafKind::normal || leaf.kind == LeafKind::truncated_normal
                     ? std::sqrt(leaf.second)
                     : 1.0),
          value(leaf.first) {
      if (kind == LeafKind::truncated_normal)
        above_zero = 0.5 * std::erfc(-leaf.first / std::sqrt(2.0 * leaf.second));  // P(X >= 0), from its own tail
      // The other kinds' Boost distributions, built only for their own kind.
      switch (kind) {
        case LeafKind::exponential: exponential = decltype(exponential)(1.0 / leaf.first); break;
        case LeafKind::gamma: gamma = decltype(gamma)(leaf.first, leaf.second); break;
        case LeafKind::lognormal: lognormal = decltype(lognormal)(leaf.first, leaf.second); break;
        case LeafKind::weibull: weibull = decltype(weibull)(leaf.first, leaf.second); break;
        case LeafKind::empirical:
          data = leaf.data;
          index = decltype(index)(0, leaf.data->sorted.size() - 1);
          break;
        default: break;
      }
    }

    template <class Engine>
    double draw(Engine& eng) const {
      switch (kind) {
        case LeafKind::uniform: return scale * uniform(eng);
        case LeafKind::normal: return scale * normal_variate(normal, eng);
        case LeafKind::constant: return scale * value;
        case LeafKind::truncated_normal: return scale * draw_truncated(eng);
        case LeafKind::exponential:
        case LeafKind::gamma:
        case LeafKind::lognormal:
        case LeafKind::weibull:
        case LeafKind::empirical: return scale * draw_measured(eng);
      }
      return 0.0;
    }

    // Out of line, so that draw() stays small enough to inline into the loops of the other kinds.
    template <class Engine>
    [[gnu::noinline]] double draw_measured(Engine& eng) const {
      switch (kind) {
        case LeafKind::exponential: return exponential(eng);
        case LeafKind::gamma: return gamma(eng);
        case LeafKind::lognormal: return lognormal(eng);
        case LeafKind::weibull: return weibull(eng);
        case LeafKind::empirical: return data->sorted[index(eng)];
        default: return 0.0;
      }
    }

    // Rejection while it accepts at least half the draws; otherwise inversion in the upper tail,
    // Z = -Phi^-1(U P(Z > z0)), which keeps full precision however little mass lies above zero.
    template <class Engine>
    double draw_truncated(Engine& eng) const {
      if (above_zero >= 0.5) {
        for (;;) {
          const double x = normal_variate(normal, eng);
          if (x >= 0.0) return x;
        }
      }
      const double u = boost::random::uniform_01<double>()(eng);
      const double z = -boost::math::quantile(boost::math::normal_distribution<double>(), std::max(u, 1e-300) * above_zero);
      return std::max(0.0, normal.mean() + normal.sigma() * z);
    }

    LeafKind kind;
    double scale;
    double cumulative_weight;
    boost::random::uniform_real_distribution<double> uniform;
    boost::random::normal_distribution<double> normal;
    double value;
    double above_zero = 1.0;
    // Boost's operator() is non-const for these, though they keep no state between draws.
    mutable boost::random::exponential_distribution<double> exponential;
    mutable boost::random::gamma_distribution<double> gamma;
    mutable boost::random::lognormal_distribution<double> lognormal;
    boost::random::weibull_distribution<double> weibull;
    boost::random::uniform_int_distribution<std::size_t> index;  // empirical: which value
    std::shared_ptr<const EmpiricalData> data;
  };

  std::vector<Part> parts_;
};

}  // namespace hetstruct::distributions
