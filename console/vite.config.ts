// The console's build: React through Vite into ../dist/console (served by the server itself,
// src/http console files), with hashed names under assets/. `npm run console:dev` serves it with hot
// reload and sends the API's paths to a running server (CONSOLE_API, http://127.0.0.1:8080 by default).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const api = process.env.CONSOLE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  resolve: {
    // The client package from its source: the console is type-checked and built against the
    // document the server describes today.
    alias: { '@agent-platform/client': here('../clients/typescript/src/index.ts') },
  },
  build: {
    // CONSOLE_OUT_DIR: a build elsewhere (the server reads one with CONSOLE_DIR), e.g. beside a running one.
    outDir: process.env.CONSOLE_OUT_DIR ?? here('../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // The served files are precompressed by the build script; Vite's own report is enough.
    reportCompressedSize: false,
    // The entry (React, React Aria, the router, the query cache) is about 550 kB minified, 150 kB as sent
    // (brotli); the budget is the compressed size, measured by the console benchmark (docs/performance.md).
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: Object.fromEntries(['/api', '/openapi.json', '/health', '/ready'].map((path) => [path, { target: api, changeOrigin: false }])),
  },
});
