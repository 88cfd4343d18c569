#!/usr/bin/env bash
# Installs what stagger's build needs on a Debian machine, skipping what is already there:
#   - the C libraries g3n's cgo builds against (OpenGL, X11, OpenAL, Vorbis);
#   - xvfb and xauth, for the demo's window test without a display;
#   - libbullet-dev, g++ and pkg-config, for bench/bullet's comparison harness (its test runs in
#     `make test`, so Bullet is needed there too);
#   - chromium-headless-shell, the browser that demo/web's end-to-end test drives (software WebGL);
#   - the Go modules of go.mod;
#   - staticcheck (pinned), which `make test` runs.
# Idempotent: a second run installs nothing and runs no apt-get update.
set -euo pipefail

packages=(libgl1-mesa-dev xorg-dev libopenal-dev libvorbis-dev xvfb xauth libbullet-dev g++ pkg-config chromium-headless-shell)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if ((${#missing[@]} > 0)); then
	sudo=()
	if [[ $(id -u) -ne 0 ]]; then
		if command -v sudo >/dev/null; then
			sudo=(sudo)
		else
			echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
			exit 1
		fi
	fi
	echo "setup: installing ${missing[*]}"
	# Wait for another apt (a second make target, the system's own updates) rather than fail.
	lock=(-o DPkg::Lock::Timeout=600)
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

go mod download

# staticcheck, pinned; `make test` runs it. Installed into GOPATH/bin only when missing or another
# version.
staticcheck_version=v0.8.2
staticcheck="$(go env GOPATH)/bin/staticcheck"
if ! "$staticcheck" -version 2>/dev/null | grep -q "${staticcheck_version#v}"; then
	echo "setup: installing staticcheck $staticcheck_version"
	go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi
