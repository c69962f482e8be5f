// The protocols as they were before issue 11 made them faster, kept verbatim (only renamed into
// this file): hetstruct_bench times them beside the current ones in the same run, and
// tests/reference_protocol_test.cpp holds the current ones equal to them bit for bit. They are not
// offered to users (reference_protocols.h); the rules they implement
// are documented beside the current implementations (neighbor.cpp).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "tests/reference/reference_protocols.h"

namespace hetstruct::engine {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// ---- Nearest neighbour: event-commit and event-available (neighbor.cpp at e4ac172) ---------------
// One tournament tree of pending events over all processors, the task times through
// TaskTimes::next (the general Sampler).
class EventCommit final : public Protocol {
 public:
  enum class Key { task_finish, availability };

  EventCommit(const CommSetup& setup, Key key)
      : key_(key),
        n_(setup.width),
        levels_(setup.levels),
        exchange_cost_(2.0 * setup.comm_cost),
        finish_(n_),
        free_(n_),
        busy_until_(n_),
        task_(n_),
        state_(n_),
        partner_(n_),
        need_left_(n_),
        need_right_(n_) {
    while (leaves_ < n_) leaves_ *= 2;
    event_clock_.assign(leaves_, infinity);  // padding leaves never hold an event
    event_time_.assign(leaves_, infinity);
    event_rank_.assign(leaves_, 0);
    winner_.assign(2 * static_cast<std::size_t>(leaves_), 0);
  }

  double run(TaskTimes& times) override {
    clock_ = -infinity;
    std::fill(event_clock_.begin(), event_clock_.end(), infinity);
    for (int leaf = 0; leaf < leaves_; ++leaf) winner_[leaves_ + leaf] = leaf;
    for (int node = leaves_ - 1; node >= 1; --node)
      winner_[node] = earlier(winner_[2 * node], winner_[2 * node + 1]);
    for (int i = 0; i < n_; ++i) {
      task_[i] = -1;
      start_task(i, 0.0, times);
    }
    double makespan = -infinity;
    int done = 0;
    for (;;) {
      const int i = winner_[1];
      if (event_clock_[i] == infinity) break;  // no event left
      clock_ = event_clock_[i];
      const double t = event_time_[i];
      event_clock_[i] = infinity;  // consumed; processing i may schedule its next event
      if (state_[i] == computing) {
        if (task_[i] + 1 == levels_) {  // its last task: no exchange follows
          state_[i] = finished;
          makespan = std::max(makespan, t);
          ++done;
          update(i);
          continue;
        }
        need_left_[i] = i > 0;
        need_right_[i] = i + 1 < n_;
      }
      become_free(i, t, times);
      if (event_clock_[i] == infinity) update(i);  // it waits: no event of its own
    }
    if (done != n_) throw std::logic_error("event-commit: processors left waiting (deadlock)");
    return makespan;
  }

 private:
  enum State : unsigned char { computing, exchanging, waiting, finished };
  // Event order: the earliest clock first; at equal clocks ordinary events before early ones,
  // then the lower processor first (the rank encodes the last two).
  int earlier(int a, int b) const {
    const double ca = event_clock_[a], cb = event_clock_[b];
    return cb < ca || (cb == ca && event_rank_[b] < event_rank_[a]) ? b : a;
  }

  // Replays the tournament from processor i's leaf to the root.
  void update(int i) {
    for (int node = (leaves_ + i) / 2; node >= 1; node /= 2)
      winner_[node] = earlier(winner_[2 * node], winner_[2 * node + 1]);
  }

  // Processor i's one pending event: free at `time`, processed at max(time, clock).
  void schedule(double time, int i) {
    const bool early = time < clock_;
    event_clock_[i] = early ? clock_ : time;
    event_time_[i] = time;
    event_rank_[i] = early ? leaves_ + i : i;
    update(i);
  }

  void start_task(int i, double t, TaskTimes& times) {
    ++task_[i];
    finish_[i] = t + times.next(i);
    state_[i] = computing;
    schedule(finish_[i], i);
  }

  bool waits_for(int j, int i) const { return state_[j] == waiting && partner_[j] == i; }

  // The commitment key of i's needed neighbour j (see the rules above).
  double commit_key(int i, int j) const {
    if (task_[j] != task_[i]) return infinity;  // j has not started task k
    if (key_ == Key::task_finish) return finish_[j];
    switch (state_[j]) {
      case computing: return finish_[j];
      case exchanging: return busy_until_[j];
      default: return infinity;  // waiting for its other neighbour
    }
  }

  void become_free(int i, double t, TaskTimes& times) {
    const bool left = need_left_[i], right = need_right_[i];
    if (!left && !right) {
      start_task(i, t, times);
      return;
    }
    if (left && waits_for(i - 1, i)) {
      exchange(i, i - 1, t);
      return;
    }
    if (right && waits_for(i + 1, i)) {
      exchange(i, i + 1, t);
      return;
    }
    int partner;
    if (left && right)
      partner = commit_key(i, i + 1) < commit_key(i, i - 1) ? i + 1 : i - 1;  // ties: left
    else
      partner = left ? i - 1 : i + 1;
    state_[i] = waiting;
    partner_[i] = partner;
    free_[i] = t;
  }

  // Processor i, free at t, exchanges with neighbour j, which waits for it since free_[j].
  void exchange(int i, int j, double t) {
    const double end = std::max(t, free_[j]) + exchange_cost_;
    const int left = std::min(i, j), right = std::max(i, j);
    state_[left] = state_[right] = exchanging;
    busy_until_[left] = busy_until_[right] = end;
    need_right_[left] = false;
    need_left_[right] = false;
    schedule(end, left);
    schedule(end, right);
  }

  Key key_;
  int n_, levels_;
  double exchange_cost_;
  double clock_ = 0.0;
  std::vector<double> finish_;      // finish time of the current (or last finished) task
  std::vector<double> free_;        // when a waiting processor became free
  std::vector<double> busy_until_;  // when an exchanging processor's exchange ends
  std::vector<int> task_;           // current task index k (0-based), incremented at its start
  std::vector<State> state_;
  std::vector<int> partner_;        // the neighbour a waiting processor is committed to
  std::vector<unsigned char> need_left_, need_right_;
  // Pending events, at most one per processor, in a tournament tree over leaves_ >= n_ leaves:
  // winner_[1] is the next event's processor; node v's winner is the earlier of 2v's and 2v+1's.
  int leaves_ = 1;
  std::vector<double> event_clock_, event_time_;
  std::vector<int> event_rank_;
  std::vector<int> winner_;
};

}  // namespace

std::vector<std::string> reference_protocol_names(const std::string& structure) {
  if (structure == "nn") return {"event-available", "event-commit"};
  if (structure == "sync") {  // the initiator-collector family, from the registry
    std::vector<std::string> names;
    for (const auto& name : synchronous_protocol_names())
      if (name.rfind("initiator-collector", 0) == 0) names.push_back(name);
    return names;
  }
  return {};
}

std::unique_ptr<Protocol> make_reference_protocol(const std::string& structure, const std::string& name,
                                                  const CommSetup& setup) {
  if (structure == "nn" && name == "event-available")
    return std::make_unique<EventCommit>(setup, EventCommit::Key::availability);
  if (structure == "nn" && name == "event-commit")
    return std::make_unique<EventCommit>(setup, EventCommit::Key::task_finish);
  if (structure == "sync") return make_frozen_synchronous_protocol(name, setup);
  throw InputError("protocol", "no reference implementation of " + structure + " protocol '" + name + "'");
}

}  // namespace hetstruct::engine
