#!/usr/bin/env bash
# The floors hold: a file includes only headers of its own floor or of a floor below it. The
# top-level folders stand in this order (distributions lowest), and engine/ in its own floors,
# sweep, wilson and hbsp side by side at the top (neither includes another):
#   distributions < structures < bounds < engine (kernel < driver < estimators < simulate <
#   sweep | wilson | hbsp) < cli | python (two front ends, neither includes the other)
# CMakeLists.txt links the libraries the same way, so the linker refuses a call back up too.
#   layers.sh SOURCE_DIR
set -u
cd "$1" || exit 2
rank() {  # a file's floor: "rank group" (files of one group may include each other)
  case $1 in
    distributions/*) echo "1 distributions" ;;
    structures/*) echo "2 structures" ;;
    bounds/*) echo "3 bounds" ;;
    engine/kernel/*) echo "4 kernel" ;;
    engine/driver/*) echo "5 driver" ;;
    engine/estimators/*) echo "6 estimators" ;;
    engine/simulate/*) echo "7 simulate" ;;
    engine/sweep/*) echo "8 sweep" ;;
    engine/wilson/*) echo "8 wilson" ;;
    engine/hbsp/*) echo "8 hbsp" ;;
    engine/fit/*) echo "8 fit" ;;
    engine/*) echo "unplaced" ;;
    cli/*) echo "9 cli" ;;
    python/*) echo "9 python" ;;
    *) echo "outside" ;;
  esac
}
bad=0 count=0
while IFS= read -r file; do
  read -r from_rank from_group <<<"$(rank "$file")"
  if [ "$from_rank" = unplaced ]; then
    echo "FAIL: $file is directly in engine/: put it in the floor it belongs to" >&2
    bad=$((bad + 1)); continue
  fi
  while IFS= read -r header; do
    count=$((count + 1))
    read -r to_rank to_group <<<"$(rank "$header")"
    [ "$to_rank" = outside ] && continue
    if [ "$to_rank" = unplaced ] || [ "$to_rank" -gt "$from_rank" ] ||
       { [ "$to_rank" -eq "$from_rank" ] && [ "$to_group" != "$from_group" ]; }; then
      echo "FAIL: $file ($from_group) includes $header ($to_group), a floor above or beside it" >&2
      bad=$((bad + 1))
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find distributions structures bounds engine cli python -type f \( -name '*.cpp' -o -name '*.h' \) | LC_ALL=C sort)
if [ "$count" -eq 0 ]; then
  echo "FAIL: no include found under $PWD" >&2
  exit 1
fi
if [ "$bad" -gt 0 ]; then
  echo "FAIL: $bad includes cross the floors" >&2
  exit 1
fi
echo "ok: $count includes, none crosses a floor upwards"
