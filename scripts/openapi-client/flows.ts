// The main flows of the API through a client generated from the OpenAPI document (openapi-typescript
// types, openapi-fetch calls). Type-checked by scripts/check-openapi.sh, never run there: if the
// document stops describing these calls (a name, a required field, a media type), tsc fails.
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Agent = components['schemas']['Agent'];
type LegacyDocument = components['schemas']['LegacyDocument'];
type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

export async function mainFlows(baseUrl: string, email: string, password: string): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });
  const login = await anonymous.POST('/api/v2/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(describe(login.error));
  const token: string = login.data.data.token;
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });

  // An agent, changed with If-Match, its history listed without paging arguments, and restored.
  const created = await api.POST('/api/v2/agents', { body: { name: 'Support assistant', instructions: 'Answer briefly.' } });
  if (!created.data) throw new Error(describe(created.error));
  const agent: Agent = created.data.data;
  const etag = created.response.headers.get('etag') ?? `"${agent.version}"`;
  const updated = await api.PUT('/api/v2/agents/{agent_id}', {
    params: { path: { agent_id: agent.id }, header: { 'if-match': etag } },
    body: { temperature: 0.3 },
  });
  if (!updated.data) throw new Error(describe(updated.error));
  const history = await api.GET('/api/v2/agents/{agent_id}/history', { params: { path: { agent_id: agent.id } } });
  const first = history.data?.data.items.at(-1);
  if (!first) throw new Error('no history');
  const restored = await api.PUT('/api/v2/agents/{agent_id}/history', {
    params: { path: { agent_id: agent.id } },
    body: { history_id: first.history_id, checkpoint_description: 'Back to the first version' },
  });
  const restoredTo: number | undefined = restored.data?.data.history_id;

  // A corpus, a text document uploaded as JSON, the documents listed (both generations), a search.
  const corpus = await api.POST('/api/v2/corpora', { body: { name: 'Product manuals' } });
  if (!corpus.data) throw new Error(describe(corpus.error));
  const corpusId = corpus.data.data.id;
  const upload = await api.POST('/api/v2/corpora/{corpus_id}/documents', {
    params: { path: { corpus_id: corpusId } },
    body: { upload_from: 'text', name: 'returns.txt', text: 'Returns are accepted within 30 days.', tags: ['policy'] },
  });
  const uploaded: number | undefined = upload.data?.data.items.length;
  const page = await api.GET('/api/v2/corpora/{corpus_id}/documents', { params: { path: { corpus_id: corpusId }, query: { step: 'indexed' } } });
  const steps: string[] = page.data?.data.items.map((document) => document.step) ?? [];
  const legacy = await api.GET('/api/corpus/{corpus_id}/document/', { params: { path: { corpus_id: corpusId } } });
  const all: LegacyDocument[] = legacy.data ?? [];
  const total = legacy.response.headers.get('x-total-count');
  const search = await api.POST('/api/v2/corpora/{corpus_id}/search', { params: { path: { corpus_id: corpusId } }, body: { query: 'returns' } });
  const passages: string[] = search.data?.data.items.map((passage) => passage.text) ?? [];

  // Files go as multipart/form-data: the form's fields are typed, the FormData carries the bytes.
  const form = new FormData();
  form.append('file', new Blob(['Refunds take five days.'], { type: 'text/plain' }), 'refunds.txt');
  form.append('on_duplicate', 'skip');
  const files = await api.POST('/api/v2/corpora/{corpus_id}/documents', {
    params: { path: { corpus_id: corpusId } },
    body: { files: ['refunds.txt'], on_duplicate: 'skip' } satisfies components['schemas']['DocumentUploadForm'],
    bodySerializer: () => form,
  });
  const accepted: components['schemas']['Document'][] = files.data?.data.items ?? [];

  // The stored original is binary, and the progress stream is text, not JSON.
  const original = await api.GET('/api/v2/corpora/{corpus_id}/documents/{document_id}/file', {
    params: { path: { corpus_id: corpusId, document_id: all[0]?.id ?? 1 } },
    parseAs: 'blob',
  });
  const bytes: Blob | undefined = original.data;
  const events = await api.GET('/api/v2/corpora/{corpus_id}/events', { params: { path: { corpus_id: corpusId } }, parseAs: 'stream' });
  const stream: ReadableStream<Uint8Array> | null | undefined = events.data;
  console.log({ restoredTo, uploaded, steps, total, passages, accepted: accepted.length, bytes: bytes?.size, streaming: stream != null });
}

function describe(error: ErrorEnvelope | undefined): string {
  return error ? `${error.error.code}: ${error.message}` : 'no answer';
}
