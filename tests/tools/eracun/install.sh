#!/usr/bin/env bash
# Installs the pinned SaxonJS tool chain used by tests/tools/eracun/validate.mjs into
# target/eracun-tools (or $ERACUN_TOOLS). Idempotent: does nothing when the pinned
# versions are already there.
#
#   tests/tools/eracun/install.sh               install if missing
#   tests/tools/eracun/install.sh --precompile  also build the SEF cache now (~20-30 s
#                                               once), instead of on the first validation
set -euo pipefail

XSLT3_VERSION=2.7.0
SAXONJS_VERSION=2.7.0 # xslt3 asks for ^2.7.0; pin it too

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
tools="${ERACUN_TOOLS:-$root/target/eracun-tools}"

installed_version() { # package -> version or empty
  local pj="$tools/node_modules/$1/package.json"
  [ -f "$pj" ] && node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true
}

if [ "$(installed_version xslt3)" != "$XSLT3_VERSION" ] || [ "$(installed_version saxon-js)" != "$SAXONJS_VERSION" ]; then
  echo "== npm: xslt3 $XSLT3_VERSION, saxon-js $SAXONJS_VERSION -> $tools"
  mkdir -p "$tools"
  npm install --no-save --no-package-lock --silent --prefix "$tools" \
    "xslt3@$XSLT3_VERSION" "saxon-js@$SAXONJS_VERSION"
fi

if [ "${1:-}" = "--precompile" ]; then
  ERACUN_TOOLS="$tools" node "$here/validate.mjs" --compile-only
fi
