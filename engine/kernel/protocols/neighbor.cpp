// Nearest-neighbour structure with communication (Wilson 5.1, Figure 3, Eq. 12;
// docs/semantics.md, "Nearest neighbour with communication").
//
// Common to every protocol here: processors 0..n-1 sit on a line with no wrap-around, the fast
// ones (0..m-1) at the left end; processor i's k-th task uses the k-th variate of its stream
// (common random numbers with the zero-communication plans); task times are never clipped (normal
// laws give negative times); no exchange follows the last task p; the makespan is the latest
// finish of a last task.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "distributions/input_error.h"
#include "engine/kernel/communication.h"

namespace hetstruct::engine {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// event-commit: event-driven exchanges with a commitment rule, the semantics note's literal
// rule (the default is event-available, below, which shares these rules); it fits Tables 4 and 7 (docs/semantics.md, "Nearest neighbour with communication"). Fit over the 216
// cells of Tables 4 and 7, 1000 replications a cell: worst 1.08%, mean 0.28%; residuals are
// systematic (about +15 at (16,0), C = .15; -10 at uniform (4,1), C >= .20). Rules:
//  - Neighbours i and i+1 exchange after iteration k only when both have finished task k and
//    both are idle; an exchange occupies both for 2C; a processor exchanges with one partner at
//    a time. After task k a processor "needs" each neighbour it has not yet exchanged with after
//    task k (one neighbour at the ends of the line, two inside).
//  - A processor that becomes free (finished computing task k, or finished an exchange) and still
//    needs a neighbour that is waiting for it (idle and committed to it) exchanges with that
//    neighbour at once; left first if both wait.
//  - Otherwise it commits to the needed neighbour whose task k finishes first and waits for that
//    one only, even if the other one becomes free and waits for it in the meantime. The finish
//    time counts whether it is past (the neighbour is busy with, or waiting for, its other
//    exchange) or future (it is computing). A neighbour that has not started task k yet (it is
//    still busy with its exchanges after task k-1) counts as finishing at +infinity. Ties (equal
//    finish times, or both infinite) commit to the LEFT neighbour.
//  - When it needs no neighbour any more it starts task k+1 at once; after task p it stops.
// Neighbours can never be more than one iteration apart: neither can start task k+1 before they
// have exchanged after task k. So a needed neighbour is either at task k (computing it, or done
// with it and busy with or waiting for its other exchange) or still finishing its exchanges after
// task k-1 (and then it does not need this processor: they have exchanged after k-1).
//
// Discrete-event simulation: each processor has at most one pending event, "free at time t" (the
// end of a task or of an exchange), kept in an event queue (a flat array scanned at each pop up to
// 16 processors, a tournament tree beyond; the buffers are sized once, a replication allocates
// nothing; tests/reference/reference_protocols.cpp keeps the first implementation, which the tests hold
// this one equal to bit for bit). Events are processed in order of time, and at
// equal times in processor order (lower index first). A processor processed first at t sees a
// neighbour that is also free at t, not yet processed, as busy, and commits to it if it finishes
// first; the neighbour, processed next, finds it waiting and they exchange at t all the same.
// Setup needs levels >= 1 (the structure builders check it).
//
// Uniform and normal laws at C > 0 take a level sweep instead (EventCommit::level_by_level): each
// processor's one choice per level (which exchange first) follows from the order of its level's
// events and the choices before it, and a level's exchanges from the choices by two passes. The
// order is the event order's own, kept as a key (clock, early) beside each time, so negative times
// (early events) stay on the sweep; a level whose keys tie (the event order would break the tie by
// processor) runs event by event from its start events, and the sweep goes on from the starts
// that run records. Mixtures, busy times and C = 0 (every exchange's end ties with the event that
// began it) take the event loop for the whole replication.
//
// Negative task times (normal laws are not truncated): a task started at t may finish at t + X < t,
// earlier than events already processed. Time then runs on a monotone clock: such an event is
// processed at the current clock time, AFTER every event already pending at that time (so a
// processor never finishes a task before the instant at which it started it has been fully
// processed), while the arithmetic keeps its algebraic time t + X: an exchange starts at the
// later of the two partners' algebraic free times, max(t_i, t_j), and the makespan is the
// latest algebraic finish. No time is ever clipped. (Processing the early event at its own time
// instead, before the events pending at t, lets a processor decide on stale neighbour states; it
// raises the normal cells by about 1 unit and no longer reduces to the plain recurrence for n = 3
// at C = 0. Uniform laws never take this path.)
//
// At C = 0 an exchange takes no time and every start time is a max of finish times, but the rule
// is NOT the plain recurrence max(f_{i-1}, f_i, f_{i+1}) in general: a processor j whose neighbour
// i has not started task k yet commits to its other neighbour l, and if l then finishes task k
// after i does, i waits until f_l (a dependency two processors away). This takes two interior
// processors side by side, so for n <= 3 (with non-negative task times) event-commit at C = 0 is
// the plain recurrence bit for bit; for n >= 4 it is never below it and slightly above it on
// average: by 0.05% at (4,0) to 0.16% at (16,0) (about 0.4 and 1.3 time units at p = 1000), so
// Tables 4 and 7 tend to the plain recurrence as C -> 0, as the paper's do, up to that margin.
// With negative task times (normal laws) n = 3 differs from plain very rarely (mean 0.0014 at
// (3,0)). tests/neighbor_protocol_test.cpp checks all of it.
//
// event-available (the default): the same rules, but "the needed neighbour whose task k finishes
// first" read as the one that can exchange with it first, as far as is known: a neighbour
// computing task k at its finish time, one exchanging with its other neighbour at the end of that
// exchange, one waiting for its other neighbour (or not started on task k) at +infinity. Over all
// 216 cells of Tables 4 and 7 (1000 replications each) it is within 0.86% of every cell (mean
// 0.30%), where the literal event-commit reaches 1.08% (mean 0.28%); its residual falls with C,
// about +6 to -16 at (16,0). Both are kept: the default is the one within 1% everywhere.
// The pending events, at most one per processor. The next event is the one with the earliest
// clock; at equal clocks ordinary events before early ones, then the lower processor first. Two
// queues with one interface: pop() takes the next event out (processor -1: none left) and leaves
// its slot empty, set() gives a processor its event, settle(i) follows the processing of i's event.
struct Event {
  int processor;
  double clock;
  bool early;
};

// FlatQueue (n <= Slots): the clocks in one array, the minimum found by a scan after each pop. At
// n <= 16 the branch-free scan (SSE2: Slots/2 packed minima, then as many compares) costs less than
// the tournament's log n dependent, unpredictable comparisons at each of the one or two updates an
// event makes; set() is a 16-byte read-modify-write, a store and two branch-free updates of the
// minimum (below). pop() and set() are forced inline (simulate, below).
// The scan runs at the END of pop(), for the next one: least_ is the minimum of the clocks and
// at_least_ the slots that hold it, both kept by set() without a branch. That is exact because
// set() only ever fills an empty slot (a processor gets an event only when it has none: it was
// just popped, or it waits), so no clock grows between two scans. The next pop then takes its
// event from at_least_ at once, and the scan's dependent minima and compares overlap the
// processing of the event just popped instead of delaying the next pop.
template <int Slots>
class FlatQueue {
 public:
  static constexpr int capacity = Slots;
  // The clocks live in the protocol (they are read through a pointer); the queue itself is a local
  // of simulate, so that least_, at_least_ and early_ stay in registers: as members they went
  // through memory at every set() and pop() (a double store may alias them), a store-forwarding
  // delay on the chain from one pop to the next.
  struct Clocks {
    alignas(16) double at[Slots];
    FlatQueue queue() { return FlatQueue(at); }
  };
  explicit FlatQueue(double* clocks) : clock_(clocks) {}
  [[gnu::always_inline]] void reset() {
    std::fill(clock_, clock_ + Slots, infinity);
    early_ = 0;
    least_ = infinity;
    at_least_ = 0;
  }
  [[gnu::always_inline]] void set(int i, double clock, bool early) {
    put(i, clock);
    early_ = (early_ & ~(std::uint32_t{1} << i)) | (std::uint32_t{early} << i);
    const std::uint32_t below = -std::uint32_t{clock < least_}, level = -std::uint32_t{clock == least_};
    at_least_ = (at_least_ & ~below) | ((below | level) & (std::uint32_t{1} << i));
    least_ = clock < least_ ? clock : least_;
  }
  void settle(int) {}
  [[gnu::always_inline]] Event pop() {
    const double least = least_;
    if (least == infinity) return {-1, least, false};
    const std::uint32_t ordinary = at_least_ & ~early_;  // at_least_ is never empty here
    const int i = std::countr_zero(ordinary != 0 ? ordinary : at_least_);
    // The scan does not wait for i: it reads the clocks before i's slot is emptied and leaves out
    // every slot at least_ (slot i is one of them). If i was the only one, the next minimum is the
    // least clock above least_; otherwise it is least_ again, at the other slots that hold it.
    double next_least;
    const std::uint32_t next_at = scan_above(least, next_least);
    put(i, infinity);
    const std::uint32_t rest = at_least_ & ~(std::uint32_t{1} << i);
    least_ = rest != 0 ? least : next_least;
    at_least_ = rest != 0 ? rest : next_at;  // every empty slot when least_ is infinity: set() clears them
    return {i, least, ordinary == 0};
  }

 private:
  static_assert(Slots % 2 == 0 && Slots <= 32);
#if defined(__SSE2__)
  // Writes whole 16-byte pairs: the next scan's 16-byte loads then forward from the stores; a
  // scalar store under a wider load fails to forward and stalls the scan until it reaches L1.
  [[gnu::always_inline]] void put(int i, double clock) {
    double* pair = clock_ + (i & ~1);
    const __m128d lane = _mm_load_pd(lane_mask_[i & 1]);
    _mm_store_pd(pair, _mm_or_pd(_mm_and_pd(lane, _mm_set1_pd(clock)), _mm_andnot_pd(lane, _mm_load_pd(pair))));
  }
  // The minimum of the clocks above `least` (the least clock: the slots at it count as empty) and
  // the slots that hold it, from one load of each pair.
  [[gnu::always_inline]] std::uint32_t scan_above(double least, double& above) const {
    const __m128d floor = _mm_set1_pd(least), empty = _mm_set1_pd(infinity);
    __m128d c[Slots / 2], v[Slots / 2];
    for (int k = 0; k < Slots / 2; ++k) {
      const __m128d x = _mm_load_pd(clock_ + 2 * k), at_floor = _mm_cmpeq_pd(x, floor);
      // x + infinity or x + 0 (two operations where a select takes three): exact but for the sign of
      // a zero clock, which no comparison sees (a clock is only ever compared, never computed with).
      c[k] = v[k] = _mm_add_pd(x, _mm_and_pd(at_floor, empty));
    }
    for (int width = Slots / 2; width > 1; width /= 2)  // a tree: log2(Slots) dependent steps
      for (int k = 0; k < width / 2; ++k) v[k] = _mm_min_pd(v[2 * k], v[2 * k + 1]);
    const __m128d m = _mm_min_pd(v[0], _mm_unpackhi_pd(v[0], v[0]));
    above = _mm_cvtsd_f64(m);
    const __m128d both = _mm_unpacklo_pd(m, m);
    std::uint32_t bits = 0;
    for (int k = 0; k < Slots / 2; ++k)
      bits |= static_cast<std::uint32_t>(_mm_movemask_pd(_mm_cmpeq_pd(c[k], both))) << (2 * k);
    return bits;
  }
#else
  void put(int i, double clock) { clock_[i] = clock; }
  std::uint32_t scan_above(double least, double& above) const {
    double c[Slots];
    for (int k = 0; k < Slots; ++k) c[k] = clock_[k] == least ? infinity : clock_[k];
    above = c[0];
    for (int k = 1; k < Slots; ++k) above = c[k] < above ? c[k] : above;
    std::uint32_t bits = 0;
    for (int k = 0; k < Slots; ++k) bits |= std::uint32_t{c[k] == above} << k;
    return bits;
  }
#endif
  double* clock_;  // 16-byte aligned (Clocks)
  std::uint32_t early_ = 0;  // bit i: processor i's event is early
  double least_ = infinity;     // the minimum of clock_
  std::uint32_t at_least_ = 0;  // bit i: clock_[i] == least_
#if defined(__SSE2__)
  static constexpr double all_ones = std::bit_cast<double>(~std::uint64_t{0});
  alignas(16) static constexpr double lane_mask_[2][2] = {{all_ones, 0.0}, {0.0, all_ones}};
#endif
};

// TournamentQueue (any n): a tournament tree over leaves_ >= n leaves, winner_[1] the next event's
// processor, node v's winner the earlier of 2v's and 2v+1's: O(log n) per update, O(1) per pop.
// pop() empties the slot without replaying the tree; set() replays the new event's path, and
// settle(i) replays i's path if processing i gave it no event.
class TournamentQueue {
 public:
  static constexpr int capacity = std::numeric_limits<int>::max();
  explicit TournamentQueue(int n) {
    while (leaves_ < n) leaves_ *= 2;
    clock_.assign(leaves_, infinity);  // padding leaves never hold an event
    rank_.assign(leaves_, 0);
    winner_.assign(2 * static_cast<std::size_t>(leaves_), 0);
  }
  void reset() {
    std::fill(clock_.begin(), clock_.end(), infinity);
    for (int leaf = 0; leaf < leaves_; ++leaf) winner_[leaves_ + leaf] = leaf;
    for (int node = leaves_ - 1; node >= 1; --node) winner_[node] = earlier(winner_[2 * node], winner_[2 * node + 1]);
  }
  void set(int i, double clock, bool early) {
    clock_[i] = clock;
    rank_[i] = early ? leaves_ + i : i;
    update(i);
  }
  void settle(int i) {
    if (clock_[i] == infinity) update(i);
  }
  TournamentQueue& queue() { return *this; }  // (FlatQueue's Clocks::queue())
  Event pop() {
    const int i = winner_[1];
    const double clock = clock_[i];
    if (clock == infinity) return {-1, clock, false};
    clock_[i] = infinity;
    return {i, clock, rank_[i] >= leaves_};
  }

 private:
  int earlier(int a, int b) const {
    const double ca = clock_[a], cb = clock_[b];
    return (cb < ca) | ((cb == ca) & (rank_[b] < rank_[a])) ? b : a;
  }
  void update(int i) {
    for (int node = (leaves_ + i) / 2; node >= 1; node /= 2)
      winner_[node] = earlier(winner_[2 * node], winner_[2 * node + 1]);
  }
  int leaves_ = 1;
  std::vector<double> clock_;
  std::vector<int> rank_;  // i for an ordinary event, leaves_ + i for an early one
  std::vector<int> winner_;
};

// Processor i's task times drawn ahead, `batch` at a time, in one tight loop over its stream: the
// same variates in the same order (its k-th task, its stream's k-th variate), never more than the
// `levels` it uses, so its stream ends where drawing one at a time leaves it. Drawn one by one
// inside the event loop, each draw was a call that spilled the loop's state (about 13% of the time
// per task at 16_8); in a loop of its own the stream stays in registers and successive variates'
// conversions overlap. The log gets the variates as they are drawn, a batch at a time: each
// processor's in its own order, which is all the nearest-neighbour controls read (sums, powers and
// level maxima, by processor and level: engine/kernel/plan.cpp); only the order across processors differs
// from the order of the tasks' starts. Added one at a time at each start, the log's out-of-line
// append made a call in the event loop that cost about 10% of a cv run.
template <class Draw>
class DrawAhead {
 public:
  static constexpr int batch = 32;
  struct State {
    std::vector<double> buffer;  // processor i's variates at [i * batch, (i + 1) * batch)
    std::vector<int> at, end;    // the next one to use, and the end of those drawn
    std::vector<int> left;       // variates not yet drawn
    void reset(int width, int levels) {
      buffer.resize(static_cast<std::size_t>(width) * batch);
      at.assign(width, 0);
      end.assign(width, 0);
      left.assign(width, levels);
    }
  };
  DrawAhead(const LawDraws::Monomorphic<Draw>& draw, State& state) : draw_(draw), state_(&state) {}
  [[gnu::always_inline]] double operator()(int i) const {
    int& at = state_->at[i];
    if (at == state_->end[i]) [[unlikely]]
      refill(i);
    return state_->buffer[at++];
  }

 private:
  [[gnu::noinline]] void refill(int i) const {
    const int count = std::min(batch, state_->left[i]);
    if (count == 0) throw std::logic_error("event-commit: a processor drew more than its levels' tasks");
    state_->left[i] -= count;
    double* out = state_->buffer.data() + static_cast<std::size_t>(i) * batch;
    const Draw draw = draw_.draws[i];
    ProcessorStream stream = draw_.streams[i];
    for (int k = 0; k < count; ++k) out[k] = draw(stream);
    draw_.streams[i] = stream;
    if (DrawLog* log = draw_.log) {
      log->processor.insert(log->processor.end(), count, i);
      log->value.insert(log->value.end(), out, out + count);
    }
    state_->at[i] = i * batch;
    state_->end[i] = i * batch + count;
  }
  LawDraws::Monomorphic<Draw> draw_;
  State* state_;
};

// The level sweep's order key of an event (EventCommit, "The level sweep"), and when a processor
// is ready for an exchange: the time, and its event's key. Three modes of the sweep: times only
// (times_only: every key is the time), order values (early_finishes: the key as one double, an
// early finish just above its clock), and both halves of the key (keyed).
struct EventKey {
  double clock;
  bool early;
};
constexpr int times_only = 0, early_finishes = 1, keyed = 2;
template <int Mode>
struct Ready {
  double time;
  EventKey key;
};
template <>
struct Ready<times_only> {
  double time;
};
template <>
struct Ready<early_finishes> {
  double time, order;
};
inline EventKey key_of(const Ready<keyed>& r) { return r.key; }
inline EventKey key_of(const Ready<early_finishes>& r) { return {r.order, false}; }
inline EventKey key_of(const Ready<times_only>& r) { return {r.time, false}; }
template <int Mode>
Ready<Mode> ready(double time, EventKey key) {
  if constexpr (Mode == keyed) return {time, key};
  else if constexpr (Mode == early_finishes) return {time, key.clock};
  else return {time};
}

class EventCommit final : public Protocol {
 public:
  enum class Key { task_finish, availability };

  EventCommit(const CommSetup& setup, Key key)
      : key_(key),
        n_(setup.width),
        levels_(setup.levels),
        exchange_cost_(2.0 * setup.comm_cost),
        draws_(setup.width),
        finish_(n_),
        free_(n_),
        busy_until_(n_),
        time_(n_),
        task_(n_),
        status_(n_),
        follows_(n_),
        start_clock_(n_),
        start_rank_(n_),
        tournament_(n_),
        start_(n_),
        sweep_finish_(n_),
        left_ready_(n_),
        order_(n_),
        next_start_(n_),
        start_clock_of_(n_),
        finish_clock_(n_),
        left_clock_(n_),
        next_start_clock_(n_),
        start_early_(n_),
        finish_early_(n_),
        left_early_(n_),
        next_start_early_(n_) {}

  double run(TaskTimes& times) override {
    return draws_.dispatch(times, n_, [this](auto next) {
      const auto draw = ahead(next);
      if constexpr (!std::is_same_v<decltype(next), LawDraws::General>) {
        if (exchange_cost_ > 0.0) return level_by_level(draw);  // (below)
      }
      return event_run(draw, -1);
    });
  }

 private:
  // A processor's status, one byte: its state (the low two bits), the neighbours it still needs
  // after its current task, and, when it waits, the one it is committed to. One load tells
  // whether a neighbour waits for it, and the flags travel in a register from process to
  // become_free and exchange instead of through memory.
  enum State : unsigned { computing, exchanging, waiting, finished };
  static constexpr unsigned state_bits = 3, need_left = 4, need_right = 8, committed_right = 16;

  // A monomorphic draw is drawn ahead (DrawAhead); a mixture's or a busy-keeping one is not.
  template <class Draw>
  DrawAhead<Draw> ahead(const LawDraws::Monomorphic<Draw>& draw) {
    auto& state = std::get<typename DrawAhead<Draw>::State>(ahead_);
    state.reset(n_, levels_);
    return {draw, state};
  }
  static LawDraws::General ahead(const LawDraws::General& draw) { return draw; }

  template <class Next>
  double event_run(Next next, int from) {
    if (n_ <= FlatQueue<8>::capacity) return simulate(small_, next, from);
    if (n_ <= FlatQueue<16>::capacity) return simulate(medium_, next, from);
    return simulate(tournament_, next, from);
  }

  // One replication (or one level of it, below). The events come in the rules' order (above): from the queue, except the end
  // of an exchange for its right partner. That event has the left partner's time and clock and the
  // next rank, so nothing already queued falls between the two: it is processed right after the
  // left partner's unless processing that one scheduled an event at the same clock that goes first
  // (same_clock_ tells), and only then does it join the queue. One pop an exchange saved.
  // The whole loop is one function: pop(), set() and the processing below are always_inline, as
  // GCC otherwise keeps process, exchange, start_ahead or pop out of line (which it picks moves with
  // any edit) and each call spills the loop's state; 5-15% per task at 16_8.
  // from < 0: the whole replication. from = k >= 0: level k alone, from the level sweep's state
  // (the level's finish times sweep_finish_; each start event's time, clock and whether it is
  // early: start_, start_clock_of_, start_early_, or start_ alone when plain_); each processor
  // stops where it would start task k + 1 (stop), which records that start for the sweep.
  template <class Storage, class Next>
  double simulate(Storage& storage, Next next, int from) {
    decltype(auto) queue = storage.queue();  // a FlatQueue by value, the tournament by reference
    queue.reset();
    clock_ = -infinity;
    std::fill(follows_.begin(), follows_.end(), 0);
    stop_ = from < 0 ? levels_ : from + 1;
    if (from < 0) {
      for (int i = 0; i < n_; ++i) {
        task_[i] = -1;
        start_clock_[i] = -infinity;
        start_task(queue, i, 0.0, next);
      }
    } else {
      // Task `from` started at each processor's start event, as start_ahead starts it: its finish
      // event is early when it precedes that event's clock.
      for (int i = 0; i < n_; ++i) {
        const bool ordinary_start = plain_ || !start_early_[i];
        const double at = plain_ ? (from == 0 ? -infinity : start_[i]) : start_clock_of_[i];
        task_[i] = from;
        start_clock_[i] = at;
        start_rank_[i] = ordinary_start ? i : n_ + i;
        const double finish = sweep_finish_[i];
        finish_[i] = finish;
        status_[i] = computing;
        const bool early = finish < at;
        queue.set(i, early ? at : finish, early);
        time_[i] = finish;
      }
      plain_ = true;  // until a start is early (stop)
    }
    makespan_ = -infinity;
    done_ = 0;
    for (;;) {
      const Event e = queue.pop();
      const int i = e.processor;
      if (i < 0) break;  // no event left
      clock_ = e.clock;
      rank_ = e.early ? n_ + i : i;
      if (!follows_[i]) {
        process(queue, i, time_[i], next);
        queue.settle(i);
        continue;
      }
      follows_[i] = 0;
      same_clock_ = 0;
      process(queue, i, time_[i], next);
      queue.settle(i);
      const int right = i + 1;
      // An event scheduled at this clock goes first if it is ordinary, or if the pair's are early
      // too (its rank is then at most i's); an early one after an ordinary pair goes after.
      if ((same_clock_ & ordinary_at_clock) || (e.early && (same_clock_ & early_at_clock)))
        schedule(queue, busy_until_[right], right);
      else {
        rank_ = e.early ? n_ + right : right;
        process(queue, right, busy_until_[right], next);
      }
    }
    if (done_ != n_) throw std::logic_error("event-commit: processors left waiting (deadlock)");
    return makespan_;
  }

  // Processor i's event: free at t (its algebraic time), processed at clock_.
  template <class Queue, class Next>
  [[gnu::always_inline]] void process(Queue& queue, int i, double t, Next& next) {
    const unsigned status = status_[i];
    if ((status & state_bits) == computing) {
      if (task_[i] + 1 == levels_) {  // its last task: no exchange follows
        status_[i] = finished;
        makespan_ = std::max(makespan_, t);
        ++done_;
        return;
      }
      // A copy of become_free of its own for the end of a task (and one for the end of an
      // exchange, below): its branches go differently after each, and each copy's are predicted
      // apart.
      become_free(queue, i, t, (i > 0 ? need_left : 0) | (i + 1 < n_ ? need_right : 0), next);
      return;
    }
    become_free(queue, i, t, status, next);
  }

  // Processor i's one pending event: free at `time`, processed at max(time, clock).
  template <class Queue>
  void schedule(Queue& queue, double time, int i) {
    const bool early = time < clock_;
    const double clock = early ? clock_ : time;
    queue.set(i, clock, early);
    time_[i] = time;
    same_clock_ |= clock == clock_ ? (early ? early_at_clock : ordinary_at_clock) : 0;
  }

  template <class Queue, class Next>
  [[gnu::always_inline]] void start_task(Queue& queue, int i, double t, Next& next) {
    if (++task_[i] == stop_) [[unlikely]] {  // (a run of one level: width 1 never takes one)
      stop(i, t, t < clock_ ? clock_ : t, t < clock_);
      return;
    }
    finish_[i] = t + next(i);
    status_[i] = computing;  // needing no neighbour
    schedule(queue, finish_[i], i);
  }

  // j's task start was taken ahead and its event comes after the one being processed.
  bool not_started(int j) const {
    return start_clock_[j] > clock_ || (start_clock_[j] == clock_ && start_rank_[j] > rank_);
  }

  // Whether i's left (right) neighbour waits for i: it is waiting, committed to its right (left).
  bool left_waits(int i) const { return (status_[i - 1] & (state_bits | committed_right)) == (waiting | committed_right); }
  bool right_waits(int i) const { return (status_[i + 1] & (state_bits | committed_right)) == waiting; }

  // The commitment key of i's needed neighbour j (see the rules above).
  [[gnu::always_inline]] double commit_key(int i, int j) const {
    if (task_[j] != task_[i] || not_started(j)) return infinity;  // j has not started task k
    if (key_ == Key::task_finish) return finish_[j];
    switch (status_[j] & state_bits) {
      case computing: return finish_[j];
      case exchanging: return busy_until_[j];
      default: return infinity;  // waiting for its other neighbour
    }
  }

  // `status`: i's, in a register (its needs after process; not yet stored).
  template <class Queue, class Next>
  [[gnu::always_inline]] void become_free(Queue& queue, int i, double t, unsigned status, Next& next) {
    const bool left = status & need_left, right = status & need_right;
    if (!left && !right) {
      start_task(queue, i, t, next);
      return;
    }
    if (left && left_waits(i)) {
      exchange(queue, i, i - 1, t, status, next);
      return;
    }
    if (right && right_waits(i)) {
      exchange(queue, i, i + 1, t, status, next);
      return;
    }
    bool commit_right;
    if (left && right)
      commit_right = commit_key(i, i + 1) < commit_key(i, i - 1);  // ties: left
    else
      commit_right = right;
    status_[i] = (status & (need_left | need_right)) | waiting | (commit_right ? committed_right : 0);
    free_[i] = t;
  }

  // Processor i (its status `status`), free at t, exchanges with neighbour j, which waits for it
  // since free_[j]. The left partner's end event is queued; the right partner's follows it
  // (simulate).
  template <class Queue, class Next>
  [[gnu::always_inline]] void exchange(Queue& queue, int i, int j, double t, unsigned status, Next& next) {
    const double end = std::max(t, free_[j]) + exchange_cost_;
    const int left = std::min(i, j), right = std::max(i, j);
    const unsigned other = status_[j];
    const bool left_done = !((i < j ? status : other) & need_left), right_done = !((i < j ? other : status) & need_right);
    status_[left] = exchanging | (left_done ? 0 : need_left);
    status_[right] = exchanging | (right_done ? 0 : need_right);
    busy_until_[left] = busy_until_[right] = end;
    // The exchange's end event, at `at`: the left partner's, the right one's following it.
    const bool early = end < clock_;
    const double at = early ? clock_ : end;
    same_clock_ |= at == clock_ ? (early ? early_at_clock : ordinary_at_clock) : 0;
    if (left_done) {
      start_ahead(queue, left, end, at, early, next);
    } else {
      queue.set(left, at, early);
      time_[left] = end;
    }
    if (right_done) {
      start_ahead(queue, right, end, at, early, next);
    } else if (!left_done) {
      follows_[left] = 1;
    } else {  // its event no longer follows the left partner's, which is gone: same place in the order
      queue.set(right, at, early);
      time_[right] = end;
    }
  }

  // A partner that needs no neighbour after this exchange only starts its next task at its end:
  // its end event is not queued; the task starts now, as that event would start it (at time end,
  // its clock `at`), and until that event's turn neighbours see it as not started (not_started).
  // A pop or a processing saved per processor and level.
  template <class Queue, class Next>
  [[gnu::always_inline]] void start_ahead(Queue& queue, int i, double end, double at, bool early, Next& next) {
    if (++task_[i] == stop_) [[unlikely]] {
      stop(i, end, at, early);
      return;
    }
    const double finish = end + next(i);
    finish_[i] = finish;
    status_[i] = computing;  // needing no neighbour
    start_clock_[i] = at;
    start_rank_[i] = early ? n_ + i : i;
    const bool finish_early = finish < at;
    queue.set(i, finish_early ? at : finish, finish_early);
    time_[i] = finish;
  }

  // Processor i reaches the end of a run of one level: its start of the next task, at time t and
  // clock at (early or not), is the level sweep's; it takes no further part.
  void stop(int i, double t, double at, bool early) {
    start_[i] = t;
    start_clock_of_[i] = at;
    start_early_[i] = early;
    plain_ &= !early;
    status_[i] = finished;
    ++done_;
  }

  static constexpr unsigned ordinary_at_clock = 1, early_at_clock = 2;

  // ---- The level sweep -----------------------------------------------------------------------
  // The same rules, a level at a time. Every event has an order key, (clock, early): events are
  // processed by clock, and at equal clocks ordinary ones before early ones (then by processor,
  // which the sweep never needs: keys it would have to tell apart that way count as ties). The
  // key of an event scheduled while processing event E: (time, ordinary) if its time is past E's
  // clock, else (E's clock, early). So a finish f_i, from a start event of clock s_i, has key
  // (f_i, 0) if f_i > s_i, else (s_i, 1); an exchange's end t, begun at the later (by key) of its
  // partners' ready events, of clock c, has key (t, 0) if t > c, else (c, 1). Two events of
  // different keys are processed in the keys' order: an event processed after another is
  // scheduled at a clock at least that one's, and could only go before it with an ordinary key at
  // the clock of an early one, that is a time equal to a clock (a tie, below). Then a level's
  // outcome follows from its finish events F_i (times for the arithmetic, keys for the order):
  //  - Processor i's only choice is the order of its two exchanges after task k, made at F_i (the
  //    ends of the line have one exchange). It depends only on events before F_i: a neighbour
  //    with an earlier finish has chosen already, one with a later one is computing (or has not
  //    started task k). So right_first(i) decides i, deciding first, and once, the neighbours it
  //    depends on (memoised in order_; no cycle: each step goes to an earlier finish). Its inputs
  //    are the rules' own: whether a neighbour waits for i (it was ready for their exchange
  //    before F_i), else the keys of commit_key (times).
  //  - Given the orders, exchange (i, i+1) starts when both are ready, each at its finish if it
  //    is its first exchange, else at the end of its other one: a pass from the left gives each
  //    one's left partner ready time, a pass from the right its right partner's, and
  //    end = max(left, right) + 2C, as the event rule computes it, bit for bit.
  // Any comparison that meets equal keys (where the event order breaks the tie by rank), or a
  // time equal to the clock it is scheduled at, sets tie_: that level is then run event by event
  // (event_run, from the level's start events), and the sweep goes on from the starts it records.
  // Levels split exactly: level k's events never consult a processor that has started task k + 1
  // (it has exchanged with them), and level k + 1's see one still at level k only as not started,
  // which the start event's clock and rank decide (not_started, as for start_ahead); the tests run
  // such levels from early start events too.
  // Three modes (Ready, above): when every start of a level is ordinary and every time of the level
  // positive, no key is early and the times are the keys (times_only); when the starts are
  // ordinary but some finish is early (k > 0), its key is an order value just above its clock,
  // and an exchange ending at or before the event that began it hands the level to the third
  // (early_finishes); otherwise both halves of each key are kept beside the times (keyed). Normal
  // laws at (8,3): 71% of the levels times_only, 28% early_finishes, 0.8% keyed, 0.2% event_run;
  // at (16,8): 50%, 48%, 1.5% and 0.4%.
  template <class Next>
  double level_by_level(Next next) {
    const int n = n_;
    std::fill(start_.begin(), start_.end(), 0.0);
    plain_ = true;  // level 0's start events are all at clock -infinity
    for (int k = 0;; ++k) {
      bool positive = true;
      for (int i = 0; i < n; ++i) {
        const double f = start_[i] + next(i);
        positive &= f > start_[i];
        sweep_finish_[i] = f;
      }
      if (k + 1 == levels_) return *std::max_element(sweep_finish_.begin(), sweep_finish_.end());
      if (n == 1) {
        start_[0] = sweep_finish_[0];
        continue;
      }
      if (plain_ && positive) {
        if (sweep_level<times_only>()) continue;
      } else if (plain_ && k > 0 && sweep_level<early_finishes>()) {
        continue;
      }
      if (!sweep_level<keyed>(k)) event_run(next, k);
    }
  }


  template <int Mode>
  EventKey finish_key(int i) const {
    if constexpr (Mode == keyed) return {finish_clock_[i], finish_early_[i] != 0};
    else if constexpr (Mode == early_finishes) return {finish_clock_[i], false};  // the order value
    else return {sweep_finish_[i], false};
  }
  template <int Mode>
  EventKey start_key(int i) const {
    if constexpr (Mode == keyed) return {start_clock_of_[i], start_early_[i] != 0};
    else return {start_[i], false};
  }
  template <int Mode>
  EventKey left_ready_key(int i) const {
    if constexpr (Mode == keyed) return {left_clock_[i], left_early_[i] != 0};
    else if constexpr (Mode == early_finishes) return {left_clock_[i], false};
    else return {left_ready_[i], false};
  }
  static constexpr EventKey unknown{infinity, false};
  static bool less(EventKey a, EventKey b) { return a.clock < b.clock || (a.clock == b.clock && a.early < b.early); }
  static EventKey later(EventKey a, EventKey b) { return less(a, b) ? b : a; }
  // Whether event a comes before F_i (key fi); equal keys set tie_.
  bool before(EventKey a, EventKey fi) {
    tie_ |= a.clock == fi.clock && a.early == fi.early;
    return less(a, fi);
  }
  // The key of an exchange's end at time `end`, begun at the event of key `begun`.
  template <int Mode>
  EventKey end_key(double end, EventKey begun) {
    if constexpr (Mode == times_only) {
      return {end, false};  // no early event: begun's clock is its time, below end
    } else if constexpr (Mode == early_finishes) {
      tie_ |= end <= begun.clock;  // an early end (or one at the order value): the keyed mode's
      return {end, false};
    } else {
      tie_ |= end == begun.clock;
      return end < begun.clock ? EventKey{begun.clock, true} : EventKey{end, false};
    }
  }

  // Level k from sweep_finish_ and the start events; the next level's starts, or false on a tie
  // (nothing changed: start_ and its keys stay level k's for event_run).
  template <int Mode>
  [[gnu::always_inline]] bool sweep_level(int k = 0) {
    const int n = n_;
    const double cost = exchange_cost_;
    const double* f = sweep_finish_.data();
    tie_ = false;
    if constexpr (Mode == early_finishes) {
      // Every start ordinary at its time (k > 0): an early finish's key is (s_i, early), just
      // above s_i and below any later time; a time at that order value counts as a tie.
      for (int i = 0; i < n; ++i) {
        const double s = start_[i];
        tie_ |= f[i] == s;
        finish_clock_[i] = f[i] < s ? std::nextafter(s, infinity) : f[i];
      }
    }
    if constexpr (Mode == keyed) {
      if (plain_)
        for (int i = 0; i < n; ++i) {
          start_clock_of_[i] = k == 0 ? -infinity : start_[i];
          start_early_[i] = 0;
        }
      for (int i = 0; i < n; ++i) {
        const double s = start_clock_of_[i];
        tie_ |= f[i] == s;
        finish_early_[i] = f[i] < s;
        finish_clock_[i] = f[i] < s ? s : f[i];
      }
    }
    std::fill(order_.begin(), order_.end(), 0);
    order_[0] = right_first_order;
    order_[n - 1] = left_first_order;
    // Left to right: when i is decided, so is everyone to its left, so left_ready_[i - 1] is
    // final (right_first_in_order); the right neighbour's side may need deciding first.
    left_ready_[0] = f[0];
    set_left_key<Mode>(0, finish_key<Mode>(0));
    for (int i = 1; i + 1 < n; ++i) {
      if (order_[i] == 0) right_first_in_order<Mode>(i);
      // Selects, not branches: the order is as likely one way as the other.
      const bool right_first = order_[i] == right_first_order;
      const double end = std::max(left_ready_[i - 1], f[i]) + cost;
      left_ready_[i] = right_first ? f[i] : end;
      if constexpr (Mode != times_only) {
        const EventKey finish = finish_key<Mode>(i);
        const EventKey exchange = end_key<Mode>(end, later(left_ready_key<Mode>(i - 1), finish));
        set_left_key<Mode>(i, right_first ? finish : exchange);
      }
    }
    if (tie_) return false;
    // Right to left: right_ready, when i + 1 is ready for exchange (i, i+1); that exchange's end;
    // and i + 1's start of task k + 1, the end of its later exchange.
    double right_ready = f[n - 1];
    EventKey right_ready_key = finish_key<Mode>(n - 1);
    double right_end = std::max(left_ready_[n - 2], right_ready) + cost;
    EventKey right_end_key = end_key<Mode>(right_end, later(left_ready_key<Mode>(n - 2), right_ready_key));
    set_next_start<Mode>(n - 1, right_end, right_end_key);
    for (int i = n - 3; i >= 0; --i) {
      const bool left_first = order_[i + 1] == left_first_order;
      right_ready = left_first ? f[i + 1] : std::max(right_ready, f[i + 1]) + cost;
      if constexpr (Mode != times_only) right_ready_key = left_first ? finish_key<Mode>(i + 1) : right_end_key;
      const double end = std::max(left_ready_[i], right_ready) + cost;
      const EventKey key = end_key<Mode>(end, later(left_ready_key<Mode>(i), right_ready_key));
      set_next_start<Mode>(i + 1, left_first ? right_end : end, left_first ? right_end_key : key);
      right_end = end;
      right_end_key = key;
    }
    set_next_start<Mode>(0, right_end, right_end_key);
    if constexpr (Mode != times_only) {
      if (tie_) return false;
    }
    if constexpr (Mode == keyed) {
      start_clock_of_.swap(next_start_clock_);
      start_early_.swap(next_start_early_);
      plain_ = std::none_of(start_early_.begin(), start_early_.end(), [](unsigned char e) { return e != 0; });
    }
    start_.swap(next_start_);
    return true;
  }
  template <int Mode>
  void set_left_key(int i, EventKey key) {
    if constexpr (Mode != times_only) left_clock_[i] = key.clock;
    if constexpr (Mode == keyed) left_early_[i] = key.early;
  }
  template <int Mode>
  void set_next_start(int i, double t, EventKey key) {
    next_start_[i] = t;
    if constexpr (Mode == keyed) {
      next_start_clock_[i] = key.clock;
      next_start_early_[i] = key.early;
    }
  }

  // right_first(i) for the next i from the left: its left neighbour's ready time is final.
  template <int Mode>
  void right_first_in_order(int i) {
    const EventKey fi = finish_key<Mode>(i);
    bool right;
    if (before(left_ready_key<Mode>(i - 1), fi)) {
      right = false;
    } else {
      const Ready<Mode> right_ready = ready_for_left<Mode>(i + 1, fi);
      if (before(key_of(right_ready), fi)) {
        right = true;
      } else {
        // The left neighbour's key: as sweep_key, its other exchange's end if that started
        // before F_i (then left_ready_[i - 1] is that end).
        const int j = i - 1;
        double left_key = infinity;
        if (before(start_key<Mode>(j), fi)) {
          if (key_ == Key::task_finish || less(fi, finish_key<Mode>(j)))
            left_key = sweep_finish_[j];
          else if (j > 0 && before(left_ready_key<Mode>(j - 1), fi))  // processor 0 waits for 1 once done
            left_key = left_ready_[i - 1];
        }
        right = sweep_key<Mode>(i + 1, fi, right_ready.time) < left_key;
      }
    }
    order_[i] = right ? right_first_order : left_first_order;
  }

  // As seen at F_i: when x is ready for exchange (x, x+1) if that is known by then (its finish, if
  // that is its first exchange and came before; the end of its other exchange, if that started
  // before), else unknown. x < n - 1.
  template <int Mode>
  Ready<Mode> ready_for_right(int x, EventKey fi) {
    const EventKey fx = finish_key<Mode>(x);
    if (!before(fx, fi)) return ready<Mode>(infinity, unknown);
    const double t = sweep_finish_[x];
    if (x == 0 || right_first<Mode>(x)) return ready<Mode>(t, fx);
    const Ready<Mode> other = ready_for_right<Mode>(x - 1, fi);
    const EventKey begun = later(key_of(other), fx);
    if (!before(begun, fi)) return ready<Mode>(infinity, unknown);
    const double end = std::max(other.time, t) + exchange_cost_;
    return ready<Mode>(end, end_key<Mode>(end, begun));
  }
  // The same for exchange (y-1, y). y > 0.
  template <int Mode>
  Ready<Mode> ready_for_left(int y, EventKey fi) {
    const EventKey fy = finish_key<Mode>(y);
    if (!before(fy, fi)) return ready<Mode>(infinity, unknown);
    const double t = sweep_finish_[y];
    if (y == n_ - 1 || !right_first<Mode>(y)) return ready<Mode>(t, fy);
    const Ready<Mode> other = ready_for_left<Mode>(y + 1, fi);
    const EventKey begun = later(fy, key_of(other));
    if (!before(begun, fi)) return ready<Mode>(infinity, unknown);
    const double end = std::max(t, other.time) + exchange_cost_;
    return ready<Mode>(end, end_key<Mode>(end, begun));
  }

  // Interior processor i's choice at F_i: the left neighbour if it waits for i, else the right
  // one if it waits, else the one with the lower commitment key (ties: left).
  template <int Mode>
  bool right_first(int i) {
    if (order_[i] != 0) return order_[i] == right_first_order;
    const EventKey fi = finish_key<Mode>(i);
    bool right;
    const Ready<Mode> left_ready = ready_for_right<Mode>(i - 1, fi);
    if (before(key_of(left_ready), fi)) {
      right = false;
    } else {
      const Ready<Mode> right_ready = ready_for_left<Mode>(i + 1, fi);
      if (before(key_of(right_ready), fi))
        right = true;
      else
        right = sweep_key<Mode>(i + 1, fi, right_ready.time) < sweep_key<Mode>(i - 1, fi, left_ready.time);
    }
    order_[i] = right ? right_first_order : left_first_order;
    return right;
  }

  // Neighbour j's commitment key at F_i (a time), j not waiting for i; `ready` as above: the end
  // of its other exchange if that started before F_i, else infinity.
  template <int Mode>
  double sweep_key(int j, EventKey fi, double ready) {
    if (!before(start_key<Mode>(j), fi)) return infinity;  // not started on task k
    if (key_ == Key::task_finish || less(fi, finish_key<Mode>(j))) return sweep_finish_[j];
    return ready;  // exchanging until then, or waiting for its other neighbour (infinity)
  }

  Key key_;
  int n_, levels_;
  double exchange_cost_;
  LawDraws draws_;
  std::tuple<DrawAhead<distributions::UniformDraw>::State, DrawAhead<distributions::NormalDraw>::State> ahead_;
  double clock_ = 0.0, makespan_ = 0.0;
  int done_ = 0;
  unsigned same_clock_ = 0;  // events scheduled at clock_ while a left partner was processed
  std::vector<double> finish_;      // finish time of the current (or last finished) task
  std::vector<double> free_;        // when a waiting processor became free
  std::vector<double> busy_until_;  // when an exchanging processor's exchange ends
  std::vector<double> time_;        // the algebraic time of a processor's pending event
  std::vector<int> task_;           // current task index k (0-based), incremented at its start
  std::vector<unsigned char> status_;  // State | need_left | need_right | committed_right
  std::vector<unsigned char> follows_;  // the queued event ends an exchange with i + 1, whose end follows
  // The event at which a processor started its current task, (clock, rank), when the start was
  // taken ahead of its turn (start_ahead); -infinity otherwise. rank_ is the event being processed.
  std::vector<double> start_clock_;
  std::vector<int> start_rank_;
  int rank_ = 0;
  FlatQueue<8>::Clocks small_;
  FlatQueue<16>::Clocks medium_;
  TournamentQueue tournament_;
  // The level sweep's.
  static constexpr unsigned char left_first_order = 1, right_first_order = 2;
  bool tie_ = false;
  std::vector<double> start_;         // task k's start
  std::vector<double> sweep_finish_;  // task k's finish, f_i
  std::vector<double> left_ready_;    // when i is ready for exchange (i, i+1)
  std::vector<unsigned char> order_;  // 0 undecided, or which exchange i makes first
  std::vector<double> next_start_;    // task k + 1's start, while level k is swept
  // The keys (sweep_level<keyed>; finish_clock_ and left_clock_ hold order values in early_finishes): each start event's clock and whether it is early (also what a run
  // of one level records, stop), F_i's, the left ready events', and the next level's starts'.
  bool plain_ = true;  // every start event of the level ordinary, its clock its time
  int stop_ = 0;       // the task at which event_run stops (levels_ for the whole replication)
  std::vector<double> start_clock_of_, finish_clock_, left_clock_, next_start_clock_;
  std::vector<unsigned char> start_early_, finish_early_, left_early_, next_start_early_;
};

// sequential: the rule that reproduces the C = 0 tables (1, 2), with each exchange costing 2C.
// After task k each processor exchanges first with its left, then with its right neighbour; an
// exchange needs both sides free and occupies both for 2C:
//   e(0,1) = max(f_0, f_1) + 2C,  e(i,i+1) = max(e(i-1,i), f_{i+1}) + 2C,
// processor i < n-1 starts task k+1 at e(i,i+1), processor n-1 at e(n-2,n-1). No exchanges after
// the last task. At C = 0 it is the sequential zero-communication recurrence, bit for bit. It is
// 6-7% above Tables 4 and 7 (worst 7.2%, mean 2.8%): kept to compare against.
// plain: the plain recurrence (what Tables 4 and 7 tend to as C -> 0) with the paper's cost
// statement charged literally (Section 5.1: "synchronization between neighbors requires two
// communication units ... a processor synchronizing with two other processors spends four
// communication units"; "communication between different pairs of processors may occur
// simultaneously"). A processor waits until its whole neighbourhood has finished task k, then
// spends 2C per neighbour:
//   s_i(k+1) = max(f_{i-1}, f_i, f_{i+1}) + 2C * (number of neighbours of i).
// It never lets a processor wait for a neighbour's other exchange (no serialisation at the
// partner), so no dependency reaches further than one neighbour per level: the cheapest
// "synchronise, then communicate" reading, a reference beside event-commit (it is not a bound of
// it: event-commit may exchange with an early neighbour before the late one has finished). At
// C = 0 it is the zero-communication plain recurrence, bit for bit. Tables 4 and 7: worst 3.1%,
// mean 1.5% (too high at small C and large n).
class LevelRule final : public Protocol {
 public:
  enum class Rule { sequential, plain };

  LevelRule(const CommSetup& setup, Rule rule)
      : setup_(setup), rule_(rule), start_(setup.width), finish_(setup.width) {}

  double run(TaskTimes& times) override {
    const int n = setup_.width;
    const double exchange_cost = 2.0 * setup_.comm_cost;
    std::fill(start_.begin(), start_.end(), 0.0);
    for (int k = 0;; ++k) {
      for (int i = 0; i < n; ++i) finish_[i] = start_[i] + times.next(i);
      if (k + 1 == setup_.levels) break;
      if (rule_ == Rule::plain) {
        for (int i = 0; i < n; ++i) {
          const int lo = std::max(i - 1, 0), hi = std::min(i + 1, n - 1);
          start_[i] = std::max({finish_[lo], finish_[i], finish_[hi]}) + exchange_cost * (hi - lo);
        }
      } else if (n == 1) {
        start_[0] = finish_[0];
      } else {
        double exchange = finish_[0];
        for (int i = 0; i + 1 < n; ++i) {
          exchange = std::max(exchange, finish_[i + 1]) + exchange_cost;
          start_[i] = exchange;
        }
        start_[n - 1] = exchange;
      }
    }
    return *std::max_element(finish_.begin(), finish_.end());
  }

 private:
  CommSetup setup_;
  Rule rule_;
  std::vector<double> start_, finish_;
};

}  // namespace

const std::vector<ProtocolEntry>& neighbor_protocols() {
  static const std::vector<ProtocolEntry> family = {
      {"event-available", "event-driven exchanges, committing to the neighbour that can exchange first",
       [](const CommSetup& s) -> std::unique_ptr<Protocol> {
         return std::make_unique<EventCommit>(s, EventCommit::Key::availability);
       }},
      {"event-commit", "event-driven exchanges, committing to the neighbour whose task finishes first",
       [](const CommSetup& s) -> std::unique_ptr<Protocol> {
         return std::make_unique<EventCommit>(s, EventCommit::Key::task_finish);
       }},
      {"sequential", "the Tables 1-2 rule with 2C per exchange",
       [](const CommSetup& s) -> std::unique_ptr<Protocol> {
         return std::make_unique<LevelRule>(s, LevelRule::Rule::sequential);
       }},
      {"plain", "max of the neighbours plus 2C per neighbour",
       [](const CommSetup& s) -> std::unique_ptr<Protocol> {
         return std::make_unique<LevelRule>(s, LevelRule::Rule::plain);
       }},
  };
  return family;
}

std::vector<std::string> neighbor_protocol_names() { return names_of(neighbor_protocols()); }

std::unique_ptr<Protocol> make_neighbor_protocol(const std::string& name, const CommSetup& setup) {
  return make_from(neighbor_protocols(), "nearest-neighbour", name, setup);
}

}  // namespace hetstruct::engine
