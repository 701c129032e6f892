// Writes the TypeScript types of an OpenAPI document for the client package, as openapi-typescript
// does with one change: a binary string (format: binary — a file of an upload, an image or an
// original served) is a Blob, which FormData takes and fetch gives, not a string.
// Usage: tsx scripts/write-client-types.ts <openapi.json> <out.ts> (scripts/generate-client.sh runs it)
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import ts from 'typescript';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('Usage: tsx scripts/write-client-types.ts <openapi.json> <out.ts>');

const ast = await openapiTS(JSON.parse(readFileSync(input, 'utf8')), {
  transform: (schema) => (schema.format === 'binary' ? ts.factory.createTypeReferenceNode('Blob') : undefined),
});
writeFileSync(output, COMMENT_HEADER + astToString(ast));
