// Nearest-neighbour structure with communication (Wilson 5.1, Figure 3; wilson-semantics.md).
#include <algorithm>
#include <vector>

#include "distributions/input_error.h"
#include "engine/communication.h"

namespace hetstruct::engine {

namespace {

// sequential: the rule that reproduces the C = 0 tables (1, 2), with each exchange costing 2C.
// After task k each processor exchanges first with its left, then with its right neighbour; an
// exchange needs both sides free and occupies both for 2C:
//   e(0,1) = max(f_0, f_1) + 2C,  e(i,i+1) = max(e(i-1,i), f_{i+1}) + 2C,
// processor i < n-1 starts task k+1 at e(i,i+1), processor n-1 at e(n-2,n-1). No exchanges after
// the last task. At C = 0 it is the sequential zero-communication recurrence, bit for bit. It is
// 6-7% above Tables 4 and 7 (wilson-semantics.md): kept to compare against.
class Sequential final : public Protocol {
 public:
  explicit Sequential(const CommSetup& setup) : setup_(setup), start_(setup.width), finish_(setup.width) {}

  double run(TaskTimes& times) override {
    const int n = setup_.width;
    const double exchange_cost = 2.0 * setup_.comm_cost;
    std::fill(start_.begin(), start_.end(), 0.0);
    for (int k = 0;; ++k) {
      for (int i = 0; i < n; ++i) finish_[i] = start_[i] + times.next(i);
      if (k + 1 == setup_.levels) break;
      if (n == 1) {
        start_[0] = finish_[0];
        continue;
      }
      double exchange = finish_[0];
      for (int i = 0; i + 1 < n; ++i) {
        exchange = std::max(exchange, finish_[i + 1]) + exchange_cost;
        start_[i] = exchange;
      }
      start_[n - 1] = exchange;
    }
    return *std::max_element(finish_.begin(), finish_.end());
  }

 private:
  CommSetup setup_;
  std::vector<double> start_, finish_;
};

}  // namespace

std::vector<std::string> neighbor_protocol_names() { return {"sequential"}; }

std::unique_ptr<Protocol> make_neighbor_protocol(const std::string& name, const CommSetup& setup) {
  if (name == "sequential") return std::make_unique<Sequential>(setup);
  throw InputError("--protocol", "unknown nearest-neighbour protocol '" + name + "'");
}

}  // namespace hetstruct::engine
