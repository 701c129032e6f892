// The attachment tool: the model reads the files given in the conversation it answers in, and only
// those. Without an id it lists them; with an id it reads one (cut to max_characters), or with a
// query the passages of it that match, best first. Files of another thread or organization cannot
// be named: every read is scoped to the run's thread, which the person asking must own. A run
// without a thread (a test run) is told that attachments need one.
import type { Actor } from '../../modules/auth/actor.js';
import { cutText, numberedPassagesText } from '../numbered-text.js';
import type { RunnableTool, StoredTool, ToolOutcome } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';
import { ATTACHMENT_DEFAULT_MAX_CHARACTERS, type AttachmentConfig } from './config.js';
import { matchingPassages, SEARCHED_CHARACTERS } from './text-passages.js';

/** Passages given for a query at most. */
export const ATTACHMENT_PASSAGES = 5;

const PARAMETERS = {
  type: 'object',
  properties: {
    attachment_id: { type: 'integer', minimum: 1, description: 'The attachment to read; leave it out to list the files given in this conversation' },
    query: { type: 'string', minLength: 1, maxLength: 1_000, description: 'With attachment_id: only the passages of the file that match this, best first' },
  },
  additionalProperties: false,
};

const count = (n: number) => n.toLocaleString('en-US');

type AttachmentDeps = Pick<ToolDeps, 'store' | 'maxOutputCharacters'>;

export function createAttachmentTool(tool: StoredTool, deps: AttachmentDeps): RunnableTool {
  const config = tool.config as AttachmentConfig;
  const limit = Math.min(config.max_characters ?? ATTACHMENT_DEFAULT_MAX_CHARACTERS, deps.maxOutputCharacters);
  const { repos } = deps.store;

  async function list(organizationId: number, threadId: number): Promise<ToolOutcome> {
    const attachments = await repos.attachments.listOfThread(organizationId, threadId);
    if (attachments.length === 0) return { status: 'ok', output: 'No files have been given in this conversation.' };
    const lines = attachments.map((a) => `- attachment_id ${a.id}: ${a.filename} (${a.type}, ${count(a.characters)} characters)`);
    const text = [`Files given in this conversation (${attachments.length}). Read one with its attachment_id, and a query for the passages that match.`, ...lines].join('\n');
    return { status: 'ok', output: cutText(text, deps.maxOutputCharacters) };
  }

  async function read(organizationId: number, threadId: number, attachmentId: unknown, query: unknown): Promise<ToolOutcome> {
    if (typeof attachmentId !== 'number' || !Number.isInteger(attachmentId) || attachmentId < 1) return { status: 'error', output: 'attachment_id must be a positive integer' };
    if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) return { status: 'error', output: 'query must be a non-empty string' };
    const attachment = await repos.attachments.textOf(organizationId, threadId, attachmentId);
    if (!attachment) return { status: 'error', output: `There is no attachment ${attachmentId} in this conversation; call the tool without attachment_id to list them` };
    const about = `${attachment.filename} (${attachment.type}, ${count(attachment.characters)} characters)`;
    if (query === undefined) {
      const whole = `${about}:\n\n${attachment.text}`;
      if (whole.length <= limit) return { status: 'ok', output: whole };
      const room = Math.max(limit - about.length - 120, 0);
      const head = `${about}, its first ${count(room)} characters (give a query for the passages that match):`;
      return { status: 'ok', output: cutText(`${head}\n\n${cutText(attachment.text, room)}`, limit) };
    }
    const found = matchingPassages(attachment.text, query, ATTACHMENT_PASSAGES);
    const searched = attachment.characters > SEARCHED_CHARACTERS ? `; its first ${count(SEARCHED_CHARACTERS)} characters were searched` : '';
    if (found.length === 0) return { status: 'ok', output: `No passage of ${about} matches "${query}"${searched}.` };
    const head = `Passages of ${about} matching "${query}", best first${searched}.`;
    const passages = found.map((passage) => ({ label: `part ${passage.number} (score ${passage.score.toFixed(2)})`, text: passage.text }));
    return { status: 'ok', output: numberedPassagesText(head, passages, limit) };
  }

  /** The run's thread if the actor owns it (the runtime answers only in the asker's own threads). */
  async function ownedThread(actor: Actor, threadId: number): Promise<boolean> {
    const thread = await repos.threads.find(actor.organizationId, threadId);
    return thread !== undefined && thread.user_id === actor.userId;
  }

  return {
    id: tool.id,
    kind: 'attachment',
    definition: { name: tool.name, description: tool.description, parameters: PARAMETERS },
    async run(input, context) {
      if (context.threadId === null) return { status: 'error', output: 'Attachments need a conversation: this call has no thread, so there are no files to read' };
      try {
        if (!(await ownedThread(context.actor, context.threadId))) return { status: 'error', output: 'The files of this conversation cannot be read' };
        const { attachment_id: attachmentId, query } = input ?? {};
        if (attachmentId === undefined) return await list(context.actor.organizationId, context.threadId);
        return await read(context.actor.organizationId, context.threadId, attachmentId, query);
      } catch {
        return { status: 'error', output: 'Reading the attachments failed because of a fault of the server' };
      }
    },
  };
}
