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

# The official rules are the publishers' files and are not kept in this repository. With
# --rules, fetch them where the network allows (pinned by SHA-256; nothing is fetched when
# they are already in place, and a failed fetch only says so: the simulator then takes
# documents unchecked, saying that on stderr).
rules="${ERACUN_RULES:-$tools/rules}"
fetch_rule() { # file url sha256
  local file="$1" url="$2" sum="$3"
  if [ -f "$rules/$file" ] && echo "$sum  $rules/$file" | sha256sum -c --status; then
    return 0
  fi
  mkdir -p "$rules"
  if curl -fsSL --max-time 60 -o "$rules/$file.part" "$url" 2>/dev/null \
      && echo "$sum  $rules/$file.part" | sha256sum -c --status; then
    mv "$rules/$file.part" "$rules/$file"
    echo "== rules: $file"
  else
    rm -f "$rules/$file.part"
    echo "== rules: $file could not be fetched from $url; e-invoices are not checked by it here"
  fi
}
if [ "${1:-}" = "--rules" ]; then
  fetch_rule EN16931-UBL-validation.xslt \
    "https://raw.githubusercontent.com/ConnectingEurope/eInvoicing-EN16931/b6c9e06a59812fb1a83585da40923b3678a649ad/ubl/xslt/EN16931-UBL-validation.xslt" \
    39f9d282867f1a49e7708d9e29a53da89643e1ee56f10cec1ebcf1277595fcbd
  fetch_rule HR-CIUS-EXT-EN16931-UBL.xslt \
    "https://raw.githubusercontent.com/phax/phive-rules/432f0e9a8cff5c03d06625abe7a5fd8e7e346a64/phive-rules-eracun/src/main/resources/external/schematron/1.0.3/HR-CIUS-EXT-EN16931-UBL.xslt" \
    9d5d91da89c468ab8f291435eb1652390cbbb5928650ef62be25fba4397224df
fi

if [ "${1:-}" = "--precompile" ]; then
  ERACUN_TOOLS="$tools" node "$here/validate.mjs" --compile-only
fi
