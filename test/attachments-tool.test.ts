// The attachment tool reads the files of the conversation it runs in, and only those: the list, one
// file's text (cut to max_characters), the passages that match a query, best first. Another thread's
// or organization's attachment cannot be named; a run without a thread, or in a thread the person
// asking does not own, is told so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttachmentTool } from '../src/tools/attachment/index.js';
import type { StoredTool } from '../src/tools/tool.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createThread } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { actorOf, runContext } from './support/tool-context.js';

/** Paragraphs long enough to be passages of their own (about a thousand characters each). */
const paragraph = (first: string, filler: string) => `${first} ${`${filler} `.repeat(12).trim()}`;
const REPORT = [
  'Annual report 2026.',
  paragraph('Revenue grew by twelve percent, driven by the new subscription plans in Europe.', 'Sales teams met their targets in every quarter.'),
  paragraph('The office in Lisbon opened in March and now employs forty people.', 'The new team works on support and sales.'),
  paragraph('Risks: currency exchange rates and the cost of cloud hosting may rise next year.', 'Exchange rates moved against the euro twice.'),
  paragraph('Hosting costs were reduced by moving storage to a cheaper provider.', 'Hosting costs fell for the storage of backups and hosting of logs.'),
].join('\n\n');

describe.each(databaseKinds)('attachment tool (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let foreigner: TestUser;
  let thread: number;
  let secondThread: number;
  let report: number;
  let notes: number;
  let elsewhere: number;

  const give = async (user: TestUser, threadId: number, filename: string, text: string) =>
    (await t.app.services.attachments.attach(actorOf(user), threadId, [{ filename, bytes: Buffer.from(text) }]))[0]!.id;
  const toolOf = (config: Record<string, unknown> = {}, maxOutputCharacters = 16_000) => {
    const stored: StoredTool = { id: 4, organization_id: owner.organizationId, kind: 'attachment', name: 'read_files', description: 'Reads the files given in the chat', config, secret: null };
    return createAttachmentTool(stored, { store: t.app.services.store, maxOutputCharacters });
  };
  const runIn = (threadId: number | null, input: Record<string, unknown>, user = owner, tool = toolOf()) => tool.run(input, runContext(actorOf(user), { threadId }));

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'admin' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const agentId = (await createAgent(owner)).id;
    thread = (await createThread(owner, agentId)).id;
    secondThread = (await createThread(owner, agentId)).id;
    report = await give(owner, thread, 'report.txt', REPORT);
    notes = await give(owner, thread, 'notes.md', '# Notes\n\nCall the Lisbon office on Monday.');
    elsewhere = await give(owner, secondThread, 'other-thread.txt', 'Text of another conversation.');
  });
  afterAll(() => t.close());

  it('lists the files of the run’s thread only', async () => {
    const outcome = await runIn(thread, {});
    expect(outcome.status).toBe('ok');
    expect(outcome.output).toBe(
      [
        'Files given in this conversation (2). Read one with its attachment_id, and a query for the passages that match.',
        `- attachment_id ${report}: report.txt (txt, ${REPORT.length.toLocaleString('en-US')} characters)`,
        `- attachment_id ${notes}: notes.md (md, 40 characters)`,
      ].join('\n'),
    );
    const agentId = (await createAgent(owner)).id;
    const empty = (await createThread(owner, agentId)).id;
    expect(await runIn(empty, {})).toEqual({ status: 'ok', output: 'No files have been given in this conversation.' });
  });

  it('reads one file whole, or its start cut to max_characters', async () => {
    const whole = await runIn(thread, { attachment_id: notes });
    expect(whole.output).toBe('notes.md (md, 40 characters):\n\nNotes\n\nCall the Lisbon office on Monday.');
    const whole2 = await runIn(thread, { attachment_id: report }, owner, toolOf({ max_characters: 100_000 }));
    expect(whole2.output.endsWith(REPORT)).toBe(true);
    const cut = await runIn(thread, { attachment_id: report }, owner, toolOf({ max_characters: 200 }));
    expect(cut.output.length).toBeLessThanOrEqual(200);
    expect(cut.output).toMatch(/^report\.txt \(txt, [\d,]+ characters\), its first \d+ characters \(give a query for the passages that match\):\n\nAnnual report 2026\./);
    const capped = await runIn(thread, { attachment_id: report }, owner, toolOf({}, 150));
    expect(capped.output.length).toBeLessThanOrEqual(150);
  });

  it('gives the passages that match a query, best first', async () => {
    const outcome = await runIn(thread, { attachment_id: report, query: 'hosting costs' }, owner, toolOf({ max_characters: 100_000 }));
    expect(outcome.status).toBe('ok');
    expect(outcome.output).toMatch(/^Passages of report\.txt \(txt, [\d,]+ characters\) matching "hosting costs", best first\.\n\n\[1\] part \d+ \(score 0\.\d\d\)\n/);
    const first = outcome.output.indexOf('Hosting costs were reduced');
    const second = outcome.output.indexOf('cost of cloud hosting');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(outcome.output).not.toContain('Lisbon');
    expect((await runIn(thread, { attachment_id: report, query: 'zebra' })).output).toBe(`No passage of report.txt (txt, ${REPORT.length.toLocaleString('en-US')} characters) matches "zebra".`);
  });

  it('cannot name another thread’s attachment, nor read a thread the person asking does not own', async () => {
    const outcome = await runIn(thread, { attachment_id: elsewhere });
    expect(outcome.status).toBe('error');
    expect(outcome.output).toMatch(/^There is no attachment \d+ in this conversation/);
    expect(outcome.output).not.toContain('another conversation');
    expect((await runIn(secondThread, { attachment_id: report })).status).toBe('error');

    for (const user of [other, foreigner]) {
      expect(await runIn(thread, {}, user)).toEqual({ status: 'error', output: 'The files of this conversation cannot be read' });
      expect(await runIn(thread, { attachment_id: report }, user)).toEqual({ status: 'error', output: 'The files of this conversation cannot be read' });
    }
  });

  it('tells a run without a thread that attachments need one, and refuses malformed arguments', async () => {
    expect(await runIn(null, {})).toEqual({ status: 'error', output: 'Attachments need a conversation: this call has no thread, so there are no files to read' });
    expect(await runIn(thread, { attachment_id: 'first' })).toEqual({ status: 'error', output: 'attachment_id must be a positive integer' });
    expect(await runIn(thread, { attachment_id: report, query: '' })).toEqual({ status: 'error', output: 'query must be a non-empty string' });
    expect(await runIn(thread, { attachment_id: 999_999 })).toMatchObject({ status: 'error' });
  });

  it('forgets a removed attachment and the files of a deleted thread', async () => {
    const removable = await give(owner, thread, 'temporary.txt', 'Temporary words.');
    expect((await runIn(thread, {})).output).toContain('temporary.txt');
    expect((await owner.api.delete(`/api/v2/threads/${thread}/attachments/${removable}`)).status).toBe(200);
    expect((await runIn(thread, {})).output).not.toContain('temporary.txt');
    expect((await owner.api.delete(`/api/v2/threads/${secondThread}`)).status).toBe(200);
    expect(await runIn(secondThread, {})).toEqual({ status: 'error', output: 'The files of this conversation cannot be read' });
  });
});
