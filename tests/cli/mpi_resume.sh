#!/usr/bin/env bash
# An MPI sweep is checkpointed and resumable like a one-process one (issue 38): rank 0 writes the
# complete configurations to --out as every rank's blocks come in, so that a lost rank (SIGKILL of
# rank 1: mpirun then stops rank 0 with SIGTERM) or Ctrl-C (SIGINT to rank 0) leaves the
# configurations complete so far, whole; --resume, under mpirun or in one process, then writes the
# same file, byte for byte, as an uninterrupted one-process sweep. And a second writer of the same
# --out under mpirun is refused at once (exit status 2). About 3 s of CPU.
#
#   tests/cli/mpi_resume.sh BINARY
#
# BINARY is hetstruct built with HETSTRUCT_MPI=ON. Exit 0 when every check holds, 1 when one does
# not, 77 (skipped) without mpirun.
set -u
binary=${1:?usage: mpi_resume.sh BINARY}
command -v mpirun >/dev/null || { echo "mpi_resume.sh: no mpirun, skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-mpi-resume.XXXXXX") || exit 2
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mpi=(mpirun -n 2 --oversubscribe --allow-run-as-root --bind-to none)

# Sixteen configurations of about 0.06 s each on one thread (1 s in all); a checkpoint after
# each complete one. The sanitizer build (tests/sanitize.sh) sets HETSTRUCT_INTERRUPT_REPS lower.
reps=${HETSTRUCT_INTERRUPT_REPS:-10000}
grid=(sweep -s sync --n 4,8 --m 0:3 --a 1/2,4/5 --levels 400 --reps "$reps" --seed 5 --threads 1 --checkpoint-every 0 --quiet)
configs=16
"$binary" "${grid[@]}" --out "$tmp/whole.csv" || fail "the uninterrupted one-process sweep"

# The PID of rank $2 among the processes mpirun $1 started (Open MPI's OMPI_COMM_WORLD_RANK).
rank_pid() {
  local child
  for child in $(pgrep -P "$1"); do
    tr '\0' '\n' <"/proc/$child/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$child"; return; }
  done
}

# Starts the MPI sweep into $1, waits for its first checkpoint, sends signal $3 to rank $2; sets
# kept (the configurations in the file) and rc (mpirun's exit status).
signal_rank_after_checkpoint() {
  local out=$1 rank=$2 signal=$3 waited=0 pid
  "${mpi[@]}" "$binary" "${grid[@]}" --out "$out" >"$tmp/stdout" 2>"$tmp/stderr" &
  local launcher=$!
  until [ -s "$out" ]; do
    kill -0 "$launcher" 2>/dev/null || fail "the MPI sweep ended before its first checkpoint: $(cat "$tmp/stderr")"
    sleep 0.02
    waited=$((waited + 1))
    [ "$waited" -lt 15000 ] || fail "no checkpoint after 300 s"
  done
  pid=$(rank_pid "$launcher" "$rank")
  [ -n "$pid" ] || fail "rank $rank of mpirun $launcher not found"
  kill "-$signal" "$pid"
  wait "$launcher"
  rc=$?
  kept=$(grep -c ',mc,' "$out") || kept=0
  # A checkpoint is a whole CSV: the header, then complete configurations (each ends with its mc row).
  [ "$(tail -n 1 "$out" | grep -c ',mc,')" -eq 1 ] || fail "$signal to rank $rank: the file ends mid-configuration"
  [ "$kept" -ge 1 ] && [ "$kept" -lt "$configs" ] || fail "$signal to rank $rank: $kept configurations kept, expected 1 to $((configs - 1)) (the run was not cut)"
}

# 1. Rank 1 lost: rank 0's checkpoints keep the complete configurations; mpirun --resume finishes.
signal_rank_after_checkpoint "$tmp/lost.csv" 1 KILL
[ "$rc" -ne 0 ] || fail "mpirun reported success although rank 1 was killed"
"${mpi[@]}" "$binary" "${grid[@]}" --out "$tmp/lost.csv" --resume || fail "mpirun --resume after a lost rank"
cmp -s "$tmp/whole.csv" "$tmp/lost.csv" || fail "the MPI sweep resumed after a lost rank differs from the one-process sweep"
[ ! -e "$tmp/lost.csv.lock" ] || fail "the resumed sweep left its lock file"
echo "ok: rank 1 killed after $kept of $configs configurations were checkpointed; mpirun --resume wrote the one-process file"

# 2. Ctrl-C on rank 0: it writes the configurations complete then, and stops every rank (130).
signal_rank_after_checkpoint "$tmp/int.csv" 0 INT
[ "$rc" -eq 130 ] || fail "SIGINT to rank 0: mpirun's exit status $rc, expected 130"
grep -q "complete configurations are in .*int.csv (--resume continues)" "$tmp/stderr" || fail "SIGINT to rank 0: stderr was: $(cat "$tmp/stderr")"
"$binary" "${grid[@]}" --out "$tmp/int.csv" --resume || fail "the one-process --resume of an interrupted MPI sweep"
cmp -s "$tmp/whole.csv" "$tmp/int.csv" || fail "the one-process sweep resumed after an interrupted MPI sweep differs"
echo "ok: rank 0 interrupted (SIGINT) after $kept of $configs configurations; the one-process --resume wrote the same file"

# 3. Under mpirun too a second writer of one --out is refused at once (rank 0 holds no lock: it
#    stops every rank with status 2); the first, a one-process sweep, is then interrupted.
#    The first is far too long to end on its own while mpirun starts (a minute on one thread).
long=(sweep -s sync --n 4,8 --m 0:3 --a 1/2,4/5 --levels 400 --reps 1000000 --seed 5 --threads 1 --checkpoint-every 0 --quiet)
"$binary" "${long[@]}" --out "$tmp/held.csv" 2>/dev/null &
first=$!
until [ -e "$tmp/held.csv.lock" ]; do kill -0 "$first" 2>/dev/null || fail "the first sweep ended early"; sleep 0.02; done
"${mpi[@]}" "$binary" "${grid[@]}" --out "$tmp/held.csv" >/dev/null 2>"$tmp/stderr"
rc=$?
kill -0 "$first" 2>/dev/null || fail "the first sweep ended before the second writer was refused"
kill -INT "$first"
{ wait "$first"; } 2>/dev/null
[ "$rc" -eq 2 ] || fail "a second writer under mpirun: exit status $rc, expected 2"
grep -qF "is being written by process $first (hetstruct)" "$tmp/stderr" || fail "a second writer under mpirun said: $(cat "$tmp/stderr")"
echo "ok: a second writer under mpirun was refused with status 2, naming process $first"
