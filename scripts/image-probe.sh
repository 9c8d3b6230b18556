#!/usr/bin/env bash
# Builds the container image and probes it as an operator would (issue 32, docs/operations.md
# "Containers"): a web node and a worker against this machine's PostgreSQL and Redis, healthy by its
# own HEALTHCHECK, running as uid 1000 on read-only code, serving pages and metrics, refusing to start
# without DATABASE_URL or the shared secrets, and stopping cleanly on SIGTERM.
#
#   sudo scripts/image-probe.sh            (root: podman; builds localhost/tradeshelf-base first if absent)
#
# Run by .ci/run beside the compose probe: ~0.5–1.5 min with the layers cached, ~6 min more the first
# time (two `npm ci` in the image).
set -euo pipefail
. "$(dirname "$0")/podman-conf.sh"
cd "$(dirname "$0")/.."

ENGINE="${CONTAINER_ENGINE:-podman}"
PG="${PROBE_DATABASE_URL:-postgres://postgres@127.0.0.1:5432}"
REDIS="${PROBE_REDIS_URL:-redis://127.0.0.1:6379}"
PORT="${PROBE_PORT:-3990}"
METRICS_PORT="${PROBE_METRICS_PORT:-9191}"
DB=tradeshelf_image_probe
failures=0
# podman without systemd says so on every run with a HEALTHCHECK; nothing else is lost by hiding it.
export PGOPTIONS='-c client_min_messages=warning'
quiet() { grep -v 'systemd' >&2 || true; }
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; failures=$((failures + 1)); }
t0=$(date +%s)

trap '"$ENGINE" rm -f ts-probe-web ts-probe-worker >/dev/null 2>&1 || true' EXIT
# PROBE_IMAGES_BUILT=1: the caller has just built the images from this tree (.ci/run, beside the
# compose probe); otherwise build the app image from what git tracks, as a clean clone would.
if [ -z "${PROBE_IMAGES_BUILT:-}" ]; then
  scripts/local-images.sh app >/dev/null
  echo "image built in $(($(date +%s) - t0)) s: $("$ENGINE" image inspect localhost/tradeshelf:latest --format '{{.Size}}' | awk '{printf "%d MB", $1/1e6}')"
fi

psql "$PG/postgres" -qc "drop database if exists $DB with (force)" -c "create database $DB" >/dev/null
env=(-e "PUBLIC_URL=http://127.0.0.1:$PORT" -e APP_ENV=sandbox -e "DATABASE_URL=$PG/$DB" -e "REDIS_URL=$REDIS"
  -e JWT_SECRET=probe-jwt-secret-probe-jwt-secret-probe-jw
  -e CODE_SECRET=probe-code-secret-probe-code-secret-probe
  -e STORAGE_SECRET=probe-storage-secret-probe-storage-secret)

started=$(date +%s)
"$ENGINE" run -d --name ts-probe-web --network host -e "PORT=$PORT" -e SEED_DEMO=true "${env[@]}" \
  localhost/tradeshelf:latest >/dev/null 2> >(quiet)
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && break; sleep 1; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && ok "web node ready in $(($(date +%s) - started)) s (migrated, demo seeded and drawn)" || bad "web node never ready"
"$ENGINE" healthcheck run ts-probe-web >/dev/null 2>&1 && ok "HEALTHCHECK passes" || bad "HEALTHCHECK fails"
[ "$("$ENGINE" exec ts-probe-web id -u)" = 1000 ] && ok "runs as uid 1000" || bad "not uid 1000"
"$ENGINE" exec ts-probe-web sh -c 'touch /app/probe' 2>/dev/null && bad "code is writable" || ok "code is read-only to the app"
"$ENGINE" exec ts-probe-web sh -c 'touch /data/probe' && ok "DATA_DIR is writable" || bad "DATA_DIR not writable"
for path in / '/search?q=rsi' /vendor/login /docs /healthz; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$path")
  [ "$code" = 200 ] && ok "GET $path 200" || bad "GET $path $code"
done
"$ENGINE" logs ts-probe-web 2>&1 | grep -qi 'fontconfig error' && bad "fontconfig errors (pictures' text blank)" || ok "no fontconfig errors"

"$ENGINE" run -d --name ts-probe-worker --network host -e "METRICS_PORT=$METRICS_PORT" "${env[@]}" \
  localhost/tradeshelf:latest node --import tsx apps/api/src/worker.ts >/dev/null 2> >(quiet)
for _ in $(seq 1 60); do curl -sf -o /dev/null "http://127.0.0.1:$METRICS_PORT/metrics" && break; sleep 1; done
worker_metrics=$(curl -s -w '\nHTTP %{http_code}' "http://127.0.0.1:$METRICS_PORT/metrics" || true)
if grep -q '^tradeshelf_' <<<"$worker_metrics"; then ok "worker serves its metrics"; else
  # What it answered instead, for the next reader: once a bare answer with no samples (session 26).
  bad "worker metrics missing: $(tail -1 <<<"$worker_metrics"), $(head -c 300 <<<"$worker_metrics" | tr '\n' ' ')"
fi

out=$("$ENGINE" run --rm --network host -e "PORT=$((PORT + 1))" -e APP_ENV=sandbox -e "DATABASE_URL=$PG/$DB" localhost/tradeshelf:latest 2>&1 || true)
grep -q 'JWT_SECRET: required' <<<"$out" && ok "refuses to start without the shared secrets" || bad "started without shared secrets"
out=$("$ENGINE" run --rm --network host localhost/tradeshelf:latest 2>&1 || true)
grep -q 'DATABASE_URL is required' <<<"$out" && ok "refuses to start without DATABASE_URL" || bad "started without DATABASE_URL"

for c in ts-probe-web ts-probe-worker; do
  s=$(date +%s%N)
  "$ENGINE" stop -t 30 "$c" >/dev/null 2> >(quiet)
  code=$("$ENGINE" inspect "$c" --format '{{.State.ExitCode}}')
  ms=$((($(date +%s%N) - s) / 1000000))
  [ "$code" = 0 ] && ok "$c stops on SIGTERM in $ms ms, exit 0" || bad "$c exit $code after SIGTERM"
done
psql "$PG/postgres" -qc "drop database if exists $DB with (force)" >/dev/null
echo "image probe: $failures failed, $(($(date +%s) - t0)) s"
exit $((failures > 0))
