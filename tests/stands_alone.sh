#!/usr/bin/env bash
# The repository stands alone: no file cites what lies outside it (the project's shared folder of
# papers and notes, or its semantics note by name). What the code relies on is in docs/.
#   stands_alone.sh SOURCE_DIR
set -u
cd "$1" || exit 2
self=tests/stands_alone.sh
found=$(grep -rIn --exclude-dir='build*' --exclude-dir=.git -e '\.\./shared' -e 'wilson-semantics' \
          -e 'shared/papers' -e 'shared/notes' . | grep -v "^\./$self:")
if [ -n "$found" ]; then
  echo "FAIL: files cite what lies outside the repository (docs/ holds the project's own copy):" >&2
  echo "$found" >&2
  exit 1
fi
echo "ok: no file cites outside the repository"
