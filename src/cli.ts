#!/usr/bin/env node
// agent-platform [serve] | worker | migrate | backup | create-api-key | reseal-secrets | reset-password
//   | create-owner | --version: see src/cli/commands.ts.
// The young generation is held small before anything else is loaded (young-generation.ts), which is
// why the commands are imported here, after that, and not statically.
import { holdYoungGeneration } from './young-generation.js';

holdYoungGeneration();
const { runCli } = await import('./cli/commands.js');
runCli(process.argv.slice(2));
