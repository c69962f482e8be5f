// Wilson's closed forms for the synchronous structure with uniform laws (Section 4.1, Eq. 1-7),
// and the expected maximum of independent variables of any laws by quadrature, which gives exact
// synchronous expectations for any laws and the asynchronous expectation for normal laws.
// Nothing here samples.
#pragma once

#include <string>
#include <vector>

#include "distributions/law.h"

namespace hetstruct::bounds {

// Z = max of m variables u(0,a) and n-m variables u(0,1), independent; 0 < a <= 1.
double uniform_max_cdf(int n, int m, double a, double z);  // Eq. 1: G(z) = P(Z < z)
double uniform_max_pdf(int n, int m, double a, double z);  // Eq. 2: g(z)
double uniform_max_mean(int n, int m, double a);           // Eq. 3: E(Z); any a > 0 (a > 1 by symmetry)
double uniform_max_mean_approx(int n, int m);              // Eq. 4: (n-m)/(n-m+1)
double homogeneous_uniform_max_mean(int n);                // Eq. 5: n/(n+1)
double synchronous_uniform_mean(int n, int m, double a, int levels);  // Eq. 6: p E(Z)
double synchronous_uniform_mean_approx(int n, int m, int levels);     // Eq. 7: p (n-m)/(n-m+1)

// E[max(X_1..X_k)] for independent X_i of any laws: lo + integral over [lo, hi] of
// 1 - prod F_i(x), by adaptive Gauss-Kronrod quadrature split at the laws' breakpoints.
// Accurate to about 1e-10 relative.
double expected_max(const std::vector<distributions::Law>& laws);

// Synchronous structure, zero communication: levels * E[max of one level] (exact, any laws).
double synchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels);

// Asynchronous structure, zero communication: E[max over processors of the sum of `levels`
// task times]. Exact (up to the quadrature's ~1e-10) where every processor's sum has a known cdf:
// a (scaled) normal leaf, since a sum of normals is normal ("normal_exact"); a gamma or
// exponential leaf, whose sum is a gamma ("gamma_exact"); a uniform leaf (UniformSumCdf) or a
// mixture of uniform, normal, constant, exponential and gamma leaves (LawSumCdf), each by
// inverting its characteristic function ("cf_inversion"); or all constant ("constant"). The
// method names the least elementary one used. Otherwise (truncated normal, lognormal, Weibull or
// empirical leaves, or a mixture whose sum's characteristic function decays too slowly: few
// levels with an atom or a jump) the normal approximation of each sum (Wilson's [7]), flagged as
// such ("normal_approx"; for a uniform it was off by up to 8e-4 per unit at p = 1000, for a
// uniform-normal mixture at p = 10 by 15 standard errors of 20,000 replications), except at one
// level, where the sums are the laws: expected_max ("quadrature").
struct AsynchronousMean {
  double value;
  bool exact;
  std::string method;  // normal_exact, gamma_exact, cf_inversion, constant (every law constant), quadrature, normal_approx
};
AsynchronousMean asynchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels);

// P(V_1 + ... + V_terms <= u) for independent V_i ~ u(-1,1): the Irwin-Hall formula up to 12
// terms, beyond by inverting the sum's characteristic function (Gil-Pelaez) on fixed
// Gauss-Legendre nodes set up once; about 1e-13 absolute.
class UniformSumCdf {
 public:
  explicit UniformSumCdf(int terms);
  double operator()(double u) const;

 private:
  int terms_;
  std::vector<double> node_, weight_;
};

// P(S <= x) for S the sum of `terms` independent uniforms on [centre - half_width, centre +
// half_width] (UniformSumCdf after a change of unit).
double uniform_sum_cdf(int terms, double centre, double half_width, double x);

// P(S <= x) for S the sum of `terms` independent draws of `law`, a law whose characteristic
// function is known in closed form: mixtures and scalings of uniform, normal, constant,
// exponential and gamma leaves. Gil-Pelaez on the standardised sum (S - mean) / sd:
// F = 1/2 + (1/pi) integral_0^inf (sin(su) Re psi(s) - cos(su) Im psi(s)) / s ds, psi(s) =
// (e^{-is mu/sd} phi(s/sd))^terms, on fixed Gauss-Legendre panels up to where |psi| stays below
// 1e-17 (found by a scan), the weights set up once: an evaluation is a sine and a cosine a node.
// usable() is false, and the caller must fall back, for another leaf or when |psi| has not fallen
// below 1e-17 by s = 60 (an atom, or few terms of a law with a jump: the integral would converge
// too slowly). About 1e-12 absolute, checked against the exact cdfs of uniform and gamma sums.
class LawSumCdf {
 public:
  LawSumCdf(const distributions::Law& law, int terms);
  bool usable() const { return usable_; }
  double mean() const { return mean_; }
  double sd() const { return sd_; }
  double operator()(double x) const;

 private:
  bool usable_ = false;
  double mean_ = 0.0, sd_ = 0.0;
  std::vector<double> node_, sin_weight_, cos_weight_;
};

}  // namespace hetstruct::bounds
