#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL on loopback: Debian's
# postgresql package, installed when missing, in a cluster that is removed afterwards.
# Usage: bash scripts/with-postgres.sh <command> [args...]   (PG_TEST_PORT picks the port)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
    echo "PostgreSQL is not installed. Install it with: sudo apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "Installing Debian's postgresql ..."
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

workdir=$(mktemp -d /tmp/kraken-pg.XXXXXX)
chown postgres "$workdir" 2>/dev/null || true
port=${PG_TEST_PORT:-55432}
as_pg() { if [ "$(id -u)" = "0" ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }

as_pg "'$bindir/initdb' -D '$workdir/data' -U postgres --auth=trust -E UTF8 >/dev/null"
as_pg "'$bindir/pg_ctl' -D '$workdir/data' -o \"-c listen_addresses=127.0.0.1 -p $port -k $workdir -c max_connections=300\" -l '$workdir/log' -w start >/dev/null"
cleanup() { as_pg "'$bindir/pg_ctl' -D '$workdir/data' -m fast stop >/dev/null" || true; rm -rf "$workdir"; }
trap cleanup EXIT

# For the fault suite: stops and starts this cluster (`bash $PG_TEST_CTL stop|start`).
cat > "$workdir/ctl.sh" <<CTL
#!/usr/bin/env bash
set -euo pipefail
as_pg() { if [ "\$(id -u)" = "0" ]; then su postgres -s /bin/sh -c "\$*"; else sh -c "\$*"; fi; }
case "\$1" in
  stop) as_pg "'$bindir/pg_ctl' -D '$workdir/data' -m immediate -w stop >/dev/null" ;;
  start) as_pg "'$bindir/pg_ctl' -D '$workdir/data' -o \"-c listen_addresses=127.0.0.1 -p $port -k $workdir -c max_connections=300\" -l '$workdir/log' -w start >/dev/null" ;;
esac
CTL

echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
PG_TEST_CTL="$workdir/ctl.sh" DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
