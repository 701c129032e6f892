#!/usr/bin/env bash
# The boundaries of the server's code (eslint.config.js): import cycles, Kysely outside repositories,
# branches on the database outside src/db, engines entered past their door, floating promises.
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx eslint --max-warnings 0 src "$@"
