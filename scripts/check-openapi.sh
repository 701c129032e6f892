#!/usr/bin/env bash
# CI check of the OpenAPI document, offline (after `npm install`): writes the document from the app
# built in-process, lints it with Redocly's recommended rules (redocly.yaml; errors fail), then
# generates a client from it with openapi-typescript and type-checks the main flows against it.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NODE_NO_WARNINGS=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
document="$work/openapi.json"

npx --no-install tsx scripts/dump-openapi.ts "$document"
npx --no-install redocly lint "$document" --config redocly.yaml --format summary
npx --no-install openapi-typescript "$document" --output scripts/openapi-client/api.d.ts
npx --no-install tsc -p scripts/openapi-client/tsconfig.json
echo "OpenAPI check: the document lints without errors and a generated client type-checks the main flows"
