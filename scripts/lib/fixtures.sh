# Test images: a busybox-static rootfs imported into the private engines, and tagged copies pushed
# to the private registry. No public registry is ever contacted.

TEST_IMAGE=berth-test/busybox:latest
FIXTURE_DIR=$STATE/image
FIXTURE_TAR=$FIXTURE_DIR/busybox-rootfs.tar
# repo:tag under the registry address; each tag gets its own label so the pushed images differ.
REGISTRY_FIXTURES=(berth/busybox:1.0 berth/busybox:2.0 berth/busybox:latest berth/tools:latest)

registry_images() {
  local ref
  for ref in "${REGISTRY_FIXTURES[@]}"; do echo "$REGISTRY_ADDR/$ref"; done
}

# bin/busybox plus one symlink per applet, tmp/ and root/; a stable tar (sorted, mtime 0).
fixture_build_tar() {
  [[ -s $FIXTURE_TAR ]] && return 0
  local busybox=/bin/busybox rootfs=$FIXTURE_DIR/rootfs applet
  [[ -x $busybox && $(ldd "$busybox" 2>&1) == *'not a dynamic executable'* ]] ||
    die "$busybox is not statically linked; install busybox-static (bash scripts/install-deps.sh)"
  rm -rf "$rootfs"
  mkdir -p "$rootfs/bin" "$rootfs/tmp" "$rootfs/root" "$rootfs/etc"
  chmod 1777 "$rootfs/tmp"
  cp "$busybox" "$rootfs/bin/busybox"
  for applet in $("$busybox" --list); do
    [[ $applet == busybox ]] || ln -sf busybox "$rootfs/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$rootfs" -cf "$FIXTURE_TAR.tmp" .
  mv "$FIXTURE_TAR.tmp" "$FIXTURE_TAR"
}

fixture_docker_image() {
  if docker_cli image inspect "$TEST_IMAGE" >/dev/null 2>&1; then return 0; fi
  log "importing $TEST_IMAGE into dockerd"
  docker_cli import --change 'CMD ["/bin/sh"]' "$FIXTURE_TAR" "$TEST_IMAGE" >/dev/null
}

fixture_registry_complete() {
  local ref repo tag
  for ref in "${REGISTRY_FIXTURES[@]}"; do
    repo=${ref%:*} tag=${ref##*:}
    registry_tags "$repo" | grep -qx "$tag" || return 1
  done
}

# Pushes the tagged copies with a throwaway login in a private DOCKER_CONFIG, then logs out and
# removes the local tags, so tests start anonymous and a pull really transfers the image.
fixture_registry_push() {
  if fixture_registry_complete; then return 0; fi
  local ref target config=$STATE/docker-config
  mkdir -p "$config"
  log "pushing ${#REGISTRY_FIXTURES[@]} tags to $REGISTRY_ADDR"
  local login_output
  # The CLI warns that it stores the password unencrypted: true, and the file is removed below.
  login_output=$(registry_password | docker_cli login --username "$REGISTRY_USER" --password-stdin "$REGISTRY_ADDR" 2>&1) ||
    die "docker login to $REGISTRY_ADDR failed: $login_output"
  for ref in "${REGISTRY_FIXTURES[@]}"; do
    target=$REGISTRY_ADDR/$ref
    docker_cli import --change 'CMD ["/bin/sh"]' --change "LABEL berth.fixture=$ref" "$FIXTURE_TAR" "$target" >/dev/null
    docker_cli push --quiet "$target" >/dev/null || docker_cli push "$target" >&2
    docker_cli rmi "$target" >/dev/null
  done
  docker_cli logout "$REGISTRY_ADDR" >/dev/null
  rm -f "$config/config.json"
  fixture_registry_complete || die "the registry does not list every pushed tag"
}
