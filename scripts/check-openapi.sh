#!/usr/bin/env bash
# CI check of the OpenAPI document, offline (after `npm install`): writes the document from the app
# built in-process, lints it with Redocly's recommended rules (redocly.yaml; errors fail), checks that
# the committed client package (clients/typescript) was generated from it, type-checks the package,
# then type-checks the main flows (scripts/openapi-client/flows.ts: a streamed answer, uploads)
# through it.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NODE_NO_WARNINGS=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
document="$work/openapi.json"

npx --no-install tsx scripts/dump-openapi.ts "$document"
npx --no-install redocly lint "$document" --config redocly.yaml --format summary
OPENAPI_DOCUMENT="$document" bash scripts/generate-client.sh --check
npx --no-install tsc -p clients/typescript/tsconfig.json --noEmit
npx --no-install tsc -p scripts/openapi-client/tsconfig.json
echo "OpenAPI check: the document lints without errors, the client package is generated from it and type-checks, and so do the main flows through it"
