// Stopping the real server while an answer streams: the log says what the stop waits for, the answer
// finishes and the process exits 0; with a grace too short, the log says what was cut and it exits 1.
// The answer is held by a fake model, so every step waits for an event, never for a time.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from './support/cli-server.js';
import { createScratchDatabase, type ScratchDatabase } from './support/databases.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { parseEvents } from './support/ask.js';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** Resolves with the first JSON log line the child writes from now on that passes the test. */
function nextLogLine(child: ChildProcess, test: (line: LogLine) => boolean): Promise<LogLine> {
  return new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const text of lines) {
        let line: LogLine;
        try {
          line = JSON.parse(text) as LogLine;
        } catch {
          continue;
        }
        if (test(line)) {
          child.stdout!.off('data', onData);
          resolve(line);
        }
      }
    };
    child.stdout!.on('data', onData);
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('stopping the server while an answer streams', () => {
  let fake: FakeLlmServer;
  let scratch: ScratchDatabase;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    scratch = await createScratchDatabase('sqlite');
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await fake.close();
    await scratch.drop();
  });

  /** A server whose owner's agent answers with the fake model; the token and the agent's id. */
  async function serverWithAgent(env: Record<string, string>) {
    const server = await startCliServer({
      ...process.env,
      DATA_DIR: scratch.dataDir,
      // Empty means the embedded SQLite database, whatever DATABASE_URL the suite runs with.
      DATABASE_URL: '',
      ADMIN_EMAIL: 'stop@example.com',
      ADMIN_PASSWORD: 'a password to stop with',
      PASSWORD_HASH_COST: '10',
      LOG_FORMAT: 'json',
      EGRESS_ALLOWED_HOSTS: fake.host,
      ...env,
    });
    children.push(server.child);
    const call = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${server.base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as any;
    };
    const token = (await call('/api/v2/auth/login', { email: 'stop@example.com', password: 'a password to stop with' })).data.token as string;
    const organizationId = (await call('/api/v2/users/me', undefined, token)).data.organization_id as number;
    const configuration = await call(
      `/api/v2/organizations/${organizationId}/llm-configurations`,
      { name: `Fake ${children.length}`, provider: 'openai', model: 'fake-model', base_url: fake.baseUrl, api_key: FAKE_LLM_KEY },
      token,
    );
    const agent = await call('/api/v2/agents', { name: `Agent ${children.length}`, instructions: 'Answer.', llm_configuration_id: configuration.data.id }, token);
    return { server, token, agentId: agent.data.id as number };
  }

  /** Asks with stream: true, and resolves once the first piece of the answer has arrived. */
  async function startStreamingAnswer(server: CliServer, token: string, agentId: number) {
    const response = await fetch(`${server.base}/api/v2/agents/${agentId}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'Count to four', stream: true }),
    });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: delta')) text += new TextDecoder().decode((await reader.read()).value);
    const rest = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
      }
    })();
    return { path: `/api/v2/agents/${agentId}/responses`, rest };
  }

  it('waits for the answer, says so, and exits 0 once it has finished', async () => {
    const { server, token, agentId } = await serverWithAgent({});
    fake.answer = 'One two three four.';
    fake.chunks = undefined;
    const stall = fake.stallNext({ afterChunks: 1 });
    const answer = await startStreamingAnswer(server, token, agentId);
    await stall.arrived;

    const exited = exitCode(server.child);
    const waiting = nextLogLine(server.child, (line) => line.msg.startsWith('shutting down'));
    server.child.kill('SIGTERM');
    const said = await waiting;
    expect(said.graceMs).toBe(135_000);
    expect(said.requests).toEqual([expect.objectContaining({ method: 'POST', url: answer.path, streaming: true })]);
    expect(said.streaming).toBe(1);
    expect(said.msg).toContain(`POST ${answer.path} (streaming)`);

    stall.release();
    const events = parseEvents(await answer.rest);
    expect(events.map((event) => event.event)).toContain('response.completed');
    expect(events.filter((event) => event.event === 'delta').map((event) => event.data.text).join('')).toBe('One two three four.');
    expect(await exited).toBe(0);
  }, 90_000);

  it('past SHUTDOWN_GRACE_MS, says what it cuts and exits 1', async () => {
    const { server, token, agentId } = await serverWithAgent({ SHUTDOWN_GRACE_MS: '200' });
    const stall = fake.stallNext({ afterChunks: 1 });
    const answer = await startStreamingAnswer(server, token, agentId);
    const answerEnd = answer.rest.then(
      () => 'ended',
      () => 'cut',
    );
    await stall.arrived;

    const exited = exitCode(server.child);
    const cut = nextLogLine(server.child, (line) => line.msg.startsWith('shutdown grace'));
    server.child.kill('SIGTERM');
    const said = await cut;
    expect(said.msg).toContain('ran out');
    expect(said.requests).toEqual([expect.objectContaining({ method: 'POST', url: answer.path, streaming: true })]);
    expect(await exited).toBe(1);
    expect(await answerEnd).toBe('cut');
    stall.release();
  }, 90_000);
});
