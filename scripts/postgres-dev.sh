#!/usr/bin/env bash
# A throwaway PostgreSQL server for team mode and its tests: a cluster in a folder of its own,
# listening on loopback only, with one database and a password-less local user (trust on
# 127.0.0.1 only, which nothing off this machine can reach).
#
#   scripts/postgres-dev.sh start [DIR] [PORT]   prints the store URL on its last line
#   scripts/postgres-dev.sh stop  [DIR]
#
# DIR defaults to .postgres-dev in the repository, PORT to 54329. Uses Debian's postgresql
# package (apt-get install postgresql) or any initdb/pg_ctl on PATH. $POSTGRES_DEV_OPTIONS adds
# server settings (CI turns fsync off: its server lives for one run, and what the tests kill is
# the tracker, never the database).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:-}"
dir="$(mkdir -p "${2:-$here/.postgres-dev}" && cd "${2:-$here/.postgres-dev}" && pwd)"
port="${3:-54329}"

find_bin() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$found" ]; then
    echo "no $1: install PostgreSQL (Debian: apt-get install -y postgresql)" >&2
    exit 1
  fi
  echo "$found"
}
initdb=$(find_bin initdb)
pg_ctl=$(find_bin pg_ctl)

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      mkdir -p "$dir/data" "$dir/socket"
      [ "$(id -u)" -eq 0 ] && chown -R postgres "$dir"
      as_owner "$initdb" -D "$dir/data" -U tracker --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c max_connections=100 ${POSTGRES_DEV_OPTIONS:-}" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://tracker@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] && as_owner "$pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    echo "stopped the server in $dir"
    ;;
  *)
    echo "usage: $0 start|stop [DIR] [PORT]" >&2
    exit 2
    ;;
esac
