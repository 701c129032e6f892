// Preloaded into the Flowise process (`node --require`). LangChain's ChatOpenAI counts the tokens of
// every answer with tiktoken tables it downloads from tiktoken.pages.dev the first time and keeps
// in memory. This machine reaches the npm registry and nothing else, so each download fails, is
// retried with back-off for about a minute and is not kept: every answer would wait for it. This
// answers those URLs with the very same tables from the js-tiktoken package Flowise installed with
// it, as a connected machine's first download would; every other request goes out unchanged.
'use strict';
const { createRequire } = require('node:module');

const PREFIX = 'https://tiktoken.pages.dev/js/';
// Resolved from Flowise's own entry point (node_modules/flowise/bin/run): its js-tiktoken.
const requireFromFlowise = createRequire(process.argv[1]);
const originalFetch = globalThis.fetch;

globalThis.fetch = function fetchWithLocalTiktoken(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const name = url.startsWith(PREFIX) ? url.slice(PREFIX.length).replace(/\.json$/, '') : undefined;
  if (name !== undefined && /^[a-z0-9_]+$/.test(name)) {
    const ranks = requireFromFlowise(`js-tiktoken/ranks/${name}`);
    return Promise.resolve(new Response(JSON.stringify(ranks), { status: 200, headers: { 'content-type': 'application/json' } }));
  }
  return originalFetch.call(this, input, init);
};
