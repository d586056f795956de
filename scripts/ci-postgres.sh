#!/usr/bin/env bash
# Runs the server suite a second time against a real PostgreSQL on loopback (see with-postgres.sh).
# Test paths may follow, e.g. `npm run test:postgres -- server/cluster`.
#
# Left out: the files that never touch PostgreSQL, so a second run would repeat the first word for
# word: those that start the embedded database on purpose (DATA_DIR, its lock, its backups), the
# command line, and the parts that use no database at all (the model's wire format, file reading,
# addresses, WeChat's signatures, the build and bundle checks).
set -euo pipefail
cd "$(dirname "$0")/.."
without=(
  server/start.test.ts server/ops/backup.test.ts server/main.test.ts
  'server/agents/**' 'server/media/{text-reader,read-text,sniff,provider-picture}.test.ts'
  'server/http/{client-address,redact,user-agent}.test.ts' 'server/net/**' 'server/wechat/**'
  server/routes/delta-batcher.test.ts server/sign-in-summary.test.ts server/test/server-build.test.ts
  'server/db/{pglite-pipelined,message-versions-migration,search-migration,agent-studio-migration}.test.ts' 'tests/tools/**'
)
excludes=()
if [ "$#" -eq 0 ]; then for pattern in "${without[@]}"; do excludes+=(--exclude "$pattern"); done; fi
exec bash scripts/with-postgres.sh node_modules/.bin/vitest run --project server "${excludes[@]}" "$@"
