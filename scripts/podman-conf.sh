# Sourced by the container scripts. podman on a machine with no containers.conf of its own (CI's, and
# these machines: no systemd, a hybrid cgroup tree, no CAP_SYS_RESOURCE) uses deploy/local/containers.conf.
if [ -z "${CONTAINERS_CONF:-}" ] && [ ! -e /etc/containers/containers.conf ]; then
  CONTAINERS_CONF="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/deploy/local/containers.conf"
  export CONTAINERS_CONF
fi
