// Regex metrics run their pattern on RE2 (src/regexp), never on the native engine: a pattern RE2
// cannot run is refused when the metric is defined (400 naming /body/parameters/pattern, on both
// databases), `^(a+)+$` is taken, and scoring a hostile answer reads it on RE2 within a bounded number
// of steps, counted rather than timed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RE2JS } from 're2js';
import { REGEX_INPUT_CHARACTERS, scoreWithoutModel, type AnswerUnderTest, type MetricDefinition, type QueryUnderTest } from '../src/evaluation/answer-scoring.js';
import { compileLinear, WORK_BUDGET } from '../src/regexp/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

afterEach(() => vi.restoreAllMocks());

describe.each(databaseKinds)('defining regex metrics (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let sequence = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t?.close());

  const define = (parameters: Record<string, unknown>) => owner.api.post('/api/v2/metrics', { name: `Pattern ${++sequence}`, kind: 'regex', parameters, threshold: 1 });

  it.each([['(?=a)b'], ['(a)\\1'], ['(?<!x)y'], ['a{1001}']])('refuses %s, which RE2 cannot run, naming the pattern', async (pattern) => {
    const reply = await define({ pattern });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.details).toEqual([{ pointer: '/body/parameters/pattern', message: expect.stringMatching(/RE2/) }]);
  });

  it('takes ^(a+)+$, which RE2 runs in time linear in the answer, with the u flag given or not', async () => {
    expect((await define({ pattern: '^(a+)+$' })).status).toBe(201);
    expect((await define({ pattern: '^(a+)+$', flags: 'iu' })).status).toBe(201);
  });
});

describe('scoring with a regex metric', () => {
  const metric = (parameters: Record<string, unknown>): MetricDefinition => ({ id: 1, name: 'regex', kind: 'regex', parameters, threshold: 1, rubric: null, llm_configuration_id: null });
  const query: QueryUnderTest = { question: 'Say a', expected_answer: null, expected_sources: [] };
  const answerOf = (text: string): AnswerUnderTest => ({ status: 'completed', answer: text, error: null, retrieved_ran: true, retrieved: [], citations: [], latency_ms: 1, cost: null });

  it('reads hostile answers against ^(a+)+$ on RE2, never on the native engine', () => {
    const nativeRuns = vi.spyOn(RegExp.prototype, 'exec');
    const re2Runs = vi.spyOn(RE2JS.prototype, 'test');
    const hostile = metric({ pattern: '^(a+)+$' });
    // A harmless mismatch first: were it read natively, the hostile answers below would hold the server.
    expect(scoreWithoutModel(hostile, query, answerOf('aab'), new Map())).toEqual({ status: 'ok', score: 0 });
    expect(nativeRuns.mock.calls.some(([text]) => text === 'aab')).toBe(false);
    // 100,000 characters: all an answer is read for.
    for (const text of ['a'.repeat(30) + '!', 'a'.repeat(99_999) + '!']) {
      expect(scoreWithoutModel(hostile, query, answerOf(text), new Map())).toEqual({ status: 'ok', score: 0 });
      expect(nativeRuns.mock.calls.some(([argument]) => argument === text)).toBe(false);
    }
    expect(re2Runs.mock.calls.map(([text]) => String(text).length)).toEqual([3, 31, 100_000]);
  });

  it('reads fewer characters of the answer the larger the pattern, within one budget of steps', () => {
    const re2Runs = vi.spyOn(RE2JS.prototype, 'test');
    const large = '^[a-z]{0,999}$';
    expect(scoreWithoutModel(metric({ pattern: large, must_match: false }), query, answerOf('a'.repeat(REGEX_INPUT_CHARACTERS)), new Map())).toEqual({ status: 'ok', score: 1 });
    const read = String(re2Runs.mock.calls[0]![0]).length;
    expect(read).toBe(compileLinear(large).charactersWithin(WORK_BUDGET) - 1);
    expect(compileLinear(large).workOf('a'.repeat(read))).toBeLessThanOrEqual(WORK_BUDGET);
  });

  it('scores an error, without running it, for a pattern saved before RE2 ran them', () => {
    const nativeRuns = vi.spyOn(RegExp.prototype, 'exec');
    const outcome = scoreWithoutModel(metric({ pattern: '(a)\\1' }), query, answerOf('aa'), new Map());
    expect(outcome).toMatchObject({ status: 'error' });
    expect(nativeRuns.mock.calls.some(([text]) => text === 'aa')).toBe(false);
  });
});
