#!/usr/bin/env bash
# Runs .ci/run in a fresh clone of HEAD, as CI does. Usage: scripts/ci-local.sh [rev]
set -euo pipefail
rev=${1:-HEAD}
dir=$(mktemp -d /tmp/gssc-ci.XXXXXX)
git clone -q "$(git rev-parse --show-toplevel)" "$dir"
cd "$dir"
git checkout -q "$rev"
SKIP_APT=${SKIP_APT:-1} ./.ci/run
echo "CI OK in $dir"
