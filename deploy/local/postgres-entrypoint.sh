#!/bin/sh
# The stand-in's entrypoint (deploy/local/services.Containerfile): what compose.yaml relies on from the
# official postgres image's. On an empty PGDATA: initdb with POSTGRES_USER as superuser and
# POSTGRES_PASSWORD (scram over TCP, trust on the local socket), POSTGRES_DB created, every
# /docker-entrypoint-initdb.d/*.sh (run if executable, else sourced) and *.sql run against a server on the
# socket only, so nothing reaches it over TCP before it is ready. Then the command, as postgres.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?the postgres stand-in needs POSTGRES_PASSWORD}"
  export POSTGRES_USER="${POSTGRES_USER:-postgres}"
  export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
  pw="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pw"
  initdb -D "$PGDATA" --username="$POSTGRES_USER" --pwfile="$pw" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -qc "create database \"$POSTGRES_DB\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -qf "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres stand-in: $POSTGRES_DB initialised"
fi
exec "$@"
