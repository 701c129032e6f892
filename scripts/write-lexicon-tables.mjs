#!/usr/bin/env node
// Writes the PII lexicon's word tables beside its build (dist/guardrails/pii/lexicon-tables.json), so
// that a start reads them instead of loading compromise's model (src/guardrails/pii/lexicon-tables.ts).
// Run by build-if-stale.mjs after the TypeScript build.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const started = Date.now();
const module = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'guardrails', 'pii', 'lexicon-tables.js');
const { writeLexiconTables, LEXICON_TABLES_FILE } = await import(pathToFileURL(module).href);
writeLexiconTables();
process.stderr.write(`PII lexicon tables written to ${LEXICON_TABLES_FILE} in ${Date.now() - started} ms.\n`);
