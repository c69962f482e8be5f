// The Heterogeneous BSP cost model: the machine description, the cost of one superstep, and the
// closed forms of the built-in HBSP algorithms. Nothing here samples.
//
// Sources (the papers, by title):
//   HBSP^1  Williams & Parsons 2001, "Practical experience using a computational model for the
//           design of heterogeneous distributed software", Section 3: a superstep costs
//           w + g*h + L with h = max_j r_j*h_j (Eq. 1); scatter and one-/two-phase broadcast
//           (Section 3.2); the 10-machine cluster of Tables 2-5.
//   HBSP    Williams & Parsons 2000, "The heterogeneous bulk synchronous parallel model", Eq. 1:
//           max_j w_ij/c_j + max_j g_j*h_ij + L; prefix sums (Eq. 2), matrix multiplication
//           (Eq. 3), randomized sample sort (Eq. 4).
//
// One machine serves both forms. Processor j has a name, r_j >= 1 (how many times slower than the
// fastest it injects a packet) and a speed (a benchmark index, or HBSP^1's c_j): only ratios of
// speeds matter. For the first p processors:
//   share c_j (HBSP^1)        = speed_j / sum_{k<p} speed_k   (the fraction of the data P_j holds)
//   relative speed c_j (HBSP) = speed_j / min_{k<p} speed_k   (the slowest is 1), c = sum of them
//   gap g_j (HBSP)            = g * r_j
// so the communication terms of the two forms are the same number, g*max_j r_j*h_j, and they differ
// only in the work term: HBSP^1's w = max_j w_j (work given as time) or HBSP's max_j w_j/c_j (work
// given in units of the slowest processor's time).
//
// The machine file (documented in bounds/data/README.md, example bounds/data/hbsp-cluster-2001.txt):
//   # comment (also after a line's content)
//   g 0.196                          time per packet of the fastest processor        (required)
//   L 37000                          L for any p that has no line of its own          (optional)
//   L p=2 9000                       L for exactly p processors                       (optional)
//   unit time=us packet=byte         names of the units, for documentation            (optional)
//   processor gromit r=1.00 index=4.89
//   processor chromus r=4.08 c=0.133  (every processor gives index= or every one gives c=)
// Processors are listed in the order the machine uses them: a run on p processors uses the first p.
//
// Ranges (machine, program and trace files, and the algorithms' n, item size and oversampling):
// every number is at most max_value = 1e30 in magnitude, and the ones that must be > 0 (g, index=
// or c=, a trace's r) at least min_positive = 1e-30; the readers refuse others naming the file,
// line, field and limit. So a program CSV's costs stay far below overflow (w + g*h + L <= 1e91 a
// superstep), shares and relative speeds lie within 1e-60 and 1e60, and a ratio of two costs
// (hbsp predict) is finite. A cost that still overflows (a generated program of huge n) is refused
// by closed_form, paper_form and the replays (InputError): no result is inf or NaN.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hetstruct::bounds::hbsp {

struct Processor {
  std::string name;
  double r = 1.0;      // communication slowness relative to the fastest processor, >= 1
  double speed = 1.0;  // benchmark index or c_j, > 0: only ratios matter
};

struct Machine {
  double g = 0.0;                        // time per packet of the fastest processor
  std::optional<double> latency_any;     // L for a p without its own entry
  std::map<int, double> latency_by_p;    // L for exactly p processors (HBSP^1 Table 4)
  std::vector<Processor> processors;     // in the order of use
  std::string time_unit, packet_unit;    // documentation only
  std::string speed_field = "index";     // "index" or "c": how the file gave the speeds
  std::string source;                    // file name, for messages

  int size() const { return static_cast<int>(processors.size()); }
  // Throws InputError unless 1 <= p <= size().
  void check_p(int p, const std::string& where = "processors") const;
  // L for p processors; throws InputError when the file gives none.
  double latency(int p) const;
  // The processor with this name, or -1.
  int index_of(const std::string& name) const;
  // A processor named or numbered (0-based) by `text` among the first p; throws InputError.
  int resolve(const std::string& text, int p, const std::string& where) const;

  double share(int j, int p) const;           // HBSP^1 c_j: speed_j / sum_{k<p} speed_k
  double relative_speed(int j, int p) const;  // HBSP c_j: speed_j / min_{k<p} speed_k
  double total_relative_speed(int p) const;   // HBSP c = sum_{k<p} relative speeds
  double r_max(int p) const;                  // r of the slowest communicator (the papers' r_s)
  // The fastest (largest speed; ties: smaller r, then lower index) and the slowest (smallest
  // speed; ties: larger r, then lower index) of the first p. On the shipped cluster the fastest is
  // gromit (r = 1) and the slowest chromus (r = 4.08), as in the paper.
  int fastest(int p) const;
  int slowest(int p) const;
};

// Parses a machine file; `source` names it in messages ("file:line: field 'r': ...").
Machine parse_machine(std::istream& in, const std::string& source);
Machine load_machine(const std::string& path);

// Comments a machine file carries beside its content (parse_machine skips them).
struct MachineComments {
  std::vector<std::string> header;      // written first, one "# " line each
  std::vector<std::string> processors;  // one per processor, after its line (empty or missing: none)
};
// The machine file of m, processor lines in columns: parse_machine reads it back to the same
// machine (every number in its shortest exact text), all but `source`, when m is one it accepts
// (hbsp probe writes its measurements with it). Throws InputError naming
// the machine when a name or unit cannot be written (empty, or with whitespace, '#' or '=').
std::string machine_text(const Machine& m, const MachineComments& comments = {});

inline constexpr double kilobyte = 1024.0;  // the paper's KB: binary kilobytes (not stated; see docs/hbsp.md)
inline constexpr double max_value = 1e30;      // the largest magnitude of a number in HBSP inputs
inline constexpr double min_positive = 1e-30;  // the smallest value of one that must be > 0

// A number in the field `field` of `where` (file:line): finite, at most max_value in magnitude,
// whole text consumed; throws InputError naming both and the limit. Shared by the machine, trace
// and program parsers.
double parse_number(const std::string& where, const std::string& field, const std::string& text);
// A size: "1000" (items), or bytes with a unit, "4096B", "100KB", "2MB" (binary units), as items of
// `item_size` packets; units only where `bytes_allowed` (matrix multiplication's n is an order).
// InputError naming `where` otherwise.
double parse_size(const std::string& where, const std::string& text, double item_size, bool bytes_allowed);
// Splits a line at whitespace after removing a # comment.
std::vector<std::string> tokens(const std::string& line);

// ---- one superstep ---------------------------------------------------------------------------

enum class CostForm {
  hbsp1,  // HBSP^1 Eq. 1: max_j w_j + g*max_j r_j*h_j + L   (w_j is time)
  cj,     // HBSP Eq. 1:   max_j w_j/c_j + max_j g_j*h_j + L  (w_j in slowest-processor time)
};
CostForm parse_cost_form(const std::string& text);  // "hbsp1" | "cj"
const char* to_string(CostForm form);

struct SuperstepCost {
  double w = 0.0;   // work term
  double h = 0.0;   // the heterogeneous h-relation max_j r_j*h_j, h_j = max(sent_j, received_j)
  double gh = 0.0;  // g*h
  double L = 0.0;
  double total = 0.0;  // w + gh + L
  // The processor of the work maximum and of the h maximum: the lowest index among those within
  // a relative 1e-9 of it (ties up to rounding); -1 when the maximum is 0.
  int work_critical = -1;
  int comm_critical = -1;
};

// The cost of one superstep on the first p processors with the r_j in force `r` (p values);
// work, sent and received hold p values each (packets for sent and received).
SuperstepCost superstep_cost(const Machine& m, int p, CostForm form, std::span<const double> work,
                             std::span<const double> sent, std::span<const double> received,
                             std::span<const double> r);

// The same, with the machine's constants for p processors computed once (for replay loops).
class SuperstepCoster {
 public:
  SuperstepCoster(const Machine& m, int p, CostForm form);  // throws InputError when L(p) is missing
  SuperstepCost operator()(std::span<const double> work, std::span<const double> sent,
                           std::span<const double> received, std::span<const double> r) const;
  int p() const { return static_cast<int>(work_scale_.size()); }

 private:
  double g_, L_;
  std::vector<double> work_scale_;  // divisor of w_j: 1 (hbsp1) or c_j (cj)
};

// ---- the built-in algorithms -----------------------------------------------------------------

enum class Algorithm { scatter, broadcast_one_phase, broadcast_two_phase, prefix_sums, matrix_multiplication, sample_sort };
// scatter | broadcast1 | broadcast2 | prefix | matmul | samplesort
Algorithm parse_algorithm(const std::string& text);
const char* to_string(Algorithm a);
int superstep_count(Algorithm a, int p);
// The form in which a program gives its work (the automatic choice): cj for prefix sums, matrix
// multiplication and sample sort, whose work counts elementary operations of the slowest
// processor; hbsp1 for scatter and the broadcasts (no work) and for a program CSV (std::nullopt),
// which gives work as time.
CostForm auto_cost_form(std::optional<Algorithm> a);

struct RootChoice {
  enum Kind { fastest, slowest, given } kind = fastest;
  int index = 0;  // the processor, for kind == given
};
enum class Workload {
  balanced,  // P_j holds c_j*n (its share of the speeds)
  equal,     // P_j holds n/p
};
// How a processor's messages to itself count. The papers' closed forms count them (the root of a
// scatter "sends n", every processor "receives n" in the second broadcast phase: "we use n to
// simplify"); the paper's implementation does not send them (HBSP^1 Section 5.1).
enum class Accounting { paper, exact };

struct AlgorithmParams {
  Algorithm algorithm = Algorithm::scatter;
  int p = 2;
  double n = 0.0;           // items (matmul: the matrix order)
  double item_size = 1.0;   // packets per item (bytes per integer on the shipped cluster: 4)
  RootChoice root;          // P_f in the papers
  Workload workload = Workload::balanced;
  Accounting accounting = Accounting::paper;
  double oversampling = 32.0;  // sample sort: keys sampled per processor (the paper's r)
  CostForm form = CostForm::cj;
};

RootChoice parse_root(const Machine& m, int p, const std::string& text);  // fastest | slowest | index | name
Workload parse_workload(const std::string& text);                         // balanced | equal
Accounting parse_accounting(const std::string& text);                     // paper | exact
const char* to_string(Workload w);
const char* to_string(Accounting a);

// Throws InputError when the parameters do not fit the machine (p, n, item size, root, ...). The
// library's errors name a parameter in the papers' words: "processors", "size", "item size", "root",
// "oversampling", "algorithm", "workload", "accounting", "cost form" (the CLI maps them to options).
void validate(const Machine& m, const AlgorithmParams& a);
int root_index(const Machine& m, const AlgorithmParams& a);
// The fraction of the data each of the first p processors holds.
std::vector<double> shares(const Machine& m, int p, Workload w);

// The total cost of the algorithm under the model, from its h-relations written out superstep by
// superstep (any root, workload, accounting and form). Computation, which the papers write as O()
// terms, costs one unit of work per elementary operation (see bounds/data/README.md):
//   scatter     g*max{r_root*S, max_{j!=root} r_j*f_j*N} + L,  S = N (paper) or (1-f_root)*N (exact)
//   broadcast1  g*max{r_root*k*N, max_{j!=root} r_j*N} + L,     k = p (paper) or p-1 (exact)
//   broadcast2  scatter + g*max_j r_j*max(k*f_j, 1)*N + L (paper)
//               scatter + g*max_j r_j*max((p-1)*f_j, 1-f_j)*N + L (exact)
//   prefix      2 supersteps of W(f_j n) around W_root(p), 2*g*max{max_{j!=root} r_j, k*r_root}*s + 3L
//   matmul      p*W(f_j*n^3/p) + g*r_max*n^2*s + p*L
//   samplesort  W(o) + W_root(p*o*lg(p*o)) + W(f_j n) + W(f_j n lg n)
//               + g*max{max_{j!=root} r_j*o, k*r_root*o}*s + g*max{max_{j!=root} r_j, k*r_root}*(p-1)*s
//               + g*max_j r_j*e_j*N + 4L,  e_j = f_j (paper) or f_j*(1-f_j) (exact)
// with N = n*item_size packets, s = item_size, f_j the shares, o the oversampling, W(x) = max_j x_j
// (hbsp1) or max_j x_j/c_j (cj), W_root(x) = x or x/c_root.
double closed_form(const Machine& m, const AlgorithmParams& a);

// The paper's own final expression, in the setting the paper states (root = fastest, messages to
// self counted, computation in the HBSP c_j form with unit constants; the parameters root,
// workload, accounting and form are ignored):
//   scatter     g*N + L                      (HBSP^1 3.2.1; assumes r_j*c_j <= 1)
//   broadcast1  g*N*p + L                    (HBSP^1 3.2.2; assumes r_s <= p)
//   broadcast2  g*N*(1 + r_s) + 2L           (HBSP^1 3.2.2; assumes r_s <= p and equal shares)
//   prefix      2n/c + p/c_f + 2*max{g_s, g_f*p}*s + 3L               (HBSP Eq. 2)
//   matmul      n^3/c + g_s*n^2*s + p*L                               (HBSP Eq. 3)
//   samplesort  o + p*o*lg(p*o)/c_f + n/c + n*lg(n)/c + X*(o + p - 1)*s + max_i g_i*(c_i/c)*N + 4L,
//               X = p*g_f if g_s <= p*g_f, else g_s                   (HBSP Eq. 4)
// where r_s = max_j r_j, g_s = g*r_s, g_f = g*r_f. It equals closed_form() exactly when the
// paper's assumptions hold.
double paper_form(const Machine& m, const AlgorithmParams& a);

}  // namespace hetstruct::bounds::hbsp
