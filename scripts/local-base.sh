#!/usr/bin/env bash
# Builds `localhost/tradeshelf-base`: a Debian bookworm root (debootstrap, from the Debian mirror) with
# this machine's Node.js and npm, imported into podman (or docker). For machines that reach no
# container registry: `podman build --build-arg BASE=localhost/tradeshelf-base -f Containerfile .`
# Elsewhere the Containerfile's default base, the official node:20-bookworm-slim, is what to use.
#
#   sudo scripts/local-base.sh [image-name]      (root: debootstrap and the import need it)
set -euo pipefail
. "$(dirname "$0")/podman-conf.sh"

IMAGE="${1:-localhost/tradeshelf-base}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
ENGINE="${CONTAINER_ENGINE:-$(command -v podman || command -v docker)}"
NODE_BIN="$(readlink -f "$(command -v node)")"
NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"

case "$("$NODE_BIN" -v)" in
  v20.*|v22.*) ;;
  *) echo "local-base.sh: this machine's node is $("$NODE_BIN" -v); the image wants Node 20 or 22" >&2; exit 1 ;;
esac
[ "$(id -u)" = 0 ] || { echo "local-base.sh: run as root (debootstrap)" >&2; exit 1; }

ROOT="$(mktemp -d /tmp/tradeshelf-base.XXXXXX)"
trap 'rm -rf "$ROOT"' EXIT

started=$(date +%s)
# minbase: apt, dpkg and the essentials; ca-certificates for npm's HTTPS.
debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOT/rootfs" "$MIRROR" >"$ROOT/debootstrap.log" 2>&1 \
  || { tail -20 "$ROOT/debootstrap.log" >&2; exit 1; }

# The host's node (a single binary linking only glibc and libstdc++ of bookworm) and npm.
install -m 0755 "$NODE_BIN" "$ROOT/rootfs/usr/local/bin/node"
mkdir -p "$ROOT/rootfs/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$ROOT/rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/rootfs/usr/local/bin/npx"
# The `node` account (uid 1000) the official image has, which the Containerfile runs as.
chroot "$ROOT/rootfs" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
chroot "$ROOT/rootfs" node -e 'process.exit(0)'

# Smaller: no apt lists, docs or man pages in the base.
rm -rf "$ROOT/rootfs/var/lib/apt/lists/"* "$ROOT/rootfs/var/cache/apt/"*.bin \
  "$ROOT/rootfs/usr/share/doc/"* "$ROOT/rootfs/usr/share/man/"* "$ROOT/rootfs/usr/share/locale/"*

tar -C "$ROOT/rootfs" -c . | "$ENGINE" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$IMAGE" >/dev/null
echo "local-base.sh: $IMAGE built in $(( $(date +%s) - started )) s ($("$NODE_BIN" -v), npm $("$ROOT/rootfs/usr/local/bin/node" "$ROOT/rootfs/usr/local/bin/npm" -v))"
