// Seeds an organization's history straight into the database of a stopped (SQLite) or running
// (PostgreSQL) server: usage events over the last DAYS days (answers, embeddings and judges of its
// agents, users and corpora), responses in threads for the first answers, votes and ratings on them,
// and documents with chunks. The figures are made-up but shaped like a busy organization's: a few
// agents and users do most of the asking, costs follow the tokens at a model's prices.
import { seededRandom } from './lib/text-corpus.js';

const DAY_MS = 86_400_000;

/** Rows of each kind for `events` usage events over `days` days ending at `endMs`. */
export function analyticsPlan({ events, days, endMs }) {
  return { events, days, endMs, responses: Math.min(100_000, Math.floor(events / 10)), documents: 20_000, chunksPerDocument: 3 };
}

/** Picks index i of n with weight 1/(i+1): a few agents and users do most of the work. */
function zipfPicker(n, random) {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight / total));
  return () => {
    const r = random();
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < r) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

const iso = (ms) => new Date(ms).toISOString();

/**
 * Writes the history through `sink.insert(table, columns, rows)` (rows are arrays in column order;
 * the sink batches them). `world`: the organization's ids made through the API.
 */
export async function seedAnalytics(sink, world, plan, log) {
  const random = seededRandom(2026);
  const pickAgent = zipfPicker(world.agents.length, random);
  const pickUser = zipfPicker(world.users.length, random);
  const startMs = plan.endMs - plan.days * DAY_MS;
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));

  // Documents first: embedding events name them.
  const documents = [];
  const documentColumns = ['id', 'organization_id', 'corpus_id', 'type', 'source', 'text', 'tags', 'upload_from', 'step', 'failed_on', 'error', 'content_hash', 'size_bytes', 'chunk_count', 'step_timings', 'indexed_on', 'created_on', 'created_by', 'modified_on', 'modified_by'];
  const chunkColumns = ['organization_id', 'corpus_id', 'document_id', 'position', 'text', 'token_count', 'search_title', 'search_heading', 'search_body'];
  let documentRows = [];
  let chunkRows = [];
  for (let i = 0; i < plan.documents; i++) {
    const id = world.firstDocumentId + i;
    const corpusId = world.corpora[i % world.corpora.length];
    const created = startMs + Math.floor((i / plan.documents) * plan.days * DAY_MS);
    const r = random();
    const failed = r < 0.02;
    const step = failed ? 'extracting' : r < 0.03 ? 'queued' : 'indexed';
    const userId = world.users[pickUser()];
    documents.push({ id, corpusId, userId, created });
    documentRows.push([
      id, world.organizationId, corpusId, 'txt', `page-${id}.txt`, 'A page of the handbook.', '[]', 'upload', step,
      failed ? iso(created + 500) : null, failed ? 'The file could not be read' : null, `hash-${id}`, 2048,
      step === 'indexed' ? plan.chunksPerDocument : 0, '{}', step === 'indexed' ? iso(created + 2000) : null, iso(created), userId, iso(created), userId,
    ]);
    if (step === 'indexed') {
      for (let position = 0; position < plan.chunksPerDocument; position++) {
        chunkRows.push([world.organizationId, corpusId, id, position, 'A page of the handbook.', 6, `page ${id}`, '', 'page handbook']);
      }
    }
    if (documentRows.length >= 5000) {
      await sink.insert('documents', documentColumns, documentRows);
      await sink.insert('chunks', chunkColumns, chunkRows);
      documentRows = [];
      chunkRows = [];
    }
  }
  await sink.insert('documents', documentColumns, documentRows);
  await sink.insert('chunks', chunkColumns, chunkRows);
  log(`seeded ${plan.documents} documents`);

  // One thread a (user, agent) pair, made when first needed.
  const threads = new Map();
  let threadRows = [];
  const threadOf = (userId, agentId, at) => {
    const key = `${userId}:${agentId}`;
    let id = threads.get(key);
    if (id === undefined) {
      id = world.firstThreadId + threads.size;
      threads.set(key, id);
      threadRows.push([id, world.organizationId, agentId, userId, `Thread ${id}`, iso(at), iso(at), userId, iso(at), userId]);
    }
    return id;
  };

  const eventColumns = ['organization_id', 'kind', 'status', 'agent_id', 'corpus_id', 'project_id', 'team_id', 'user_id', 'response_id', 'evaluation_id', 'document_id', 'model', 'prompt_tokens', 'completion_tokens', 'tokens_estimated', 'cost_nano_usd', 'latency_ms', 'occurred_on'];
  const responseColumns = ['id', 'organization_id', 'thread_id', 'agent_id', 'project_id', 'query', 'answer', 'status', 'prompt_tokens', 'completion_tokens', 'cost', 'latency_ms', 'model', 'created_on', 'created_by'];
  let eventRows = [];
  let responseRows = [];
  let voteRows = [];
  let ratingRows = [];
  let responses = 0;
  const flush = async (force) => {
    if (!force && eventRows.length < 10_000) return;
    await sink.insert('chat_threads', ['id', 'organization_id', 'agent_id', 'user_id', 'title', 'last_activity_on', 'created_on', 'created_by', 'modified_on', 'modified_by'], threadRows);
    await sink.insert('agent_responses', responseColumns, responseRows);
    await sink.insert('response_votes', ['response_id', 'user_id', 'vote', 'modified_on'], voteRows);
    await sink.insert('response_ratings', ['response_id', 'user_id', 'rating', 'modified_on'], ratingRows);
    await sink.insert('usage_events', eventColumns, eventRows);
    threadRows = [];
    responseRows = [];
    voteRows = [];
    ratingRows = [];
    eventRows = [];
  };

  for (let i = 0; i < plan.events; i++) {
    const at = startMs + Math.floor((i / plan.events) * plan.days * DAY_MS) + between(0, 5000);
    const r = random();
    const agent = world.agents[pickAgent()];
    const userId = world.users[pickUser()];
    if (r < 0.85) {
      const prompt = between(200, 3000);
      const completion = between(20, 600);
      const cost = Math.round(prompt * 2500 + completion * 10000); // 2.5 and 10 USD a million tokens, in nano-dollars
      const s = random();
      const status = s < 0.95 ? 'completed' : s < 0.98 ? 'failed' : 'blocked';
      const latency = between(300, 8000);
      let responseId = null;
      if (responses < plan.responses) {
        responseId = world.firstResponseId + responses++;
        const threadId = threadOf(userId, agent.id, at);
        responseRows.push([responseId, world.organizationId, threadId, agent.id, agent.projectId, 'When are tickets refunded?', 'Within thirty days.', status, prompt, completion, cost / 1e9, latency, 'bench-model', iso(at), userId]);
        const v = random();
        if (v < 0.5) voteRows.push([responseId, userId, v < 0.4 ? 'up' : 'down', iso(at + 60_000)]);
        if (v < 0.2) ratingRows.push([responseId, userId, between(1, 5), iso(at + 90_000)]);
      }
      eventRows.push([world.organizationId, 'answer', status, agent.id, null, agent.projectId, agent.teamId, userId, responseId, null, null, 'bench-model', prompt, completion, 0, cost, latency, iso(at)]);
    } else if (r < 0.95) {
      const document = documents[between(0, documents.length - 1)];
      eventRows.push([world.organizationId, 'embedding', null, null, document.corpusId, null, null, document.userId, null, null, document.id, 'bench-embed', between(100, 2000), 0, 0, null, null, iso(at)]);
    } else {
      const prompt = between(500, 4000);
      const completion = between(5, 80);
      eventRows.push([world.organizationId, 'judge', null, agent.id, null, agent.projectId, agent.teamId, world.users[0], null, between(1, 50), null, 'bench-judge', prompt, completion, 0, Math.round(prompt * 2500 + completion * 10000), null, iso(at)]);
    }
    await flush(false);
    if ((i + 1) % 200_000 === 0) log(`seeded ${i + 1} usage events`);
  }
  await flush(true);
  return { threads: threads.size, responses };
}

/** A sink writing with better-sqlite3, in one transaction a batch. */
export function sqliteSink(db) {
  const statements = new Map();
  return {
    async insert(table, columns, rows) {
      if (rows.length === 0) return;
      const key = `${table}:${columns.join(',')}`;
      let statement = statements.get(key);
      if (!statement) {
        statement = db.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
        statements.set(key, statement);
      }
      db.transaction(() => {
        for (const row of rows) statement.run(row);
      })();
    },
  };
}

/** A sink writing with node-postgres, many rows a statement. */
export function postgresSink(client) {
  return {
    async insert(table, columns, rows) {
      const perStatement = Math.floor(60_000 / columns.length);
      for (let start = 0; start < rows.length; start += perStatement) {
        const batch = rows.slice(start, start + perStatement);
        const values = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
        await client.query(`insert into ${table} (${columns.join(', ')}) values ${values}`, batch.flat());
      }
    },
  };
}
