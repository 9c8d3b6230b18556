#!/usr/bin/env bash
# Builds, without a container registry, every image `podman-compose -f compose.yaml -f compose.local.yaml`
# runs (docs/operations.md "Containers"): the app image and PgBouncer on the local Debian base
# (scripts/local-base.sh, built first if absent), and stand-ins for the Docker Hub images compose.yaml
# names, from Debian's packages and npm (deploy/local/services.Containerfile).
#
#   sudo scripts/local-images.sh [app|services|all]     (default all; root: podman)
#
# The app image is built from what git tracks (as a clean clone would build it). Where outbound TLS is
# re-signed, the CA goes in as a build secret (LOCAL_CA_FILE), never as a layer.
set -euo pipefail
. "$(dirname "$0")/podman-conf.sh"
cd "$(dirname "$0")/.."

ENGINE="${CONTAINER_ENGINE:-podman}"
CA="${LOCAL_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}"
BASE=localhost/tradeshelf-base
what="${1:-all}"
log=/tmp/local-images-build.log
: >"$log"

build() { # NAME ARGS... : one `build`, its output in $log, timed
  local name=$1 s=$SECONDS
  shift
  # podman's default OCI format drops HEALTHCHECK.
  "$ENGINE" build --format docker --build-arg "BASE=$BASE" --secret "id=npm_ca,src=$CA" -t "$name" "$@" >>"$log" 2>&1 ||
    { tail -30 "$log" >&2; echo "local-images.sh: $name failed (all output in $log)" >&2; exit 1; }
  echo "local-images.sh: $name built in $((SECONDS - s)) s"
}

"$ENGINE" image exists "$BASE" || scripts/local-base.sh "$BASE"

if [ "$what" = all ] || [ "$what" = app ]; then
  src="$(mktemp -d)"
  trap 'rm -rf "$src"' EXIT
  git ls-files -z | xargs -0 tar -c | tar -x -C "$src"
  build localhost/tradeshelf:latest -f "$src/Containerfile" "$src"
fi
if [ "$what" = all ] || [ "$what" = services ]; then
  build localhost/tradeshelf-pgbouncer:latest -f deploy/pgbouncer.Containerfile deploy
  for stage in postgres:15 redis:7 haproxy:2.6 objects:latest; do
    build "localhost/tradeshelf-${stage}" --target "${stage%%:*}" -f deploy/local/services.Containerfile deploy/local
  done
fi
