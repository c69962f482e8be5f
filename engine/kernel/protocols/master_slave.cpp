// Asynchronous master-slave structure with communication and dealing policies (Wilson 5.1,
// Figure 4; docs/semantics.md; Morin 1998 for the policies).
//
// One discrete-event simulation serves every protocol of the family. The pool holds width*levels
// tasks. One processor is the master; the others are slaves. A message costs C and is a rendezvous:
// the master talks to one peer at a time and its communication blocks are atomic.
//
// Rules shared by every protocol below:
// - A slave that finishes a task becomes ready; the master serves the ready slaves first come,
//   first served by the time they became ready. Serving a slave is one atomic block: receive its
//   result (C), then at once send it its next task (C) if the policy has one for it; a slave with
//   nothing left to do stops. A block starts when both ends are free: at the later of the end of
//   the master's previous block and the slave's ready time (but see negative times below).
// - Ties between equal ready times go to the lowest processor index; the master's own result (if
//   it computes) counts as ready when its task ends, with the master's index.
// - Time 0: every slave is ready and has no result yet, so its first block is the send alone (C).
//   The master sends the first tasks in slave index order (the fast slaves first: they have the
//   lowest indices), one after another, so the k-th slave served starts at kC; its own first task
//   comes when no slave is waiting any more (normally right after the last first send; earlier
//   finishers are served first if C is large enough for a slave to finish before that).
// - If the master computes, its own tasks follow the slave rules with itself as peer: a self-send
//   before the computation and a self-return after it, each costing the protocol's own-task cost;
//   the self-return of one own task and the self-send of the next form one atomic block. Its
//   computation is pre-emptive: a block that starts while it computes (a slave became ready) is
//   served at once and the own task's end moves back by the block's length. The master starts a
//   new own task (a self-send not joined to a self-return) only when no slave is waiting, and
//   never before time 0.
// - A slave's task starts when its send ends; task times are drawn from the computing processor's
//   own stream (times.next(processor)), in the order of that processor's tasks.
// - Negative task times (untruncated normal laws) are kept algebraically: a task ends at its start
//   plus its time, whatever the sign. The receipt of a result that directly follows the send of
//   that same task (the master's previous block sent this peer its task, itself included) waits
//   only for the task: it starts at the peer's ready time, even when a negative time puts that
//   before the end of the send, and the master's clock goes back with it. Any other block waits
//   for the end of the master's previous block as well (a slave whose task "ended" earlier is
//   simply waiting). With times >= 0 the exception changes nothing (the ready time is then never
//   before the end of the send). It makes C = 0 the zero-communication task pool for every law,
//   and it is what fits the paper's normal-law Table 5: clipping instead (every block waits for
//   the master) puts Table 5 about 0.4% high on average (worst 1.2%) and the normal values above
//   the uniform ones, where the paper has them below; this rule gives worst 0.46%, mean 0.04% on
//   the cells the paper did not copy from Table 8 (see master_slave_protocol_names below).
// - The makespan is the latest end among each processor's last task: results still on their way
//   to the master are not counted (Wilson's 7997 against np*2C = 8000).
//
// Dealing policies (CommSetup::policy):
// - dynamic: every task comes from the shared pool, so it goes to whichever computing processor
//   is served next (Morin's overpartitioning).
// - equal: a static split of the width*levels tasks into equal quotas among the processors that
//   compute (Morin's ostrich approach); floor(T/K) each, the T mod K remaining tasks one each to
//   the lowest-indexed computing processors.
// - proportional: a static split by speed s_i = 1/mean_task_time[i] (HCGM; for two speeds and C = 0
//   Wilson's Eq. 14-16 x and y up to their rounding): processor i's exact share is T*s_i/sum(s);
//   each gets the floor of its share and the remaining tasks go one each to the largest
//   fractional parts, lowest index first on ties (the largest-remainder rule), so the quotas add
//   up to T. Like HCGM, this split ignores communication.
// - balanced: the same split with s_i = 1/(mean_task_time[i] + 2C): Wilson's Eq. 15 balances each
//   task's computation plus its two communications, so for two speeds this is Eq. 14-16's x and y
//   at any C, up to the rounding (largest remainder here, where Eq. 16 takes ceilings).
// - equal-finish: a static split that makes every computing processor's expected finish time
//   equal, counting the master's dealing. With T = width*levels tasks, w_j = 1/(E(X_j) + 2C) for
//   each computing slave j and S = sum_j w_j: a slave that is never kept waiting finishes its q_j
//   tasks at q_j/w_j (receive C, compute, return C, per task); the master, which is never idle
//   while tasks remain, finishes at 2C (T - q_M) + q_M (E(X_M) + 2c), c = C for master-computes
//   (its own tasks cost 2C too, as the reading says), 0 for master-free-own. Setting both to the
//   same F with q_j = F w_j and q_M = T - F S gives
//     q_M = T (1 - 2CS) / (1 + S (E(X_M) + 2c - 2C)),   q_j = (T - q_M) w_j / S,
//   when 2CS < 1, else q_M = 0 and the slaves split T by w_j (balanced among the slaves). 2CS is
//   the fraction of the master's time that keeping every slave busy takes: the master keeps the
//   rest for its own tasks, so its quota falls with C and is 0 from C = 1/(2S) on (the
//   denominator is positive: it is (1 - 2CS) + S (E(X_M) + 2c) > 0). At C = 0 this is the
//   proportional split. The real shares are rounded like proportional's (largest remainder). A
//   master that does not compute (master-idle) gets 0 and the slaves split by w_j. This is a
//   fluid model: it ignores slaves queueing for the master and the end of the schedule.
// Under a static policy a served slave's next task comes from its own quota; once the quota is
// spent the slave stops (its last result is still received: C). The master's own tasks come from
// its own quota too.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "engine/kernel/communication.h"

namespace hetstruct::engine {

namespace {

using Policy = DealingPolicy;

// The one list of dealing policies (master_slave_policies() publishes it), the default first.
const std::vector<MasterSlavePolicy>& policy_table() {
  static const std::vector<MasterSlavePolicy> table = {
      {Policy::dynamic, "dynamic", "overpartitioning", "every task from the shared pool to whichever processor is served next"},
      {Policy::equal, "equal", "ostrich", "a static equal split among the computing processors"},
      {Policy::proportional, "proportional", "hcgm", "a static split by speed 1/E(X), largest remainder rounding"},
      {Policy::balanced, "balanced", "wilson_eq15", "a static split by 1/(E(X) + 2C), Wilson's Eq. 15"},
      {Policy::equal_finish, "equal-finish", "equal_finish",
       "a static split that equalises expected finish times, the master's 2C per task dealt included"},
  };
  return table;
}

// The parts of the rules that differ between the protocols of the family.
struct Roles {
  int master = 0;                  // the master's processor index
  bool master_computes = true;     // does the master take tasks from the pool?
  bool own_tasks_communicate = true;  // does each own task cost the master a self-send and a self-return of C?
};

// equal-finish's real shares (see the comment at the top): the master's quota from the fraction
// of its time the slaves leave it, the slaves' shares by w_j = 1/(E(X_j) + 2C).
std::vector<double> equal_finish_shares(const CommSetup& setup, const Roles& roles, const std::vector<bool>& computes,
                                        std::int64_t tasks) {
  const int n = setup.width;
  const double c = setup.comm_cost, total = static_cast<double>(tasks);
  std::vector<double> w(n, 0.0), share(n, 0.0);
  double s = 0.0;
  for (int j = 0; j < n; ++j)
    if (computes[j] && j != roles.master) s += w[j] = 1.0 / (setup.mean_task_time.at(j) + 2.0 * c);
  double master = 0.0;
  if (computes[roles.master] && 2.0 * c * s < 1.0) {
    const double own = roles.own_tasks_communicate ? c : 0.0;
    master = total * (1.0 - 2.0 * c * s) / (1.0 + s * (setup.mean_task_time.at(roles.master) + 2.0 * own - 2.0 * c));
    share[roles.master] = master;
  }
  for (int j = 0; j < n; ++j)
    if (w[j] > 0.0) share[j] = (total - master) * w[j] / s;
  return share;
}

// Static quotas (equal, proportional, balanced, equal-finish) of `tasks` among the processors with
// computes[i].
std::vector<std::int64_t> static_quotas(Policy policy, const CommSetup& setup, const Roles& roles,
                                        const std::vector<bool>& computes, std::int64_t tasks) {
  const int n = setup.width;
  std::vector<std::int64_t> quota(n, 0);
  std::vector<double> weight(n, 0.0);
  for (int i = 0; i < n; ++i)
    if (computes[i])
      weight[i] = policy == Policy::equal        ? 1.0
                  : policy == Policy::balanced ? 1.0 / (setup.mean_task_time.at(i) + 2.0 * setup.comm_cost)
                                               : 1.0 / setup.mean_task_time.at(i);
  if (policy == Policy::equal) {
    // Integer arithmetic: floor(T/K) each, the remainder to the lowest indices.
    const auto k = static_cast<std::int64_t>(std::count(computes.begin(), computes.end(), true));
    std::int64_t extra = tasks % k;
    for (int i = 0; i < n; ++i)
      if (computes[i]) {
        quota[i] = tasks / k + (extra > 0 ? 1 : 0);
        if (extra > 0) --extra;
      }
    return quota;
  }
  double total_weight = 0.0;
  for (const double w : weight) total_weight += w;
  const auto finish_shares =
      policy == Policy::equal_finish ? equal_finish_shares(setup, roles, computes, tasks) : std::vector<double>{};
  std::vector<double> remainder(n, -1.0);
  std::int64_t dealt = 0;
  for (int i = 0; i < n; ++i)
    if (computes[i]) {
      const double share = policy == Policy::equal_finish ? finish_shares[i]
                                                          : static_cast<double>(tasks) * weight[i] / total_weight;
      quota[i] = static_cast<std::int64_t>(std::floor(share));
      remainder[i] = share - std::floor(share);
      dealt += quota[i];
    }
  // Largest remainder: one more task each to the largest fractional parts, lowest index on ties.
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (computes[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return remainder[a] > remainder[b]; });
  // The floors leave fewer than K tasks (K = order.size()) undealt: one pass suffices.
  for (std::size_t j = 0; dealt < tasks; j = (j + 1) % order.size(), ++dealt) ++quota[order[j]];
  return quota;
}

class MasterSlave final : public Protocol {
 public:
  MasterSlave(const CommSetup& setup, Roles roles, Policy policy)
      : setup_(setup),
        roles_(roles),
        policy_(policy),
        tasks_(static_cast<std::int64_t>(setup.width) * setup.levels),
        own_cost_(roles.own_tasks_communicate ? setup.comm_cost : 0.0),
        last_end_(setup.width),
        has_result_(setup.width),
        draws_(setup.width) {
    std::vector<bool> computes(setup.width, true);
    if (!roles_.master_computes) computes[roles_.master] = false;
    if (policy_ != Policy::dynamic) quota_ = static_quotas(policy_, setup, roles_, computes, tasks_);
    left_.resize(quota_.size());
    ready_.reserve(setup.width);
  }

  double run(TaskTimes& times) override {
    log_ = times.log();
    return draws_.dispatch(times, setup_.width, [this](auto next) { return simulate(next); });
  }

 private:
  // One replication; next(i) is processor i's next task time (LawDraws: without a dispatch per
  // draw for uniform or normal laws).
  template <class Next>
  double simulate(Next next) {
    const int n = setup_.width;
    const int master = roles_.master;
    const double c = setup_.comm_cost;
    remaining_ = tasks_;
    std::copy(quota_.begin(), quota_.end(), left_.begin());
    std::fill(last_end_.begin(), last_end_.end(), minus_infinity);
    std::fill(has_result_.begin(), has_result_.end(), 0);

    // Time 0: every slave with work is ready for its first task (index order = heap order).
    ready_.clear();
    for (int j = 0; j < n; ++j)
      if (j != master && has_task(j)) ready_.push_back({0.0, j});
    std::make_heap(ready_.begin(), ready_.end(), later);

    double free_at = 0.0;  // end of the master's last communication block
    int last_sent = -1;    // the peer the last block sent a task to (-1: it sent none)
    bool own_active = false;
    double own_end = 0.0;  // end of the master's own task, moved back by pre-emptions
    while (own_active || remaining_ > 0) {
      // A new own task (a self-send on its own), only when no slave is waiting. The master is
      // there from time 0: its first self-send never starts earlier, even if a negative task
      // time moved its clock back.
      const double now = std::max(free_at, 0.0);
      const bool slave_waiting = !ready_.empty() && ready_.front().ready <= now;
      if (!own_active && roles_.master_computes && has_task(master) && !slave_waiting) {
        take(master);
        free_at = now + own_cost_;
        last_sent = master;
        own_end = free_at + next(master);
        own_active = true;
        continue;
      }
      // The master's own result, when it is first in line: self-return, and the self-send of the
      // next own task in the same block.
      if (own_active && (ready_.empty() || own_first(own_end, ready_.front()))) {
        const double start = last_sent == master ? own_end : std::max(free_at, own_end);
        last_end_[master] = own_end;
        double block = own_cost_;
        own_active = has_task(master);
        if (own_active) {
          take(master);
          block += own_cost_;
        }
        free_at = start + block;
        last_sent = own_active ? master : -1;
        if (own_active) own_end = free_at + next(master);
        continue;
      }
      if (ready_.empty()) break;  // static quotas: nobody left who may take the remaining tasks
      // The first slave in line: receive its result (if any), send its next task (if any).
      const auto [ready, j] = ready_.front();
      const double start = last_sent == j ? ready : std::max(free_at, ready);
      double block = has_result_[j] ? c : 0.0;
      const bool more = has_task(j);
      if (more) {
        take(j);
        block += c;
      }
      if (own_active && own_end > start) own_end += block;  // the block pre-empts the own task
      free_at = start + block;
      last_sent = more ? j : -1;
      if (more) {
        if (log_ && log_->wants_dealing()) log_dealing(j, free_at, own_active ? own_end : minus_infinity);
        const double end = free_at + next(j);
        last_end_[j] = end;
        has_result_[j] = 1;
        replace_first({end, j});
      } else {
        std::pop_heap(ready_.begin(), ready_.end(), later);
        ready_.pop_back();
      }
    }
    // Results still on their way change no task's end: the makespan is the latest last task.
    double makespan = minus_infinity;
    for (const double end : last_end_) makespan = std::max(makespan, end);
    return makespan == minus_infinity ? 0.0 : makespan;
  }

  static constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

  struct Ready {
    double ready;
    int processor;
  };
  // Heap order: earliest ready time first, lowest processor index on ties.
  static bool later(const Ready& a, const Ready& b) {
    return (a.ready > b.ready) | ((a.ready == b.ready) & (a.processor > b.processor));
  }
  // Puts `e` in place of the first slave in line and restores the heap: one sift-down where a pop
  // and a push would take two. (later() is a total order, so the line is the same either way.)
  void replace_first(Ready e) {
    const std::size_t n = ready_.size();
    std::size_t i = 0;
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      // The earlier child, without a branch: the comparisons of random times do not predict.
      child += static_cast<std::size_t>((child + 1 < n) & later(ready_[child], ready_[std::min(child + 1, n - 1)]));
      if (!later(e, ready_[child])) break;
      ready_[i] = ready_[child];
      i = child;
    }
    ready_[i] = e;
  }

  // The state before slave j's draw (j first in line; free_at the start of its task), for the
  // dealing controls. A master computing an own task (ending at own_end) is in line like a slave:
  // its self-return and next self-send are one block, as a slave's receipt and send.
  void log_dealing(int j, double start, double own_end) {
    const std::size_t begin = log_->line.size();
    for (std::size_t i = 1; i < ready_.size(); ++i) log_->line.push_back({ready_[i].ready, ready_[i].processor});
    if (own_end > minus_infinity) log_->line.push_back({own_end, roles_.master});
    const auto line_begin = log_->line.begin() + static_cast<std::ptrdiff_t>(begin);
    std::sort(line_begin, log_->line.end(), [](const DrawLog::Waiting& a, const DrawLog::Waiting& b) {
      return a.ready != b.ready ? a.ready < b.ready : a.processor < b.processor;
    });
    in_line_.assign(static_cast<std::size_t>(setup_.width), 0);
    in_line_[static_cast<std::size_t>(j)] = 1;
    for (auto w = line_begin; w != log_->line.end(); ++w) in_line_[static_cast<std::size_t>(w->processor)] = 1;
    double settled = minus_infinity;
    for (int p = 0; p < setup_.width; ++p)
      if (!in_line_[static_cast<std::size_t>(p)]) settled = std::max(settled, last_end_[p]);
    log_->dealings.push_back({log_->processor.size(), start, j, remaining_, settled, begin, log_->line.size()});
  }

  bool own_first(double own_end, const Ready& slave) const {
    return own_end != slave.ready ? own_end < slave.ready : roles_.master < slave.processor;
  }

  bool has_task(int processor) const {
    return policy_ == Policy::dynamic ? remaining_ > 0 : left_[processor] > 0;
  }
  void take(int processor) {
    --remaining_;
    if (policy_ != Policy::dynamic) --left_[processor];
  }

  CommSetup setup_;
  Roles roles_;
  Policy policy_;
  std::int64_t tasks_;
  double own_cost_;
  std::vector<std::int64_t> quota_;  // static policies: tasks per processor
  // Per replication state, sized here so that run() allocates nothing.
  std::int64_t remaining_ = 0;
  std::vector<std::int64_t> left_;
  std::vector<double> last_end_;
  std::vector<char> has_result_;
  std::vector<Ready> ready_;
  LawDraws draws_;
  DrawLog* log_ = nullptr;  // the replication's log, if kept
  std::vector<char> in_line_;  // log_dealing's scratch
};

}  // namespace

// master-computes (the default; docs/semantics.md, Tables 5 and 8 reproduced): processor 0 is
// the master (a fast one if m > 0, so m-1 fast slaves come first, then n-m slow ones; a slow one if
// m = 0); it computes pool tasks too, each own task costing it 2C (self-send C, self-return C).
// This is what Wilson's Eq. 15 charges: two communication units for every task. Fit (1000
// replications per cell): Table 8 worst 0.65%, mean 0.03% (the worst cell, (4,1) a = 1/2
// C = .15, disagrees with the paper's own a = 4/5 row); Table 5 worst 0.87%, mean 0.06%, or
// worst 0.46%, mean 0.04% without the a = 4/5, C = .10 row the paper copied from Table 8.
//
// master-idle: processor 0 is the master and never computes; it only deals the width*levels tasks
// to the n-1 slaves (needs n >= 2). The structure behind the n' = n-1 of Eq. 13's upper bound.
//
// master-free-own: as master-computes, but the master's own tasks cost no communication (it hands
// tasks to itself for free); still pre-emptive, and it starts a new own task only when no slave is
// waiting.
//
// master-computes-slow-master: as master-computes, but the master is processor n-1, a slow one
// when m < n (so all m fast processors are slaves, listed first). With m = 0 it is master-computes
// up to processor numbering (tie-breaking by index).
//
// At C = 0 every block lasts 0 and every task starts at its processor's ready time (a block can
// wait for the master's previous one only if that ended later, which at C = 0 only a negative time
// of the task just sent can cause, and the rule on negative times lets that receipt go first).
// Tasks are then dealt in order of ready time, lowest index first on ties, which is the
// zero-communication task pool (evaluate_task_pool): master-computes and master-free-own with the
// dynamic policy reduce to it bit for bit (the same additions, ready + X), negative times
// included. The one difference is the order of the first deals at time 0 (the pool serves
// processor 0 first, this protocol the slaves first), which changes no start time and matters
// only if the pool runs out before every processor has had a task: never with n*p tasks and
// times >= 0. master-computes-slow-master at C = 0 is the same pool with the master's index moved
// (ties broken differently), master-idle a pool of n-1 processors.
//
// Table 5 (normal laws), a = 4/5, C = .10: the paper's nine values are exactly Table 8's
// (uniform) row, a copy; the a = 1/2 row (972 and 1061 at (4,0), (5,0)) is the normal one, and
// this protocol gives 972.2 and 1060.7 there. (The registry, master_slave_protocols(), is below.)

namespace {

// The protocols of the family: each a name, a line and the roles it gives (the registry below is
// built from this list, so an entry's roles are found by its place).
struct MasterSlaveProtocol {
  const char* name;
  const char* summary;
  Roles roles;
};
constexpr MasterSlaveProtocol family_table[] = {
    {"master-computes", "processor 0 deals 2C a task and computes its own tasks at 2C each, pre-empted by slaves",
     {0, true, true}},
    {"master-idle", "the master only deals", {0, false, true}},
    {"master-free-own", "the master's own tasks cost no communication", {0, true, false}},
    {"master-computes-slow-master", "master-computes with the master on the last (slow) processor", {-1, true, true}},
};

// A protocol's roles (master -1: the last processor), after the checks every protocol of the
// family makes.
Roles checked_roles(const MasterSlaveProtocol& protocol, const CommSetup& setup, Policy policy) {
  if (setup.width < 1) throw InputError("width", "the master-slave structure needs at least one processor");
  Roles roles = protocol.roles;
  if (roles.master < 0) roles.master = setup.width - 1;
  if (!roles.master_computes && setup.width < 2)
    throw InputError("protocol", std::string(protocol.name) + " needs at least one slave", "use n >= 2 or master-computes");
  if (policy == Policy::proportional || policy == Policy::balanced || policy == Policy::equal_finish) {
    if (static_cast<int>(setup.mean_task_time.size()) < setup.width)
      throw InputError("policy", std::string(to_string(policy)) + " dealing needs every processor's mean task time");
    for (int i = 0; i < setup.width; ++i) {
      const double mean = setup.mean_task_time[i];
      if (!(mean > 0.0) || !std::isfinite(mean))
        throw InputError("policy", std::string(to_string(policy)) + " dealing needs positive, finite mean task times",
                         "processor " + std::to_string(i) + " has mean " + std::to_string(mean));
    }
  }
  return roles;
}

}  // namespace

namespace {

template <std::size_t I>
std::unique_ptr<Protocol> master_slave(const CommSetup& setup) {
  return std::make_unique<MasterSlave>(setup, checked_roles(family_table[I], setup, setup.policy), setup.policy);
}

template <std::size_t I>
ProtocolEntry entry() {
  return {family_table[I].name, family_table[I].summary, master_slave<I>};
}

}  // namespace

const std::vector<ProtocolEntry>& master_slave_protocols() {
  static const std::vector<ProtocolEntry> family = {entry<0>(), entry<1>(), entry<2>(), entry<3>()};
  static_assert(std::size(family_table) == 4, "one registry entry per protocol of the table");
  return family;
}

std::vector<std::string> master_slave_protocol_names() { return names_of(master_slave_protocols()); }

std::unique_ptr<Protocol> make_master_slave_protocol(const std::string& name, const CommSetup& setup) {
  return make_from(master_slave_protocols(), "master-slave", name, setup);
}

std::vector<MasterSlavePolicy> master_slave_policies() { return policy_table(); }

const char* to_string(DealingPolicy policy) {
  for (const auto& entry : policy_table())
    if (entry.policy == policy) return entry.name.c_str();
  throw std::logic_error("to_string: unknown dealing policy");
}

DealingPolicy parse_policy(const std::string& name) {
  std::string list;
  for (const auto& entry : policy_table()) {
    if (entry.name == name) return entry.policy;
    list += (list.empty() ? "" : ", ") + entry.name;
  }
  throw InputError("policy", "unknown master-slave dealing policy '" + name + "'", "choose " + list);
}

std::vector<std::int64_t> master_slave_quotas(const ProtocolEntry& protocol, const CommSetup& setup) {
  const auto& family = master_slave_protocols();
  std::size_t i = 0;
  while (i < family.size() && &protocol != &family[i]) ++i;
  if (i == family.size()) throw std::invalid_argument("master_slave_quotas: not a master-slave protocol");
  const Roles roles = checked_roles(family_table[i], setup, setup.policy);
  if (setup.policy == Policy::dynamic) return {};
  std::vector<bool> computes(setup.width, true);
  if (!roles.master_computes) computes[roles.master] = false;
  return static_quotas(setup.policy, setup, roles, computes, static_cast<std::int64_t>(setup.width) * setup.levels);
}

}  // namespace hetstruct::engine
