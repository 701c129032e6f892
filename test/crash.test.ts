// Durability: the real server is killed with SIGKILL while it processes documents, and started
// again on the same data. Every accepted document must reach indexed (or failed with a reason),
// and none may be processed twice into duplicate chunks.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { startCliServer } from './support/cli-server.js';
import { createScratchDatabase, databaseKinds } from './support/databases.js';
import { makePdf } from './support/documents.js';
import { pollUntil } from './support/poll.js';
import { multipartBody } from './support/corpora.js';

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe.each(databaseKinds)('a server killed during ingestion (%s)', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('finishes every accepted document after a restart, none twice', async () => {
    const scratch = await createScratchDatabase(kind);
    cleanups.push(() => scratch.drop());
    const env: Record<string, string> = {
      DATA_DIR: scratch.dataDir,
      // Empty means the embedded SQLite database, whatever DATABASE_URL the suite runs with.
      DATABASE_URL: scratch.databaseUrl ?? '',
      ADMIN_EMAIL: 'crash@example.com',
      ADMIN_PASSWORD: 'crash test password',
      PASSWORD_HASH_COST: '10',
      LIMIT_REQUESTS_PER_MINUTE: '100000',
      WORKER_LEASE_SECONDS: '2',
      WORKER_CONCURRENCY: '2',
    };
    let server = await startCliServer({ ...process.env, ...env });
    cleanups.push(async () => {
      server.child.kill('SIGKILL');
    });
    const json = async (path: string, init: RequestInit = {}, token?: string) => {
      const response = await fetch(`${server.base}${path}`, {
        ...init,
        headers: { ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const token = (await json('/api/v2/auth/login', { method: 'POST', body: JSON.stringify({ email: 'crash@example.com', password: 'crash test password' }) })).body.data.token;
    const corpusId = (await json('/api/v2/corpora', { method: 'POST', body: JSON.stringify({ name: 'Crash' }) }, token)).body.data.id;

    // Uploads in flight while the server dies: the ones that answered 201 were accepted. The server
    // is killed once the first upload is accepted, while the others are still arriving.
    const accepted: number[] = [];
    let firstAccepted!: () => void;
    const someAccepted = new Promise<void>((resolve) => (firstAccepted = resolve));
    const uploads = Array.from({ length: 12 }, async (_, batch) => {
      const files = Array.from({ length: 5 }, (_, i) => ({
        name: `doc-${batch}-${i}.pdf`,
        bytes: makePdf([[`Batch ${batch} document ${i} about harbours and lighthouses.`, 'x'.repeat(200)], [`Page two of ${batch}-${i}.`]]),
      }));
      const { payload, contentType } = multipartBody(files);
      try {
        const reply = await json(`/api/v2/corpora/${corpusId}/documents`, { method: 'POST', body: payload, headers: { 'content-type': contentType } }, token);
        if (reply.status === 201) {
          accepted.push(...reply.body.data.items.map((d: { id: number }) => d.id));
          firstAccepted();
        }
      } catch {
        // The connection died with the server: not accepted.
      }
    });
    await Promise.race([someAccepted, Promise.all(uploads)]);
    await killed(server.child);
    await Promise.allSettled(uploads);
    expect(accepted.length).toBeGreaterThan(0);
    // What the dead server left: documents it had not finished (the point of the test).
    const left = openDatabase({ dataDir: scratch.dataDir, databaseUrl: scratch.databaseUrl });
    const unfinished = await left.db.selectFrom('documents').select('id').where('step', '!=', 'indexed').execute();
    const stored = await left.db.selectFrom('documents').select('id').execute();
    await left.close();
    expect(stored.length).toBeGreaterThanOrEqual(accepted.length);
    console.info(`killed with ${unfinished.length} of ${stored.length} documents unfinished`);

    server = await startCliServer({ ...process.env, ...env });
    type Listed = { id: number; step: string; is_failed: boolean; error: string | null; chunk_count: number };
    const documents = await pollUntil(
      async () => (await json(`/api/v2/corpora/${corpusId}/documents?page_size=100`, {}, token)).body.data.items as Listed[],
      (listed) => listed.every((d) => d.step === 'indexed' || d.is_failed),
      (listed) => `still processing: ${listed.filter((d) => d.step !== 'indexed').length}`,
      { timeoutMs: 120_000, everyMs: 200 },
    );
    const byId = new Map(documents.map((d) => [d.id, d]));
    for (const id of accepted) {
      const document = byId.get(id);
      expect(document, `accepted document ${id}`).toBeDefined();
      if (document!.is_failed) expect(document!.error).toBeTruthy();
      else expect(document!.step).toBe('indexed');
    }
    // Each document's chunks exactly once: the search finds each document's sentence in one passage.
    for (const document of documents.filter((d) => !d.is_failed)) expect(document.chunk_count).toBeGreaterThan(0);
    const passages = (await json(`/api/v2/corpora/${corpusId}/search`, { method: 'POST', body: JSON.stringify({ query: 'harbours lighthouses', limit: 100 }) }, token)).body.data.items as {
      document_id: number;
      position: number;
    }[];
    const keys = passages.map((p) => `${p.document_id}:${p.position}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(passages.map((p) => p.document_id)).size).toBe(documents.filter((d) => !d.is_failed).length);
    await killed(server.child);
  }, 240_000);
});

