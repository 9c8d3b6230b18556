#!/bin/sh
# Runs once, when the primary's data directory is created (postgres image's initdb hook): a role for
# the streaming replica and a pg_hba line that lets it replicate over the compose network.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
create role replicator with replication login password '${REPLICATION_PASSWORD}';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
