#!/usr/bin/env bash
# Writes clients/typescript/src/openapi.ts from the server's OpenAPI document (the app built
# in-process, as scripts/dump-openapi.ts does) with openapi-typescript (scripts/write-client-types.ts,
# which types binary strings as Blob). With --check, writes nothing and fails when the committed file
# differs from what the server describes: a changed route must regenerate the client, and the
# console, built on the client, is type-checked against it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_NO_WARNINGS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
target=clients/typescript/src/openapi.ts
# OPENAPI_DOCUMENT: a document already written from the server (check-openapi.sh has one), so that
# the app is not built a second time for it.
document="${OPENAPI_DOCUMENT:-$work/openapi.json}"
[ -n "${OPENAPI_DOCUMENT:-}" ] || npx --no-install tsx scripts/dump-openapi.ts "$document"
npx --no-install tsx scripts/write-client-types.ts "$document" "$work/openapi.ts"
if [ "${1:-}" = --check ]; then
  if ! cmp -s "$work/openapi.ts" "$target"; then
    diff -u "$target" "$work/openapi.ts" | head -40 || true
    echo "$target is not what the server describes: run npm run client:generate" >&2
    exit 1
  fi
  echo "client: $target is what the server describes"
else
  cp "$work/openapi.ts" "$target"
  echo "wrote $target"
fi
