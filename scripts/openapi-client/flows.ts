// The main flows of the API through the typed client package (clients/typescript: openapi-typescript
// types of the server's document, openapi-fetch calls, typed event readers). Type-checked by
// scripts/check-openapi.sh, never run there: if the document stops describing these calls (a name, a
// required field, a media type, an event), tsc fails. No casts: what needs one is missing from the document.
import {
  createClient,
  readAskEvents,
  readChatCompletionEvents,
  readCorpusEvents,
  toFormData,
  type AskStreamEvent,
  type Schemas,
} from '../../clients/typescript/src/index.js';

type Agent = Schemas['Agent'];
type AgentResponse = Schemas['AgentResponse'];
type LegacyDocument = Schemas['LegacyDocument'];
type ErrorEnvelope = Schemas['ErrorEnvelope'];

export async function mainFlows(baseUrl: string, email: string, password: string): Promise<void> {
  const anonymous = createClient({ baseUrl });
  const login = await anonymous.POST('/api/v2/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(describe(login.error));
  const session = login.data.data;
  if (session.session !== 'token') throw new Error('asked for a token, got a cookie session');
  const api = createClient({ baseUrl, token: session.token });

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

  // Files go as multipart/form-data: the form is typed (files are Blobs), toFormData sends it.
  const files = await api.POST('/api/v2/corpora/{corpus_id}/documents', {
    params: { path: { corpus_id: corpusId } },
    body: { files: [new File(['Refunds take five days.'], 'refunds.txt', { type: 'text/plain' })], tags: 'policy,refunds', on_duplicate: 'skip' },
    bodySerializer: toFormData,
  });
  const accepted: Schemas['Document'][] = files.data?.data.items ?? [];
  const logo = await api.PUT('/api/v2/organizations/{org_id}/logo', {
    params: { path: { org_id: agent.organization_id } },
    body: { file: new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }) },
    bodySerializer: toFormData,
  });
  const logoBytes: number | undefined = logo.data?.data.size;

  // The stored original is binary; the progress stream's events are typed, read until a document is indexed.
  const original = await api.GET('/api/v2/corpora/{corpus_id}/documents/{document_id}/file', {
    params: { path: { corpus_id: corpusId, document_id: all[0]?.id ?? 1 } },
    parseAs: 'blob',
  });
  const bytes: Blob | undefined = original.data;
  const following = new AbortController();
  const progress = await api.GET('/api/v2/corpora/{corpus_id}/events', { params: { path: { corpus_id: corpusId } }, parseAs: 'stream', signal: following.signal });
  let indexedId: number | undefined;
  for await (const event of readCorpusEvents(progress.response, following.signal)) {
    if (event.data.step === 'indexed' && !event.data.is_failed) {
      indexedId = event.data.document_id;
      following.abort();
    }
  }

  // An answer as a stream of typed events: the deltas joined are the answer, the last event the response.
  const asked = await api.POST('/api/v2/agents/{agent_id}/responses', {
    params: { path: { agent_id: agent.id } },
    body: { query: 'How long do refunds take?', stream: true },
    parseAs: 'stream',
  });
  if (asked.error) throw new Error(describe(asked.error));
  let answer = '';
  let response: AgentResponse | undefined;
  const seen: AskStreamEvent['event'][] = [];
  for await (const event of readAskEvents(asked.response)) {
    seen.push(event.event);
    if (event.event === 'delta') answer += event.data.text;
    else if (event.event === 'response.completed') response = event.data;
    else if (event.event === 'error') throw new Error(`${event.data.code}: ${event.data.message}`);
  }

  // The same agent through the OpenAI-compatible door, streamed: chunks, then [DONE].
  const completion = await api.POST('/api/v2/openai/chat/completions', {
    body: { model: `agent-${agent.id}`, messages: [{ role: 'user', content: 'How long do refunds take?' }], stream: true },
    parseAs: 'stream',
  });
  let completed = '';
  for await (const event of readChatCompletionEvents(completion.response)) {
    if (event.data === '[DONE]') break;
    if ('error' in event.data) throw new Error(event.data.error.message);
    completed += event.data.choices[0]?.delta.content ?? '';
  }

  console.log({ restoredTo, uploaded, steps, total, passages, accepted: accepted.length, logoBytes, bytes: bytes?.size, indexedId, answer, response, seen, completed });
}

function describe(error: ErrorEnvelope | undefined): string {
  return error ? `${error.error.code}: ${error.message}` : 'no answer';
}
