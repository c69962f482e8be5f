// Synchronous structure with communication (Wilson 5.1, Figure 2; wilson-semantics.md).
#include <algorithm>
#include <limits>

#include "distributions/input_error.h"
#include "engine/communication.h"

namespace hetstruct::engine {

namespace {

// coordinator: the paper's stated policy and its upper bound (Eq. 11). Per level, a coordinator
// sends the n initiations one at a time in processor order (fast processors first, as they are
// processors 0..m-1), so the j-th initiated task starts C*j after the level starts; completions
// are received one at a time in initiation order:
//   d_1 = s_1 + X_1 + C,  d_j = max(d_{j-1}, s_j + X_j) + C,  the level ends at d_n.
// Per level this is exactly (n+1)C + max X. At C = 0 it is the zero-communication recurrence
// (sum over levels of the level's max), bit for bit.
class Coordinator final : public Protocol {
 public:
  explicit Coordinator(const CommSetup& setup) : setup_(setup) {}

  double run(TaskTimes& times) override {
    const double c = setup_.comm_cost;
    double level_start = 0.0;
    for (int k = 0; k < setup_.levels; ++k) {
      double done = -std::numeric_limits<double>::infinity();  // algebraic: never clipped
      for (int j = 0; j < setup_.width; ++j) {
        const double started = level_start + c * (j + 1);
        done = std::max(done, started + times.next(j)) + c;
      }
      level_start = done;
    }
    return level_start;
  }

 private:
  CommSetup setup_;
};

}  // namespace

std::vector<std::string> synchronous_protocol_names() { return {"coordinator"}; }

std::unique_ptr<Protocol> make_synchronous_protocol(const std::string& name, const CommSetup& setup) {
  if (name == "coordinator") return std::make_unique<Coordinator>(setup);
  throw InputError("--protocol", "unknown synchronous protocol '" + name + "'");
}

}  // namespace hetstruct::engine
