#!/bin/sh
# The streaming replica: on first start a base backup of the primary (-R writes standby.signal and
# primary_conninfo), then the server, read-only, replaying the primary's WAL, with compose.yaml's
# settings (the command).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres-primary -p 5432 -q; do sleep 1; done
  PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup -h postgres-primary -U replicator \
    -D "$PGDATA" -R -X stream --checkpoint=fast
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on "$@"
