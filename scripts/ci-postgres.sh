#!/usr/bin/env bash
# Runs the server suite a second time against a real PostgreSQL on loopback (see with-postgres.sh).
# Test paths may follow, e.g. `npm run test:postgres -- server/cluster`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-postgres.sh node_modules/.bin/vitest run --project server "$@"
