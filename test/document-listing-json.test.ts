// The corpus document listings are written by the database (src/db/json-text.ts,
// src/modules/documents/document-listing.repo.ts), generated from the same fields as the presenters
// and the schemas (src/db/json-projection.ts): their bytes must be exactly those of the presenters
// serialised by the routes' schemas (the legacy listing's are fixed by the interface),
// whatever the text holds — quotes, backslashes, control characters, line and paragraph separators,
// letters beyond ASCII, emoji.
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Envelope, Page, ok } from '../src/http/schemas.js';
import type { Actor } from '../src/modules/auth/actor.js';
import { presentLegacyDocument } from '../src/modules/documents/document.presenter.js';
import type { DocumentFilter } from '../src/modules/documents/documents.repo.js';
import { DocumentSchema, LegacyDocumentSchema } from '../src/modules/documents/documents.schemas.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

const serialise = fastJson(LegacyDocumentSchema);
const serialisePage = fastJson(Envelope(Page(DocumentSchema)));

const AWKWARD = [
  'plain words',
  'a "quoted" word, a back\\slash, a /slash and </script>',
  'control \u0001\u0002\b\t\n\u000b\f\r\u001b\u001f characters',
  'delete \u007f, separators \u2028 and \u2029, a non-breaking\u00a0space',
  'Zoë, façade, Ærøskøbing, 東京, Ελληνικά, עברית, العربية',
  'emoji 😀 and a family 👩‍👩‍👧 and a flag 🇫🇷',
  `a long text\n${'with "quotes" and lines\n'.repeat(400)}`,
  '',
];

describe.each(databaseKinds)('the corpus listing written by the database (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let corpusId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'member' });
    await t.app.database.db.updateTable('users').set({ first_name: 'Zoë "Z"', last_name: 'Back\\slash \u0001' }).where('id', '=', owner.id).execute();
    corpusId = (await createCorpus(owner)).id;
    const rows = AWKWARD.map((text, index) => ({
      organization_id: owner.organizationId,
      corpus_id: corpusId,
      type: index % 2 === 0 ? 'txt' : 'url',
      source: `source ${index} "${text.slice(0, 20)}"`,
      access_url: index % 2 === 0 ? null : `https://example.com/page?q="${index}"&x=\u00e9`,
      text,
      tags: JSON.stringify(index === 1 ? ['a"b', 'ünï', '\u0001', '😀', 'back\\slash', '\u2028'] : []),
      upload_from: index % 2 === 0 ? ('text' as const) : ('url' as const),
      step: index === 2 ? ('chunking' as const) : ('indexed' as const),
      failed_on: index === 2 ? '2026-11-20T10:15:30.123Z' : null,
      content_hash: `${index}`.padStart(64, '0'),
      error: index === 2 ? 'The "extractor" failed:\n\tline 1' : null,
      annotations: index === 4 ? 'Notes: ünï "quoted"' : null,
      chunk_count: index,
      step_timings: index === 2 ? '{}' : JSON.stringify({ extracting: 0.4 + index, chunking: 12, embedding: 0.1 + 0.2 }),
      indexed_on: index === 2 ? null : `2026-11-0${1 + (index % 9)}T12:00:00.${index}00Z`,
      size_bytes: Buffer.byteLength(text),
      deleted_on: index === 3 ? '2026-11-21T00:00:00.000Z' : null,
      created_on: `2026-0${1 + (index % 9)}-02T03:04:05.${index === 0 ? '000' : '987'}Z`,
      created_by: owner.id,
      modified_on: '2026-11-20T23:59:59.999Z',
      modified_by: owner.id,
    }));
    const ids = (await t.app.database.db.insertInto('documents').values(rows).returning('id').execute()).map((row) => row.id);
    await t.app.database.db
      .insertInto('document_tags')
      .values(['a"b', 'ünï'].map((tag) => ({ document_id: ids[1]!, tag })))
      .execute();
  });
  afterAll(() => t.close());

  it('writes every element as the presenter and the schema would, byte for byte', async () => {
    const scope = { organizationId: owner.organizationId, corpusId };
    const { documents, documentListing } = t.app.services.store.repos;
    const written = await documentListing.jsonBatch(scope, 0, 100, true);
    const presented = await documents.listingBatch(scope, 0, 100, true);
    expect(written.count).toBe(AWKWARD.length);
    expect(written.last_id).toBe(presented.at(-1)!.id);
    expect(written.elements).toBe(presented.map((row) => serialise(presentLegacyDocument(row))).join(','));
    expect(written.elements).toBe(presented.map((row) => JSON.stringify(presentLegacyDocument(row))).join(','));
    expect(await documentListing.jsonBatch(scope, presented.at(-1)!.id, 100, true)).toEqual({ count: 0, last_id: null, elements: null });
  });

  it('answers the same bytes over HTTP, whole and paged', async () => {
    const { documents } = t.app.services.store.repos;
    const presented = (await documents.listingBatch({ organizationId: owner.organizationId, corpusId }, 0, 100, false)).map(presentLegacyDocument);
    const whole = await request(t.app, 'GET', `/api/corpus/${corpusId}/document/`, undefined, { token: owner.token });
    expect(whole.text).toBe(JSON.stringify(presented));
    expect(Number(whole.headers['content-length'])).toBe(Buffer.byteLength(whole.text));
    const page = await request(t.app, 'GET', `/api/corpus/${corpusId}/document/?limit=2&offset=1`, undefined, { token: owner.token });
    expect(page.text).toBe(JSON.stringify(presented.slice(1, 3)));
    expect(page.headers['x-total-count']).toBe(String(presented.length));
  });

  it('answers the pages of the latest generation as its schema would serialise them, filters included', async () => {
    const actor: Actor = { userId: owner.id, organizationId: owner.organizationId, email: owner.email, role: owner.role, credential: { kind: 'api_key', id: 0 } };
    const cases: [string, DocumentFilter, { page: number; page_size: number }][] = [
      ['', {}, { page: 1, page_size: 20 }],
      ['?include_deleted=true&page_size=3&page=2', { includeDeleted: true }, { page: 2, page_size: 3 }],
      ['?is_failed=true', { isFailed: true }, { page: 1, page_size: 20 }],
      ['?step=indexed&type=url', { step: 'indexed', type: 'url' }, { page: 1, page_size: 20 }],
      [`?tag=${encodeURIComponent('ünï')}`, { tag: 'ünï' }, { page: 1, page_size: 20 }],
      ['?page=9', {}, { page: 9, page_size: 20 }],
    ];
    for (const [query, filter, page] of cases) {
      const reply = await request(t.app, 'GET', `/api/v2/corpora/${corpusId}/documents${query}`, undefined, { token: owner.token });
      expect(reply.status, query).toBe(200);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      const expected = serialisePage(ok('Documents', await t.app.services.documents.list(actor, corpusId, filter, page)));
      expect(reply.text, query).toBe(expected);
    }
  });
});
