#!/usr/bin/env bash
# The architecture map is whole: every *.cpp and *.h under the library and CLI folders (and *.py of
# the Python front end) appears, in
# backticks, in docs/architecture.md. Found with find, not git, so that it runs from any copy.
#   docs_map.sh SOURCE_DIR
set -u
cd "$1" || exit 2
map=docs/architecture.md
[ -f "$map" ] || { echo "FAIL: $map is missing" >&2; exit 1; }
missing=0 count=0
while IFS= read -r file; do
  count=$((count + 1))
  if ! grep -qF "\`$file\`" "$map"; then
    echo "FAIL: $file is not in $map (add a row to its table of source files)" >&2
    missing=$((missing + 1))
  fi
done < <(find bounds cli distributions engine structures python -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.py' \) | LC_ALL=C sort)
if [ "$count" -eq 0 ]; then
  echo "FAIL: no source file found under $PWD" >&2
  exit 1
fi
if [ "$missing" -gt 0 ]; then
  echo "FAIL: $missing of $count source files missing from $map" >&2
  exit 1
fi
echo "ok: all $count source files are in $map"
