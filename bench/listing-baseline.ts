// The listings' baseline: the least a process can do to answer GET /api/corpus/{id}/document/ —
// one query selecting the same rows (same columns, same joins to users for the e-mails and names,
// same order), each row mapped to the same sixteen-field object, JSON.stringify of the whole array,
// one write to the response. node:http, better-sqlite3 on the same SQLite file (read only), no
// framework, no authentication, no streaming. Run as a child process by listing.bench.ts, which
// measures its time to the last byte and its peak memory as it does the real server's.
//
// It answers a page of GET /api/v2/corpora/{id}/documents (page, page_size) the same way: one
// query for the page and its total (`count(*) over ()`), the same twenty-one fields in the
// envelope, one JSON.stringify, one write. These are the floors of the listing-page targets.
//
// Settings (environment): BASELINE_PORT, BASELINE_DB_FILE.
import { createServer, type ServerResponse } from 'node:http';
import { sqliteDriver } from '../src/db/sqlite-driver.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`listing-baseline needs ${name}`);
  return value;
}

interface Row {
  id: number;
  created_by: number;
  created_on: string;
  modified_on: string;
  type: string;
  source: string;
  access_url: string | null;
  text: string;
  tags: string;
  deleted_on: string | null;
  upload_from: string;
  step: string;
  failed_on: string | null;
  corpus_id: number;
  created_by_email: string;
  created_by_first_name: string;
  created_by_last_name: string;
  modified_by_email: string;
}

const db = new (sqliteDriver())(required('BASELINE_DB_FILE'), { readonly: true, fileMustExist: true });
const selectDocuments = db.prepare<[number], Row>(`
  select d.id, d.created_by, d.created_on, d.modified_on, d.type, d.source, d.access_url, d.text, d.tags, d.deleted_on,
         d.upload_from, d.step, d.failed_on, d.corpus_id,
         creator.email as created_by_email, creator.first_name as created_by_first_name, creator.last_name as created_by_last_name,
         modifier.email as modified_by_email
  from documents as d
  join users as creator on creator.id = d.created_by
  join users as modifier on modifier.id = d.modified_by
  where d.corpus_id = ? and d.deleted_on is null
  order by d.id`);

/** The sixteen fields, in the order of the interface's schema (LegacyDocumentSchema). */
function present(row: Row) {
  const tags: unknown = JSON.parse(row.tags);
  return {
    id: row.id,
    user: { id: row.created_by, email: row.created_by_email, first_name: row.created_by_first_name, last_name: row.created_by_last_name },
    created_by: row.created_by_email,
    created_on: row.created_on,
    modified_by: row.modified_by_email,
    modified_on: row.modified_on,
    type: row.type,
    source: row.source,
    access_url: row.access_url ?? `/api/v2/corpora/${row.corpus_id}/documents/${row.id}/file`,
    text: row.text,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    is_deleted: row.deleted_on !== null,
    upload_from: row.upload_from,
    step: row.step,
    is_failed: row.failed_on !== null,
    corpus: row.corpus_id,
  };
}

interface PageRow {
  id: number;
  corpus_id: number;
  type: string;
  source: string;
  access_url: string | null;
  upload_from: string;
  step: string;
  failed_on: string | null;
  error: string | null;
  deleted_on: string | null;
  tags: string;
  annotations: string | null;
  size_bytes: number;
  content_hash: string;
  chunk_count: number;
  step_timings: string;
  indexed_on: string | null;
  created_on: string;
  created_by_email: string;
  modified_on: string;
  modified_by_email: string;
  total: number;
}

const selectPage = db.prepare<[number, number, number], PageRow>(`
  select d.id, d.corpus_id, d.type, d.source, d.access_url, d.upload_from, d.step, d.failed_on, d.error, d.deleted_on, d.tags,
         d.annotations, d.size_bytes, d.content_hash, d.chunk_count, d.step_timings, d.indexed_on, d.created_on,
         creator.email as created_by_email, d.modified_on, modifier.email as modified_by_email, count(*) over () as total
  from documents as d
  join users as creator on creator.id = d.created_by
  join users as modifier on modifier.id = d.modified_by
  where d.corpus_id = ? and d.deleted_on is null
  order by d.id desc
  limit ? offset ?`);

/** The fields of DocumentSchema, in its order. */
function presentPageItem(row: PageRow) {
  const tags: unknown = JSON.parse(row.tags);
  return {
    id: row.id,
    corpus_id: row.corpus_id,
    type: row.type,
    source: row.source,
    access_url: row.access_url ?? `/api/v2/corpora/${row.corpus_id}/documents/${row.id}/file`,
    upload_from: row.upload_from,
    step: row.step,
    is_failed: row.failed_on !== null,
    error: row.error,
    is_deleted: row.deleted_on !== null,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    annotations: row.annotations,
    size_bytes: row.size_bytes,
    content_hash: row.content_hash,
    chunk_count: row.chunk_count,
    step_timings: JSON.parse(row.step_timings) as unknown,
    indexed_on: row.indexed_on,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

function pageBody(corpusId: number, page: number, pageSize: number): string {
  const rows = selectPage.all(corpusId, pageSize, (page - 1) * pageSize);
  const total = rows[0]?.total ?? 0;
  return JSON.stringify({ success: true, message: 'Documents', data: { items: rows.map(presentPageItem), page, page_size: pageSize, total } });
}

const LISTING = /^\/api\/corpus\/(\d+)\/document\/$/;
const PAGE = /^\/api\/v2\/corpora\/(\d+)\/documents$/;

function sendJson(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://baseline');
  const whole = LISTING.exec(url.pathname);
  const page = PAGE.exec(url.pathname);
  if (url.pathname === '/health') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  } else if (request.method === 'GET' && whole) {
    sendJson(response, JSON.stringify(selectDocuments.all(Number(whole[1])).map(present)));
  } else if (request.method === 'GET' && page) {
    sendJson(response, pageBody(Number(page[1]), Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('page_size') ?? 20)));
  } else {
    response.writeHead(404).end();
  }
});
server.listen(Number(required('BASELINE_PORT')), '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => {
      db.close();
      process.exit(0);
    });
  });
}
