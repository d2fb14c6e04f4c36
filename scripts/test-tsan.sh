#!/usr/bin/env bash
# Builds with ThreadSanitizer into build-tsan/ and runs every test there: the engine thread, the A/B runner,
# the deferred-init threads, the recorder and the UI thread must be free of data races. Arguments go to ctest.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
PCPLAB_SANITIZE=thread exec "$here/scripts/test.sh" "$@"
