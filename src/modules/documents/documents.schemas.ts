import { Type, type Static } from '@sinclair/typebox';
import { fieldsOf, schemaOf } from '../../http/presented-fields.js';
import type { DocumentWithUsers } from './document-with-users.js';
import { legacyListQuery } from '../../http/legacy.js';
import { Id, NullableTimestamp, PageQuery, Timestamp, mediaWithExample, named, withExamples } from '../../http/schemas.js';

export const StepSchema = Type.Union(
  [Type.Literal('queued'), Type.Literal('extracting'), Type.Literal('chunking'), Type.Literal('embedding'), Type.Literal('indexed')],
  {
    description: 'Processing step; a failed document stays at the step that failed',
  },
);

const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true });

export const OnDuplicateSchema = Type.Union([Type.Literal('reject'), Type.Literal('skip'), Type.Literal('replace'), Type.Literal('keep_both')], {
  description:
    'When the corpus already holds the same content: reject (409, the default), skip (answer with the existing document), replace (delete the existing one), keep_both',
});
export type OnDuplicate = 'reject' | 'skip' | 'replace' | 'keep_both';

export const UploadJsonBody = Type.Object(
  {
    upload_from: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('url')], { description: 'text or url; files come as multipart/form-data' })),
    text: Type.Optional(Type.String({ minLength: 1, description: 'The document itself, for upload_from text' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Display name (source) of a text document' })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Address to fetch, for upload_from url' })),
    tags: Type.Optional(Tags),
    on_duplicate: Type.Optional(OnDuplicateSchema),
  },
  {
    description:
      'JSON for text and URL documents. Files are sent as multipart/form-data instead: one part per file, and optional fields tags (comma-separated) and on_duplicate.',
  },
);
export type UploadJsonInput = Static<typeof UploadJsonBody>;

const AccessUrl = Type.String({
  description:
    'Where the document can be had: the address a URL document was fetched from; for every other document the path ' +
    '(relative to this server) of GET /api/v2/corpora/{corpus_id}/documents/{document_id}/file, which serves the stored original ' +
    'to whoever may read the corpus',
});

const field = fieldsOf<DocumentWithUsers>();

/** A URL document is reachable where it was fetched from; every other one through the server (the route of its original). */
const accessUrl = field.textOr('access_url', ['/api/v2/corpora/', { column: 'corpus_id' }, '/documents/', { column: 'id' }, '/file'], AccessUrl);

/**
 * A document of the latest generation: its schema, its presenter (document.presenter.ts) and the
 * JSON the database writes of a page of them (document-listing.repo.ts) are made from these fields.
 */
export const documentFields = {
  id: field.value('id', Id('Document identifier')),
  corpus_id: field.value('corpus_id', Id('Corpus of the document')),
  type: field.value('type', Type.String({ description: 'Kind of content, decided from the content: pdf, docx, html, md, txt, csv, json' })),
  source: field.value('source', Type.String({ description: 'File name, page address or given name' })),
  access_url: accessUrl,
  upload_from: field.value('upload_from', Type.String({ description: 'upload, text, url, document_library or email' })),
  step: field.value('step', StepSchema),
  is_failed: field.isSet('failed_on', Type.Boolean()),
  error: field.value('error', Type.Union([Type.String(), Type.Null()], { description: 'Why processing failed, for a person to read' })),
  is_deleted: field.isSet('deleted_on', Type.Boolean()),
  tags: field.json('tags', Type.Array(Type.String())),
  annotations: field.value('annotations', Type.Union([Type.String(), Type.Null()])),
  size_bytes: field.value('size_bytes', Type.Integer()),
  content_hash: field.value('content_hash', Type.String({ description: 'SHA-256 of the content, hex' })),
  chunk_count: field.value('chunk_count', Type.Integer()),
  step_timings: field.json('step_timings', Type.Record(Type.String(), Type.Number(), { description: 'Milliseconds spent in each step' })),
  indexed_on: field.timestamp('indexed_on', NullableTimestamp('When the document reached indexed')),
  created_on: field.timestamp('created_on', Timestamp('When the document was uploaded')),
  created_by: field.value('created_by_email', Type.String()),
  modified_on: field.timestamp('modified_on', Timestamp('When the document last changed')),
  modified_by: field.value('modified_by_email', Type.String()),
};

export const DocumentSchema = schemaOf(documentFields);
export type DocumentView = Static<typeof DocumentSchema>;

export const DocumentWithTextSchema = Type.Composite([DocumentSchema, Type.Object({ text: Type.String({ description: 'The extracted text' }) })]);

export const UploadResultSchema = Type.Object({
  items: Type.Array(DocumentSchema, { description: 'Documents accepted (queued for processing) or, with skip, the existing duplicates' }),
  duplicates: Type.Array(
    Type.Object({ source: Type.String(), document_id: Type.Integer(), action: Type.String({ description: 'skipped, replaced or kept_both' }) }),
  ),
});

export const listDocumentsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    step: Type.Optional(StepSchema),
    is_failed: Type.Optional(Type.Boolean()),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    include_deleted: Type.Optional(Type.Boolean({ default: false })),
  });

export const TagsBody = Type.Object({
  tags: Type.Optional(Tags),
  annotations: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
});

export const DuplicateCheckBody = Type.Object({
  hashes: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9a-fA-F]{64}$' }), { maxItems: 1000, description: 'SHA-256 of contents, hex' })),
  names: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, description: 'File names (sources)' })),
});

export const DuplicateCheckSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      hash: Type.Union([Type.String(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()]),
      document: Type.Union([Type.Object({ id: Type.Integer(), source: Type.String(), step: Type.String(), is_failed: Type.Boolean() }), Type.Null()]),
    }),
  ),
});

/**
 * One element of GET /api/corpus/{corpus_id}/document/: the sixteen fields of the interface, no
 * others, in this order (API.md §2.2). Its schema, presenter and the JSON the database writes of
 * the whole listing are made from these fields.
 */
export const legacyDocumentFields = {
  id: field.value('id', Type.Integer()),
  user: field.object(
    {
      id: field.value('created_by', Type.Integer()),
      email: field.value('created_by_email', Type.String()),
      first_name: field.value('created_by_first_name', Type.String()),
      last_name: field.value('created_by_last_name', Type.String()),
    },
    { additionalProperties: false },
  ),
  created_by: field.value('created_by_email', Type.String()),
  created_on: field.timestamp('created_on', Type.String({ format: 'date-time' })),
  modified_by: field.value('modified_by_email', Type.String()),
  modified_on: field.timestamp('modified_on', Type.String({ format: 'date-time' })),
  type: field.value('type', Type.String()),
  source: field.value('source', Type.String()),
  access_url: accessUrl,
  text: field.value('text', Type.String()),
  tags: field.json('tags', Type.Array(Type.String())),
  is_deleted: field.isSet('deleted_on', Type.Boolean()),
  upload_from: field.value('upload_from', Type.String()),
  step: field.value('step', Type.String()),
  is_failed: field.isSet('failed_on', Type.Boolean()),
  corpus: field.value('corpus_id', Type.Integer()),
};

export const LegacyDocumentSchema = schemaOf(legacyDocumentFields, { additionalProperties: false });
export type LegacyDocument = Static<typeof LegacyDocumentSchema>;

/** The same window as every legacy list (limit at most LIMIT_PAGE_SIZE), and deleted documents on demand. */
/** The conditional reads of the listings (docs/api.md, "Conditional requests"). */
export const legacyListingQuery = (pageSizeMax: number) =>
  Type.Composite([
    Type.Object({ include_deleted: Type.Optional(Type.Boolean({ default: false, description: 'Include documents marked deleted' })) }),
    legacyListQuery(pageSizeMax),
  ]);

/** The multipart/form-data form of an upload (documentation: the parts are read as a stream, not validated by schema). */
export const UploadMultipartBody = Type.Object(
  {
    files: Type.Array(Type.String({ format: 'binary', description: 'A file; its name becomes the source' }), {
      minItems: 1,
      description: 'One part per file (any part name), each at most LIMIT_UPLOAD_FILE_BYTES, at most LIMIT_UPLOAD_FILES in all',
    }),
    tags: Type.Optional(Type.String({ description: 'Tags for every file, comma-separated', examples: ['policy,2026'] })),
    on_duplicate: Type.Optional(OnDuplicateSchema),
  },
  { title: 'DocumentUploadForm' },
);

/** The multipart/form-data media type of an upload, for x-document (both generations). */
export const UploadMultipartContent = {
  'multipart/form-data': mediaWithExample(
    UploadMultipartBody,
    { files: ['Returns are accepted within 30 days of delivery, with the receipt.'], tags: 'policy,2026', on_duplicate: 'skip' },
    { encoding: { files: { contentType: '*/*' } } },
  ),
};

export const SearchBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 2000 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});

export const PassageSchema = Type.Object({
  chunk_id: Type.Integer(),
  document_id: Type.Integer(),
  corpus_id: Type.Integer(),
  source: Type.String(),
  type: Type.String(),
  position: Type.Integer({ description: 'Order of the passage within its document, from 0' }),
  page: Type.Union([Type.Integer(), Type.Null()]),
  heading: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  score: Type.Number({ description: 'Higher is better; comparable within one answer' }),
});

export const SearchResultSchema = Type.Object({
  items: Type.Array(PassageSchema),
  retrieval_mode: Type.Union([Type.Literal('full_text'), Type.Literal('hybrid')]),
  warning: Type.Optional(Type.String({ description: 'Present when vectors could not be used for this search, with the reason' })),
});

// The names these schemas have in the OpenAPI document, with an example each.
named('Document', DocumentSchema, {
  id: 42,
  corpus_id: 5,
  type: 'txt',
  source: 'returns.txt',
  access_url: '/api/v2/corpora/5/documents/42/file',
  upload_from: 'text',
  step: 'indexed',
  is_failed: false,
  error: null,
  is_deleted: false,
  tags: ['policy'],
  annotations: null,
  size_bytes: 1830,
  content_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  chunk_count: 3,
  step_timings: { extracting: 4, chunking: 2 },
  indexed_on: '2026-11-20T10:15:30.123Z',
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
});
named('DocumentWithText', DocumentWithTextSchema);
named('DocumentUploadResult', UploadResultSchema);
named('DuplicateCheck', DuplicateCheckSchema);
named('LegacyDocument', LegacyDocumentSchema, {
  id: 42,
  user: { id: 2, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
  created_by: 'ada@example.com',
  created_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  type: 'txt',
  source: 'returns.txt',
  access_url: '/api/v2/corpora/5/documents/42/file',
  text: 'Returns are accepted within 30 days.',
  tags: ['policy'],
  is_deleted: false,
  upload_from: 'text',
  step: 'indexed',
  is_failed: false,
  corpus: 5,
});
named('CorpusSearchResult', SearchResultSchema, {
  items: [
    {
      chunk_id: 311,
      document_id: 42,
      corpus_id: 5,
      source: 'returns.txt',
      type: 'txt',
      position: 0,
      page: null,
      heading: null,
      text: 'Returns are accepted within 30 days.',
      score: 0.82,
    },
  ],
  retrieval_mode: 'full_text',
});
named('Passage', PassageSchema);

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(
  UploadJsonBody,
  { upload_from: 'text', name: 'returns.txt', text: 'Returns are accepted within 30 days of delivery, with the receipt.', tags: ['policy'], on_duplicate: 'skip' },
  { upload_from: 'url', url: 'https://www.example.com/help/returns', tags: ['policy', 'web'] },
);
withExamples(TagsBody, { tags: ['policy', '2026'], annotations: 'Checked by the legal team in November' });
withExamples(DuplicateCheckBody, { names: ['returns.txt', 'warranty.pdf'], hashes: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] });
withExamples(SearchBody, { query: 'How long do refunds take?', limit: 5 });
