#!/usr/bin/env bash
# Copies HEAD plus the given working-tree paths into /tmp/gssc-sandbox (node_modules linked),
# so one person's changes can be run while others' unfinished files sit in the working tree.
# Usage: scripts/sandbox.sh <path>... ; then: cd /tmp/gssc-sandbox && npx vitest run ...
set -euo pipefail
top=$(git rev-parse --show-toplevel)
box=/tmp/gssc-sandbox
rm -rf "$box"
mkdir -p "$box"
git -C "$top" archive HEAD | tar -x -C "$box"
for p in "$@"; do
  mkdir -p "$box/$(dirname "$p")"
  cp -r "$top/$p" "$box/$(dirname "$p")/"
done
ln -s "$top/node_modules" "$box/node_modules"
echo "$box"
