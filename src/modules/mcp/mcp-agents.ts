// The agent an MCP caller names (API.md §9: an id, an alias or a name), and the agents and corpora
// it may list. Aliases and the agent-{id} form are read as the OpenAI-compatible door reads a model;
// a name is looked up among the agents the caller may ask. Whether the caller may ask the agent found
// is the runtime's to say, as for every door.
import { AppError, BadRequest, NotFound } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { OpenAiModels } from '../openai/openai-models.js';

/** How many agents, and corpora, a listing gives at most (the first by id). */
export const MCP_LIST_MAX = 500;

const ID = /^\d{1,15}$/;

/** The agents a caller may ask: those of its teams and of no team, not inactive (as the OpenAI door's models). */
const ASKABLE = { statuses: ['draft' as const, 'active' as const], sort: { field: 'id' as const, direction: 'asc' as const } };

export class McpDirectory {
  constructor(
    private readonly models: OpenAiModels,
    private readonly agents: AgentsService,
    private readonly corpora: CorporaService,
  ) {}

  /** The agents the caller may ask, first by id. */
  async askableAgents(actor: Actor) {
    return (await this.agents.accessible(actor, ASKABLE, { page: 1, page_size: MCP_LIST_MAX })).items;
  }

  /** The corpora the caller may read, first by id. */
  async readableCorpora(actor: Actor) {
    return (await this.corpora.list(actor, { limit: MCP_LIST_MAX, offset: 0 })).items;
  }

  /** The id of the agent named by id, alias, agent-{id} or name; a 404 when none, a 400 when a name is ambiguous. */
  async agentIdOf(actor: Actor, reference: number | string): Promise<number> {
    if (typeof reference === 'number') return reference;
    const text = reference.trim();
    if (ID.test(text)) return Number(text);
    try {
      return await this.models.agentOf(actor, text);
    } catch (error) {
      // Not an alias nor agent-{id}: perhaps a name. An ambiguous alias stays the error it is.
      if (!(error instanceof AppError && error.status === 404)) throw error;
    }
    const named = await this.agentsNamed(actor, text);
    if (named.length === 1) return named[0]!.id;
    if (named.length > 1) {
      throw new BadRequest(`Several agents are named "${text}" (ids ${named.map((agent) => agent.id).join(', ')}); name one by its id`);
    }
    throw new NotFound('agent', `"${text}"`);
  }

  /** The corpus named by id or name, among those the caller may read; a 404 otherwise, as the API answers. */
  async corpusIdOf(actor: Actor, reference: number | string): Promise<number> {
    if (typeof reference === 'number') return reference;
    const text = reference.trim();
    if (ID.test(text)) return Number(text);
    const { items } = await this.corpora.list(actor, { limit: MCP_LIST_MAX, offset: 0 }, text);
    const named = pickByName(items, text);
    if (named.length === 1) return named[0]!.id;
    if (named.length > 1) {
      throw new BadRequest(`Several corpora are named "${text}" (ids ${named.map((corpus) => corpus.id).join(', ')}); name one by its id`);
    }
    throw new NotFound('corpus', `"${text}"`);
  }

  private async agentsNamed(actor: Actor, name: string) {
    if (name.length > 200) return [];
    const { items } = await this.agents.accessible(actor, { ...ASKABLE, q: name }, { page: 1, page_size: MCP_LIST_MAX });
    return pickByName(items, name);
  }
}

/** Those named exactly so; else those named so ignoring case. */
function pickByName<T extends { name: string }>(items: T[], name: string): T[] {
  const exact = items.filter((item) => item.name === name);
  if (exact.length > 0) return exact;
  const lower = name.toLowerCase();
  return items.filter((item) => item.name.toLowerCase() === lower);
}
