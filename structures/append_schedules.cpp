// ETF, min-min, max-min, sufferage, MCT, MET and OLB (structures/append_schedules.h): the state of
// an append schedule (each processor's availability, each placed task's processor and finish) and
// each algorithm's choice of the next task and processor. Values are equal within 1e-9 relative;
// ties go to the task the file lists first and the processor of lowest index (scans in index order
// that replace only on a strictly better value).
#include "structures/append_schedules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "distributions/input_error.h"

namespace hetstruct::structures {

namespace {

bool equal(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }
bool smaller(double a, double b) { return a < b && !equal(a, b); }
bool larger(double a, double b) { return smaller(b, a); }

constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

class AppendState {
 public:
  AppendState(const SchedulingProblem& problem, ScheduleAlgorithm algorithm)
      : problem_(problem), avail_(problem.processors, 0.0), pred_(problem.cost.size()), succ_(problem.cost.size()),
        waiting_(problem.cost.size()) {
    const auto one = [](int k) { return k == 1; };
    if (!std::all_of(problem.cores.begin(), problem.cores.end(), one) ||
        !std::all_of(problem.task_cores.begin(), problem.task_cores.end(), one))
      throw InputError("processor_cores", std::string("the ") + to_string(algorithm) +
                                              " schedule appends tasks to processors of one core, each task on one core",
                       "use heft, cpop or peft with processors or tasks of several cores");
    for (const auto& e : problem.edges) {
      pred_[e.to].emplace_back(e.from, e.comm);
      succ_[e.from].push_back(e.to);
    }
    s_.algorithm = algorithm;
    s_.tasks.resize(problem.cost.size());
    s_.order.resize(problem.processors);
    s_.processor_cores.assign(problem.processors, 1);
    s_.upward_rank = upward_ranks(problem);
    for (std::size_t v = 0; v < waiting_.size(); ++v)
      if ((waiting_[v] = pred_[v].size()) == 0) ready_.push_back(v);
  }

  std::size_t processors() const { return problem_.processors; }
  double w(std::size_t i, std::size_t p) const { return problem_.cost[i][p]; }
  double avail(std::size_t p) const { return avail_[p]; }
  double rank(std::size_t i) const { return s_.upward_rank[i]; }
  // max(avail(p), DRT(i,p)) and CT(i,p).
  double start(std::size_t i, std::size_t p) const {
    double t = avail_[p];
    for (const auto& [k, c] : pred_[i])
      t = std::max(t, s_.tasks[k].finish + (static_cast<std::size_t>(s_.tasks[k].processor) == p ? 0.0 : c));
    return t;
  }
  double completion(std::size_t i, std::size_t p) const { return start(i, p) + w(i, p); }
  // The processor of least value(p), the lowest index of equal ones.
  template <class Value>
  std::size_t least(Value value) const {
    std::size_t best = 0;
    for (std::size_t p = 1; p < processors(); ++p)
      if (smaller(value(p), value(best))) best = p;
    return best;
  }

  // The ready tasks not yet taken, in the file's order; take() hands them over (a round's batch).
  const std::vector<std::size_t>& ready() {
    std::sort(ready_.begin(), ready_.end());
    return ready_;
  }
  std::vector<std::size_t> take() {
    ready();
    return std::exchange(ready_, {});
  }

  void place(std::size_t i, std::size_t p) {
    const double t = start(i, p);
    ready_.erase(std::remove(ready_.begin(), ready_.end(), i), ready_.end());
    s_.tasks[i] = {static_cast<int>(p), t, t + w(i, p), 0};
    avail_[p] = t + w(i, p);
    s_.order[p].push_back(i);
    s_.makespan = std::max(s_.makespan, avail_[p]);
    for (const std::size_t j : succ_[i])
      if (--waiting_[j] == 0) ready_.push_back(j);
  }
  Schedule result() const { return s_; }

 private:
  const SchedulingProblem& problem_;
  Schedule s_;
  std::vector<double> avail_;
  std::vector<std::vector<std::pair<std::size_t, double>>> pred_;
  std::vector<std::vector<std::size_t>> succ_;
  std::vector<std::size_t> waiting_, ready_;
};

// MCT, MET, OLB: ready tasks in the order of rank_u (the largest first, ties to the file's first),
// each on the processor `choose` names.
template <class Choose>
Schedule by_rank(const SchedulingProblem& problem, ScheduleAlgorithm algorithm, Choose choose) {
  AppendState st(problem, algorithm);
  while (!st.ready().empty()) {
    std::size_t i = none;
    for (const std::size_t v : st.ready())
      if (i == none || larger(st.rank(v), st.rank(i))) i = v;
    st.place(i, choose(st, i));
  }
  return st.result();
}

// min-min, max-min, sufferage: rounds of the tasks ready when the round starts; in each, the task
// `better` prefers (its best processor, its best completion m and its second best), until the
// round's batch is empty.
struct Candidate {
  std::size_t task, best;
  double m, second;
};

template <class Better>
Schedule by_rounds(const SchedulingProblem& problem, ScheduleAlgorithm algorithm, Better better) {
  AppendState st(problem, algorithm);
  while (!st.ready().empty()) {
    std::vector<std::size_t> batch = st.take();
    while (!batch.empty()) {
      Candidate chosen{none, 0, 0.0, 0.0};
      for (const std::size_t i : batch) {
        Candidate c{i, st.least([&](std::size_t p) { return st.completion(i, p); }), 0.0,
                    std::numeric_limits<double>::infinity()};
        c.m = st.completion(i, c.best);
        for (std::size_t q = 0; q < st.processors(); ++q)
          if (q != c.best) c.second = std::min(c.second, st.completion(i, q));
        if (chosen.task == none || better(c, chosen)) chosen = c;
      }
      st.place(chosen.task, chosen.best);
      batch.erase(std::find(batch.begin(), batch.end(), chosen.task));
    }
  }
  return st.result();
}

double suff(const Candidate& c) { return std::isinf(c.second) || equal(c.second, c.m) ? 0.0 : c.second - c.m; }

}  // namespace

Schedule etf(const SchedulingProblem& problem) {
  AppendState st(problem, ScheduleAlgorithm::etf);
  while (!st.ready().empty()) {
    std::size_t i = none, p = 0;
    double s = 0.0, f = 0.0;
    for (const std::size_t v : st.ready())
      for (std::size_t q = 0; q < st.processors(); ++q) {
        const double sv = st.start(v, q), fv = sv + st.w(v, q);
        const bool better = i == none || smaller(sv, s) ||
                            (equal(sv, s) && (larger(st.rank(v), st.rank(i)) || (equal(st.rank(v), st.rank(i)) && smaller(fv, f))));
        if (better) std::tie(i, p, s, f) = std::tuple(v, q, sv, fv);
      }
    st.place(i, p);
  }
  return st.result();
}

Schedule min_min(const SchedulingProblem& problem) {
  return by_rounds(problem, ScheduleAlgorithm::min_min, [](const Candidate& c, const Candidate& b) { return smaller(c.m, b.m); });
}

Schedule max_min(const SchedulingProblem& problem) {
  return by_rounds(problem, ScheduleAlgorithm::max_min, [](const Candidate& c, const Candidate& b) { return larger(c.m, b.m); });
}

Schedule sufferage(const SchedulingProblem& problem) {
  return by_rounds(problem, ScheduleAlgorithm::sufferage, [](const Candidate& c, const Candidate& b) { return larger(suff(c), suff(b)); });
}

Schedule mct(const SchedulingProblem& problem) {
  return by_rank(problem, ScheduleAlgorithm::mct,
                 [](const AppendState& st, std::size_t i) { return st.least([&](std::size_t p) { return st.completion(i, p); }); });
}

Schedule met(const SchedulingProblem& problem) {
  return by_rank(problem, ScheduleAlgorithm::met,
                 [](const AppendState& st, std::size_t i) { return st.least([&](std::size_t p) { return st.w(i, p); }); });
}

Schedule olb(const SchedulingProblem& problem) {
  return by_rank(problem, ScheduleAlgorithm::olb,
                 [](const AppendState& st, std::size_t) { return st.least([&](std::size_t p) { return st.avail(p); }); });
}

}  // namespace hetstruct::structures
