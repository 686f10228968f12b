#!/usr/bin/env bash
# Installs the Debian 12 packages that ppflow needs to build, run and test.
# Does nothing when all of them are installed; otherwise prints and runs
# apt-get (through sudo when not root). This list is the only one: the
# Makefile and CI call this script.
set -euo pipefail

PACKAGES=(
    libglfw3-dev libx11-dev libcglm-dev libfreetype-dev libfontconfig-dev fonts-dejavu-core
    libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
    libegl-dev libegl1-mesa-dev libgl1-mesa-dri libgles-dev python3-glad
    libcjson-dev libcmocka-dev
    xvfb xauth xdotool xserver-xorg-video-dummy x11-xserver-utils ffmpeg libxml2-utils librsvg2-bin strace
    pkg-config cmake clang libclang-rt-14-dev gcc make
)

die() {
    echo "deps: $*" >&2
    exit 1
}

command -v dpkg-query >/dev/null 2>&1 ||
    die "dpkg-query not found: this script installs Debian 12 packages; install these by hand: ${PACKAGES[*]}"

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    if ! grep -q 'install ok installed' <<<"$status"; then
        missing+=("$pkg")
    fi
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "deps: missing Debian packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    die "not root and no sudo: as root, run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
fi

run() {
    echo "+ $*"
    "$@"
}
run "${as_root[@]}" apt-get update
run "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
