// Fixtures for corpora and documents: corpora made through HTTP, uploads as a browser sends them
// (multipart) or as JSON, and waiting for the pipeline.
import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app.js';
import type { TestUser } from './factories.js';
import { request } from './http.js';
import { pollUntil } from './poll.js';

let sequence = 0;

export async function createCorpus(user: TestUser, overrides: Record<string, unknown> = {}) {
  const reply = await user.api.post('/api/v2/corpora', { name: `Corpus ${++sequence} ${randomBytes(3).toString('hex')}`, ...overrides });
  if (reply.status !== 201) throw new Error(`createCorpus: ${reply.status} ${reply.text}`);
  return reply.body.data as { id: number; name: string; [key: string]: unknown };
}

export interface UploadFile {
  name: string;
  bytes: Buffer | string;
  contentType?: string;
}

/** A multipart/form-data body with one part per file and the given text fields. */
export function multipartBody(files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----agent-platform-test-${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.bytes) ? file.bytes : Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadFiles(app: App, user: TestUser, corpusId: number, files: UploadFile[], fields: Record<string, string> = {}) {
  const { payload, contentType } = multipartBody(files, fields);
  return request(app, 'POST', `/api/v2/corpora/${corpusId}/documents`, undefined, { token: user.token, raw: payload, headers: { 'content-type': contentType } });
}

export async function uploadText(user: TestUser, corpusId: number, text: string, extra: Record<string, unknown> = {}) {
  const reply = await user.api.post(`/api/v2/corpora/${corpusId}/documents`, { upload_from: 'text', text, ...extra });
  if (reply.status !== 201) throw new Error(`uploadText: ${reply.status} ${reply.text}`);
  return reply.body.data.items[0] as { id: number; step: string; [key: string]: unknown };
}

export interface DocumentState {
  id: number;
  step: string;
  is_failed: boolean;
  error: string | null;
  chunk_count: number;
  [key: string]: unknown;
}

/** Waits until every given document is indexed or failed, and returns them. */
export async function waitForProcessing(user: TestUser, corpusId: number, ids: number[], timeoutMs = 20_000): Promise<DocumentState[]> {
  return pollUntil(
    () => Promise.all(ids.map(async (id) => (await user.api.get(`/api/v2/corpora/${corpusId}/documents/${id}`)).body.data as DocumentState)),
    (states) => states.every((state) => state.step === 'indexed' || state.is_failed),
    (states) => `Documents still processing: ${JSON.stringify(states.map((s) => [s.id, s.step]))}`,
    { timeoutMs, everyMs: 50 },
  );
}
