#!/usr/bin/env bash
# One CLI transcript case: run hetstruct, check exit status, stdout and stderr.
#
#   run_case.sh BINARY EXIT STDOUT_SPEC STDERR_SPEC [ARG...]
#
# EXIT         the exact exit status expected.
# STDOUT_SPEC  checks joined by ' && ':
#                empty | nonempty | lines=N
#                first~ERE   the first line matches
#                any~ERE     some line matches
#                none~ERE    no line matches
#                ERE         (no keyword) same as first~ERE
# STDERR_SPEC  when EXIT is not 0: an ERE that stderr, which must be exactly ONE line, matches;
#              when EXIT is 0: empty | any | an ERE that some line of stderr matches.
#
# The error rule (EXIT != 0): nothing at all on stdout, exactly one newline-terminated line on
# stderr. Regexes are POSIX extended (grep -E). stdin is /dev/null. On failure every problem is
# listed, followed by the command and its full stdout and stderr.
set -u

if [ $# -lt 4 ]; then
  echo "usage: run_case.sh BINARY EXIT STDOUT_SPEC STDERR_SPEC [ARG...]" >&2
  exit 2
fi
binary=$1 want_status=$2 stdout_spec=$3 stderr_spec=$4
shift 4

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/stdout err=$tmp/stderr

"$binary" "$@" </dev/null >"$out" 2>"$err"
status=$?

problems=()
fail() { problems+=("$1"); }

# Lines in a file, counting a last line without its newline.
count_lines() {
  local n
  n=$(wc -l <"$1")
  if [ -s "$1" ] && [ "$(tail -c1 "$1" | od -An -c | tr -d ' ')" != '\n' ]; then n=$((n + 1)); fi
  echo "$n"
}

describe_status() {
  if [ "$1" -gt 128 ] && [ "$1" -le 192 ]; then
    echo "$1 (killed by signal SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo $(($1 - 128))))"
  else
    echo "$1"
  fi
}

# --- exit status ---
if [ "$status" != "$want_status" ]; then
  fail "exit status: expected $want_status, got $(describe_status "$status")"
fi

# --- stdout ---
check_stdout() {
  local spec=$1 kind arg
  case $spec in
    empty)     kind=empty ;;
    nonempty)  kind=nonempty ;;
    lines=*)   kind=lines arg=${spec#lines=} ;;
    first~*)   kind=first arg=${spec#first~} ;;
    any~*)     kind=any arg=${spec#any~} ;;
    none~*)    kind=none arg=${spec#none~} ;;
    *)         kind=first arg=$spec ;;
  esac
  case $kind in
    empty)    [ -s "$out" ] && fail "stdout: expected empty, got $(wc -c <"$out") bytes" ;;
    nonempty) [ -s "$out" ] || fail "stdout: expected output, got nothing" ;;
    lines)
      local n; n=$(count_lines "$out")
      [ "$n" = "$arg" ] || fail "stdout: expected $arg line(s), got $n" ;;
    first)
      local first; first=$(head -n1 "$out")
      printf '%s\n' "$first" | grep -Eq -- "$arg" ||
        fail "stdout: first line does not match /$arg/: got '$first'" ;;
    any)  grep -Eq -- "$arg" "$out" || fail "stdout: no line matches /$arg/" ;;
    none) grep -Eq -- "$arg" "$out" && fail "stdout: a line matches /$arg/ (none should): '$(grep -Em1 -- "$arg" "$out")'" ;;
  esac
  return 0
}

# Split STDOUT_SPEC on ' && '.
rest=$stdout_spec
while :; do
  case $rest in
    *' && '*) check_stdout "${rest%% && *}"; rest=${rest#* && } ;;
    *) check_stdout "$rest"; break ;;
  esac
done

# --- stderr ---
if [ "$want_status" != 0 ]; then
  # The error rule: stdout empty, stderr exactly one newline-terminated line matching the regex.
  case $stdout_spec in empty) ;; *) fail "case file: an error case must use 'empty' for stdout" ;; esac
  nerr=$(count_lines "$err")
  if [ ! -s "$err" ]; then
    fail "stderr: expected one line matching /$stderr_spec/, got nothing"
  else
    [ "$nerr" = 1 ] || fail "stderr: expected exactly one line, got $nerr"
    [ "$(tail -c1 "$err" | od -An -c | tr -d ' ')" = '\n' ] || fail "stderr: the line does not end with a newline"
    grep -Eq -- "$stderr_spec" "$err" || fail "stderr: does not match /$stderr_spec/"
  fi
else
  case $stderr_spec in
    any) ;;
    empty) [ -s "$err" ] && fail "stderr: expected empty, got $(count_lines "$err") line(s)" ;;
    *) grep -Eq -- "$stderr_spec" "$err" || fail "stderr: no line matches /$stderr_spec/" ;;
  esac
fi

if [ ${#problems[@]} -eq 0 ]; then
  echo "ok: hetstruct $* (exit $status)"
  exit 0
fi

# A file's first 40 lines, each prefixed with '| ' (awk also ends a last line that has no newline).
show() { awk 'NR <= 40 { print "| " $0 } END { if (NR > 40) print "| ... (" NR - 40 " more lines)" }' "$1"; }

{
  echo "FAIL: hetstruct $*"
  for p in "${problems[@]}"; do echo "  - $p"; done
  echo "--- expected: exit $want_status, stdout [$stdout_spec], stderr [$stderr_spec]"
  printf '+++ actual:   exit %s\n' "$(describe_status "$status")"
  echo "+++ stdout ($(wc -c <"$out") bytes, $(count_lines "$out") lines):"
  show "$out"
  echo "+++ stderr ($(wc -c <"$err") bytes, $(count_lines "$err") lines):"
  show "$err"
} >&2
exit 1
