#!/usr/bin/env bash
# Runs the server suite a second time against a real PostgreSQL on loopback (see with-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-postgres.sh node_modules/.bin/vitest run --project server
