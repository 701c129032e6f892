import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { makeDocx, makePdf } from './support/documents.js';
import { createUser, type TestUser } from './support/factories.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe.each(databaseKinds)('documents (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  it('takes files of every supported kind through the pipeline to indexed, with chunks keeping page and heading', async () => {
    const corpus = await createCorpus(member);
    const reply = await uploadFiles(t.app, member, corpus.id, [
      { name: 'report.pdf', bytes: makePdf([['Quarterly revenue grew strongly.'], ['Second page mentions penguins.']]), contentType: 'application/pdf' },
      { name: 'letter.docx', bytes: makeDocx([{ heading: 'Introduction' }, { paragraph: 'Kangaroos hop across the outback.' }]) },
      { name: 'page.html', bytes: '<html><body><h1>Lighthouses</h1><p>Beacons guide the ships.</p><script>alert(1)</script></body></html>' },
      { name: 'notes.md', bytes: '# Gardening\n\nTomatoes need sun.\n\n## Watering\n\nWater the roots in the morning.' },
      { name: 'plain.txt', bytes: 'A plain sentence about volcanoes.\n\nAnother paragraph about glaciers.' },
      { name: 'table.csv', bytes: 'city,country\nLisbon,Portugal\nKyoto,Japan\n' },
      { name: 'data.json', bytes: JSON.stringify({ product: 'teapot', colours: ['red', 'blue'] }) },
    ], { tags: 'finance, q3' });
    expect(reply.status, reply.text).toBe(201);
    const items = reply.body.data.items as { id: number; type: string; source: string; step: string; tags: string[] }[];
    expect(items.map((d) => d.type)).toEqual(['pdf', 'docx', 'html', 'md', 'txt', 'csv', 'json']);
    expect(items.every((d) => d.step === 'queued' && d.tags.join() === 'finance,q3')).toBe(true);

    const states = await waitForProcessing(member, corpus.id, items.map((d) => d.id));
    for (const state of states) {
      expect(state.is_failed, `${state.source}: ${state.error}`).toBe(false);
      expect(state.step).toBe('indexed');
      expect(state.chunk_count).toBeGreaterThan(0);
      expect(Object.keys(state.step_timings as object)).toEqual(expect.arrayContaining(['extracting', 'chunking']));
    }
    const pdf = (await member.api.get(`/api/v2/corpora/${corpus.id}/documents/${items[0]!.id}`)).body.data;
    expect(pdf.text).toContain('penguins');

    const search = async (query: string) => (await member.api.post(`/api/v2/corpora/${corpus.id}/search`, { query })).body.data.items;
    const penguins = await search('penguins');
    // A page starts a new chunk, so a passage's page is the page it is on.
    expect(penguins[0]).toMatchObject({ document_id: items[0]!.id, source: 'report.pdf', page: 2 });
    const watering = await search('watering roots');
    expect(watering[0].heading).toContain('Watering');
    expect((await search('alert')).length).toBe(0);
    expect((await search('Kyoto'))[0].document_id).toBe(items[5]!.id);
  });

  it('decides the type from the content: HTML sent as PDF is HTML; an image is 415 and nothing is stored', async () => {
    const corpus = await createCorpus(member);
    const spoofed = await uploadFiles(t.app, member, corpus.id, [{ name: 'invoice.pdf', bytes: '<html><body><p>Not a PDF</p></body></html>', contentType: 'application/pdf' }]);
    expect(spoofed.status).toBe(201);
    expect(spoofed.body.data.items[0].type).toBe('html');

    const before = (await member.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total;
    const image = await uploadFiles(t.app, member, corpus.id, [
      { name: 'fine.txt', bytes: 'this one is fine' },
      { name: 'photo.txt', bytes: PNG, contentType: 'text/plain' },
    ]);
    expect(image.status).toBe(415);
    expect(image.body.error.code).toBe('unsupported_media_type');
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total).toBe(before);
  });

  it('stores files under names the server makes: traversal and control characters in names are harmless', async () => {
    const corpus = await createCorpus(member);
    const reply = await uploadFiles(t.app, member, corpus.id, [
      { name: '../../../etc/passwd', bytes: 'root is not here' },
      { name: '/absolute/path.txt', bytes: 'absolute' },
      { name: 'ctrl\u0001\u0007name.txt', bytes: 'control characters' },
      { name: '..', bytes: 'dots only' },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.items.map((d: { source: string }) => d.source)).toEqual(['passwd', 'path.txt', 'ctrlname.txt', 'document']);
    const stored = readdirSync(join(t.app.config.dataDir, 'files'), { recursive: true }).map(String);
    expect(stored.some((file) => file.includes('passwd') || file.includes('..'))).toBe(false);
  });

  it('413 for a file over the limit, and nothing is stored', async () => {
    const small = await startTestApp(kind, { LIMIT_UPLOAD_FILE_BYTES: '2048' });
    try {
      const user = await createUser(small.app, { role: 'member' });
      const corpus = await createCorpus(user);
      const reply = await uploadFiles(small.app, user, corpus.id, [{ name: 'big.txt', bytes: 'x'.repeat(5000) }]);
      expect(reply.status).toBe(413);
      expect(reply.body.error.code).toBe('payload_too_large');
      expect((await user.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('400 for an upload with no file, a malformed multipart body, or a text upload without text', async () => {
    const corpus = await createCorpus(member);
    expect((await uploadFiles(t.app, member, corpus.id, [], { tags: 'x' })).status).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: `/api/v2/corpora/${corpus.id}/documents`,
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
    });
    expect(broken.statusCode).toBe(400);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text' })).status).toBe(400);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'fax', text: 'x' })).status).toBe(400);
  });

  it('detects duplicates by content hash: reject (409), skip, replace, keep both; and checks them in advance', async () => {
    const corpus = await createCorpus(member);
    const url = `/api/v2/corpora/${corpus.id}/documents`;
    const first = await uploadText(member, corpus.id, 'Exactly the same words.', { name: 'one.txt' });
    const hash = createHash('sha256').update('Exactly the same words.').digest('hex');

    const rejected = await member.api.post(url, { upload_from: 'text', text: 'Exactly the same words.' });
    expect(rejected.status).toBe(409);
    expect(rejected.body.message).toContain(`document ${first.id}`);

    const skipped = await member.api.post(url, { upload_from: 'text', text: 'Exactly the same words.', on_duplicate: 'skip' });
    expect(skipped.status).toBe(201);
    expect(skipped.body.data.items.map((d: { id: number }) => d.id)).toEqual([first.id]);
    expect(skipped.body.data.duplicates).toEqual([{ source: 'text', document_id: first.id, action: 'skipped' }]);

    const both = await member.api.post(url, { upload_from: 'text', text: 'Exactly the same words.', on_duplicate: 'keep_both' });
    expect(both.body.data.items[0].id).not.toBe(first.id);

    const check = await member.api.post(`${url}/duplicate-check`, { hashes: [hash, 'a'.repeat(64)], names: ['one.txt', 'two.txt'] });
    expect(check.status).toBe(200);
    expect(check.body.data.items.map((i: { document: unknown }) => i.document !== null)).toEqual([true, false, true, false]);
    expect(check.body.data.items[2].document.id).toBe(first.id);
    expect((await member.api.post(`${url}/duplicate-check`, { hashes: ['not-a-hash'] })).status).toBe(400);

    const replaced = await member.api.post(url, { upload_from: 'text', text: 'Exactly the same words.', on_duplicate: 'replace' });
    expect(replaced.status).toBe(201);
    const old = (await member.api.get(`${url}/${first.id}`)).body.data;
    expect(old.is_deleted).toBe(true);
  });

  it('lists with pagination and filters by step, failure, tag and type', async () => {
    const corpus = await createCorpus(member);
    const url = `/api/v2/corpora/${corpus.id}/documents`;
    const a = await uploadText(member, corpus.id, '# Title\n\nMarkdown body here.', { tags: ['alpha'] });
    const b = await uploadText(member, corpus.id, 'plain words only', { tags: ['beta'] });
    await waitForProcessing(member, corpus.id, [a.id, b.id]);
    const page = (await member.api.get(`${url}?page_size=1`)).body.data;
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page.items[0].id).toBe(b.id);
    expect((await member.api.get(`${url}?tag=alpha`)).body.data.items.map((d: { id: number }) => d.id)).toEqual([a.id]);
    expect((await member.api.get(`${url}?type=md`)).body.data.items.map((d: { id: number }) => d.id)).toEqual([a.id]);
    expect((await member.api.get(`${url}?step=indexed`)).body.data.total).toBe(2);
    expect((await member.api.get(`${url}?is_failed=true`)).body.data.total).toBe(0);
    expect((await member.api.get(`${url}?step=done`)).status).toBe(400);
  });

  it('tags and annotates a document', async () => {
    const corpus = await createCorpus(member);
    const doc = await uploadText(member, corpus.id, 'Tag me.');
    const url = `/api/v2/corpora/${corpus.id}/documents/${doc.id}`;
    const tagged = await member.api.put(`${url}/tags`, { tags: ['legal', 'draft'], annotations: 'Check with counsel' });
    expect(tagged.body.data).toMatchObject({ tags: ['legal', 'draft'], annotations: 'Check with counsel' });
    expect((await member.api.put(`${url}/tags`, { annotations: null })).body.data).toMatchObject({ tags: ['legal', 'draft'], annotations: null });
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents?tag=legal`)).body.data.total).toBe(1);
    expect((await member.api.put(`${url}/tags`, { tags: ['dup', 'dup'] })).status).toBe(400);
  });

  it('a deleted document leaves retrieval at once and its chunks are removed', async () => {
    const corpus = await createCorpus(member);
    const doc = await uploadText(member, corpus.id, 'Flamingos stand on one leg.');
    await waitForProcessing(member, corpus.id, [doc.id]);
    const search = () => member.api.post(`/api/v2/corpora/${corpus.id}/search`, { query: 'flamingos' });
    expect((await search()).body.data.items).toHaveLength(1);
    const deleted = await member.api.delete(`/api/v2/corpora/${corpus.id}/documents/${doc.id}`);
    expect(deleted.body.data.is_deleted).toBe(true);
    expect((await search()).body.data.items).toHaveLength(0);
    const chunks = await t.app.database.db.selectFrom('chunks').select('id').where('document_id', '=', doc.id).execute();
    expect(chunks).toEqual([]);
    expect((await member.api.delete(`/api/v2/corpora/${corpus.id}/documents/${doc.id}`)).status).toBe(404);
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total).toBe(0);
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents?include_deleted=true`)).body.data.total).toBe(1);
  });

  it('a document that cannot be extracted fails with a reason, and retry is refused unless it failed', async () => {
    const corpus = await createCorpus(member);
    const broken = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('this is not really a pdf at all')]);
    const reply = await uploadFiles(t.app, member, corpus.id, [{ name: 'broken.pdf', bytes: broken }]);
    const id = reply.body.data.items[0].id;
    const [state] = await waitForProcessing(member, corpus.id, [id]);
    expect(state!.is_failed).toBe(true);
    expect(state!.step).toBe('extracting');
    expect(state!.error).toBeTruthy();
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}`)).body.data.document_counts.failed).toBe(1);
    // The uploader is told, once the failure is recorded.
    const told = await vi.waitFor(
      async () => {
        const found = (await member.api.get('/api/v2/notifications?unread=true')).body.data.items.find((n: { kind: string }) => n.kind === 'document_failed');
        if (!found) throw new Error('no notification yet');
        return found;
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(told).toMatchObject({ kind: 'document_failed', title: 'The document broken.pdf could not be processed', link: `/api/v2/corpora/${corpus.id}/documents/${id}` });
    expect(told.body).toContain('extracting');

    const retried = await member.api.post(`/api/v2/corpora/${corpus.id}/documents/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data.is_failed).toBe(false);
    const [again] = await waitForProcessing(member, corpus.id, [id]);
    expect(again!.is_failed).toBe(true);

    const fine = await uploadText(member, corpus.id, 'fine');
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/documents/${fine.id}/retry`)).status).toBe(409);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/documents/99999999/retry`)).status).toBe(404);
  });

  it('refuses URL uploads to loopback and private addresses, and a listener there receives nothing', async () => {
    const corpus = await createCorpus(member);
    const { createServer } = await import('node:http');
    let hits = 0;
    const listener = createServer((_req, res) => {
      hits++;
      res.end('secret');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'file:///etc/passwd']) {
        const reply = await member.api.post(`/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'url', url });
        expect(reply.status, url).toBe(400);
        expect(reply.text).not.toContain('secret');
      }
      expect(hits).toBe(0);
      expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total).toBe(0);
    } finally {
      listener.close();
    }
  });

  it('fetches a URL document from an allow-listed host', async () => {
    const { createServer } = await import('node:http');
    const listener = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<html><head><title>Menu</title></head><body><h1>Lunch</h1><p>Soup of the day is pumpkin.</p></body></html>');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    const allowed = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${port}` });
    try {
      const user = await createUser(allowed.app, { role: 'member' });
      const corpus = await createCorpus(user);
      const reply = await user.api.post(`/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'url', url: `http://127.0.0.1:${port}/menu` });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.data.items[0]).toMatchObject({ upload_from: 'url', type: 'html', access_url: `http://127.0.0.1:${port}/menu` });
      await waitForProcessing(user, corpus.id, [reply.body.data.items[0].id]);
      expect((await user.api.post(`/api/v2/corpora/${corpus.id}/search`, { query: 'pumpkin soup' })).body.data.items).toHaveLength(1);
    } finally {
      await allowed.close();
      listener.close();
    }
  });
});
