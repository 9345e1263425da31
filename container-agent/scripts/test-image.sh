#!/usr/bin/env bash
# Builds the agent's test images from a local root filesystem, without pulling anything:
#   flagstaff-test/busybox:latest  prints its environment, then serves HTTP on 80 (GET /env returns the
#                                  environment it started with) and a TCP echo on 7.
#   flagstaff-test/broken:latest   exits at once (an image that fails to start).
# Idempotent: an image whose rootfs digest label matches is kept. DOCKER_HOST picks the engine.
set -euo pipefail

BUSYBOX=${BUSYBOX:-/bin/busybox}
if ! [ -x "$BUSYBOX" ] || ldd "$BUSYBOX" >/dev/null 2>&1; then
  echo "a statically linked busybox is needed at $BUSYBOX: apt-get install -y busybox-static" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOTFS=$WORK/rootfs
mkdir -p "$ROOTFS"/{bin,www,tmp,etc,proc,sys,dev}
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
for applet in sh ash cat echo env nc httpd sleep ls ps wget id hostname kill grep tee; do
  ln -s busybox "$ROOTFS/bin/$applet"
done
echo "root:x:0:0:root:/:/bin/sh" >"$ROOTFS/etc/passwd"
echo "root:x:0:" >"$ROOTFS/etc/group"
cat >"$ROOTFS/start.sh" <<'SCRIPT'
#!/bin/sh
env | grep '^FLAGSTAFF_' | sort
env >/www/env
httpd -p 80 -h /www
exec nc -ll -p 7 -e cat
SCRIPT
chmod 755 "$ROOTFS/start.sh"
echo "flagstaff test image" >"$ROOTFS/www/index.html"
chmod 1777 "$ROOTFS/tmp"

# Reproducible archive: same bytes for the same busybox, so the digest tells whether a rebuild is needed.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$ROOTFS" -cf "$WORK/rootfs.tar" .
DIGEST=$(sha256sum "$WORK/rootfs.tar" | cut -c1-16)

build() {
  local tag=$1 cmd=$2 current
  current=$(docker image inspect --format '{{ index .Config.Labels "flagstaff.rootfs" }}' "$tag" 2>/dev/null || true)
  if [ "$current" = "$DIGEST" ]; then
    echo "$tag is up to date ($DIGEST)"
    return
  fi
  docker import \
    --change "CMD $cmd" \
    --change "EXPOSE 80/tcp 7/tcp" \
    --change "LABEL flagstaff.rootfs=$DIGEST" \
    "$WORK/rootfs.tar" "$tag" >/dev/null
  echo "built $tag ($DIGEST)"
}

build flagstaff-test/busybox:latest '["/start.sh"]'
build flagstaff-test/broken:latest '["/bin/sh", "-c", "echo failing on purpose; exit 3"]'
