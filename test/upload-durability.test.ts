// An upload whose transaction reports a failure it may have committed anyway (a connection lost
// during COMMIT) keeps its stored files: the rows may exist, and a document without its file would
// be lost. A refusal of ours (a duplicate) leaves no file behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict } from '../src/errors.js';
import { detectDocumentType } from '../src/ingest/ingestion.js';
import { DocumentsService } from '../src/modules/documents/documents.service.js';
import type { UnitOfWork } from '../src/repositories.js';
import type { BlobStore } from '../src/storage/blob-store.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createUser, type TestUser } from './support/factories.js';
import { createCorpus } from './support/corpora.js';

describe('files of an upload whose commit is in doubt', () => {
  let t: TestApp;
  let owner: TestUser;
  const actor = () => ({ organizationId: owner.organizationId, userId: owner.id, role: 'owner' as const }) as never;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    owner = await createUser(t.app, { role: 'owner' });
  });
  afterAll(() => t.close());

  /** The real store, but every transaction, once its work is done, reports a lost connection. */
  function storeLosingCommits(): UnitOfWork {
    const real = t.app.services.store;
    return {
      ...real,
      transaction: async (work) => {
        await real.transaction(work);
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      },
    };
  }

  /** The blob store, noting every key put and every key deleted. */
  function watchedBlobs(): { blobs: BlobStore; put: string[]; deleted: string[] } {
    const put: string[] = [];
    const deleted: string[] = [];
    const real = t.app.blobs;
    return {
      put,
      deleted,
      blobs: {
        put: async (bytes) => {
          const key = await real.put(bytes);
          put.push(key);
          return key;
        },
        get: (key) => real.get(key),
        delete: async (key) => {
          deleted.push(key);
          await real.delete(key);
        },
      },
    };
  }

  const sources = { detectType: detectDocumentType, fetchUrl: async () => ({ bytes: Buffer.alloc(0), url: '' }) };
  const batch = (text: string) => async () => ({ incoming: [{ source: 'a.txt', bytes: Buffer.from(text), uploadFrom: 'upload' as const, accessUrl: null }], tags: [], onDuplicate: 'reject' as const });

  it('keeps the files when the commit may have happened', async () => {
    const corpus = await createCorpus(owner);
    const watched = watchedBlobs();
    const documents = new DocumentsService(storeLosingCommits(), watched.blobs, t.app.services.corpora, sources, () => undefined);
    await expect(documents.upload(actor(), corpus.id, batch('The harbour opens at dawn.'))).rejects.toThrow('Connection terminated');
    expect(watched.put).toHaveLength(1);
    expect(watched.deleted).toEqual([]);
    // The row did commit: its file is there for the pipeline.
    const listed = (await owner.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.items;
    expect(listed).toHaveLength(1);
    expect((await owner.api.get(listed[0].access_url)).status).toBe(200);
  });

  it('removes the files when the transaction refused the upload', async () => {
    const corpus = await createCorpus(owner);
    const watched = watchedBlobs();
    const refusing: UnitOfWork = { ...t.app.services.store, transaction: async () => Promise.reject(new Conflict('refused before any commit')) };
    const documents = new DocumentsService(refusing, watched.blobs, t.app.services.corpora, sources, () => undefined);
    await expect(documents.upload(actor(), corpus.id, batch('Refused text.'))).rejects.toThrow('refused before any commit');
    expect(watched.put).toHaveLength(1);
    expect(watched.deleted).toEqual(watched.put);
  });
});
