#!/usr/bin/env bash
# Every Catch2 test file wraps its text in a namespace named after it (tests/CMakeLists.txt): in a
# unity batch all unnamed namespaces are one, and a helper that met another file's of the same name
# could be chosen over it silently.
#   test_namespaces.sh SOURCE_DIR
set -u
cd "$1/tests" || exit 2
status=0
for f in *_test.cpp; do
  stem=${f%.cpp}
  if ! grep -q "^namespace $stem {" "$f" || ! grep -q "^}  // namespace $stem\$" "$f"; then
    echo "tests/$f: not wrapped in 'namespace $stem { ... }  // namespace $stem'" >&2
    status=1
  fi
done
exit $status
