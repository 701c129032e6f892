import { DEFAULT_SEARCH_LANGUAGE } from '../../search/languages.js';
import { now } from '../../clock.js';
import type { CorpusPermission } from '../../db/schema.js';
import { Forbidden, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../auth/actor.js';
import { commitAgentChange } from '../agents/agent-changes.js';
import { authorize } from '../agents/agent.policy.js';
import type { UnitOfWork } from '../../repositories.js';
import type { CorpusWithGrant } from './corpora.repo.js';
import type { CorpusView, CreateCorpusInput, UpdateCorpusInput } from './corpora.schemas.js';
import { allows, corpusPolicy, effectivePermission, isOrganizationAdmin } from './corpus.policy.js';
import { presentCorpus, presentDocumentCounts, type RetrievalMode } from './corpus.presenter.js';

const NEEDS: Record<CorpusPermission, string> = {
  read: 'read',
  write: 'write permission on the corpus',
  manage: 'manage permission on the corpus',
};

export interface CorpusAccess {
  corpus: CorpusWithGrant;
  permission: CorpusPermission;
}

export class CorporaService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly retrievalMode: () => RetrievalMode,
  ) {}

  /**
   * The corpus, if the caller may do what `needed` names to it. A corpus of another organization,
   * or one the caller holds no permission on, is a 404; too weak a permission is a 403.
   */
  async requireCorpus(actor: Actor, corpusId: number, needed: CorpusPermission): Promise<CorpusAccess> {
    const corpus = await this.store.repos.corpora.findWithGrant(actor.organizationId, corpusId, actor.userId);
    const permission = effectivePermission(actor, corpus?.granted);
    if (!corpus || !permission) throw new NotFound('corpus', corpusId);
    if (!allows(permission, needed)) throw new Forbidden(`This needs ${NEEDS[needed]}`);
    return { corpus, permission };
  }

  /**
   * For a record kept on a corpus (a connector, a mailbox): the caller must be able to write to the
   * corpus. One who cannot see the corpus is told the record does not exist (404 under the record's
   * own name, never the corpus's); a weaker permission is a 403.
   */
  async requireWritableHolder(actor: Actor, corpusId: number, resource: string, id: number): Promise<void> {
    try {
      await this.requireCorpus(actor, corpusId, 'write');
    } catch (error) {
      if (error instanceof NotFound) throw new NotFound(resource, id);
      throw error;
    }
  }

  /** The corpus as GET answers it, for an access its check already found (a conditional read). */
  async present(access: CorpusAccess): Promise<CorpusView> {
    const counts = presentDocumentCounts(await this.store.repos.corpora.documentCounts(access.corpus.organization_id, access.corpus.id));
    return presentCorpus(access.corpus, access.permission, this.retrievalMode(), counts);
  }

  async create(actor: Actor, input: CreateCorpusInput): Promise<CorpusView> {
    authorize(corpusPolicy.mayCreate(actor), 'Viewers may not create corpora');
    const at = now();
    const corpusId = await this.store.transaction(async (repos) => {
      const corpus = await repos.corpora.insert({
        organization_id: actor.organizationId,
        name: input.name,
        description: input.description ?? '',
        conversation_starters: input.conversation_starters ?? [],
        language: input.language ?? DEFAULT_SEARCH_LANGUAGE,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      // The creator manages what they made, whatever their role.
      await repos.corpora.grant(corpus.id, actor.userId, 'manage', actor.userId, at);
      return corpus.id;
    });
    return this.get(actor, corpusId);
  }

  async get(actor: Actor, corpusId: number): Promise<CorpusView> {
    return this.present(await this.requireCorpus(actor, corpusId, 'read'));
  }

  async list(actor: Actor, window: ListWindow, q?: string): Promise<ListSlice<CorpusView>> {
    const onlyGranted = !isOrganizationAdmin(actor);
    const { items: rows, total } = await this.store.repos.corpora.list(actor.organizationId, window, { userId: actor.userId, onlyGranted, q });
    const items = await Promise.all(rows.map((corpus) => this.present({ corpus, permission: effectivePermission(actor, corpus.granted)! })));
    return { items, total };
  }

  async update(actor: Actor, corpusId: number, input: UpdateCorpusInput): Promise<CorpusView> {
    const { corpus } = await this.requireCorpus(actor, corpusId, 'manage');
    const fields = sentFields(input, ['name', 'description', 'language']);
    await this.store.transaction(async (repos) => {
      await repos.corpora.update(actor.organizationId, corpusId, { ...fields, modified_on: now(), modified_by: actor.userId });
      // The stored terms were made for the old language; in the same transaction, so that no search
      // sees the corpus half in one language and half in the other.
      if (fields.language !== undefined && fields.language !== corpus.language) await repos.passages.reanalyzeCorpus(corpusId);
    });
    return this.get(actor, corpusId);
  }

  /** Deletes the corpus with its documents, chunks and events; then its stored files. */
  async delete(actor: Actor, corpusId: number): Promise<void> {
    await this.requireCorpus(actor, corpusId, 'manage');
    const keys = await this.store.transaction(async (repos) => {
      const fileKeys = await repos.documents.fileKeysOfCorpus({ organizationId: actor.organizationId, corpusId });
      await repos.corpora.delete(actor.organizationId, corpusId);
      return fileKeys;
    });
    for (const key of keys) await this.blobs.delete(key);
  }

  // Permissions

  async listPermissions(actor: Actor, corpusId: number) {
    await this.requireCorpus(actor, corpusId, 'manage');
    return this.store.repos.corpora.listPermissions(corpusId);
  }

  async grant(actor: Actor, corpusId: number, userId: number, permission: CorpusPermission) {
    await this.requireCorpus(actor, corpusId, 'manage');
    const user = await this.store.repos.users.findInOrganization(actor.organizationId, userId);
    if (!user) throw new NotFound('user', userId);
    await this.store.repos.corpora.grant(corpusId, userId, permission, actor.userId, now());
    return (await this.store.repos.corpora.listPermissions(corpusId)).find((entry) => entry.user_id === userId)!;
  }

  async revoke(actor: Actor, corpusId: number, userId: number): Promise<void> {
    await this.requireCorpus(actor, corpusId, 'manage');
    if (!(await this.store.repos.corpora.revoke(corpusId, userId))) throw new NotFound(`Permission of user ${userId} on corpus ${corpusId}`);
  }

  // Agents

  async listAgents(actor: Actor, corpusId: number) {
    await this.requireCorpus(actor, corpusId, 'read');
    return (await this.store.repos.corpora.listAgents(corpusId)).map(({ created_on, ...agent }) => ({ ...agent, connected_on: created_on }));
  }

  private async requireAgent(actor: Actor, agentId: number) {
    const agent = await this.store.repos.agents.findVisible(actor.organizationId, agentId);
    if (!agent) throw new NotFound('agent', agentId);
    return agent;
  }

  /**
   * Connecting and disconnecting change the agent's configuration: each bumps the agent's version
   * and appends a history record, like any other change of the agent. Connecting twice changes nothing.
   */
  async connectAgent(actor: Actor, corpusId: number, agentId: number) {
    const { corpus } = await this.requireCorpus(actor, corpusId, 'manage');
    const agent = await this.requireAgent(actor, agentId);
    if (!agent.corpus_ids.includes(corpusId)) {
      await this.store.transaction((repos) =>
        commitAgentChange(repos, actor, agentId, {}, { kind: 'update', checkpointName: `Connected to corpus ${corpus.name}`, connection: { connect: corpusId } }),
      );
    }
    return this.listAgents(actor, corpusId);
  }

  async disconnectAgent(actor: Actor, corpusId: number, agentId: number): Promise<void> {
    const { corpus } = await this.requireCorpus(actor, corpusId, 'manage');
    const agent = await this.store.repos.agents.findVisible(actor.organizationId, agentId);
    if (!agent?.corpus_ids.includes(corpusId)) throw new NotFound(`Agent ${agentId} connected to corpus ${corpusId}`);
    await this.store.transaction((repos) =>
      commitAgentChange(repos, actor, agentId, {}, { kind: 'update', checkpointName: `Disconnected from corpus ${corpus.name}`, connection: { disconnect: corpusId } }),
    );
  }

  async getDefaultAgent(actor: Actor, corpusId: number) {
    const { corpus } = await this.requireCorpus(actor, corpusId, 'read');
    if (corpus.default_agent_id === null) return { agent_id: null, name: null };
    const agent = await this.store.repos.agents.findVisible(actor.organizationId, corpus.default_agent_id);
    return agent ? { agent_id: agent.id, name: agent.name } : { agent_id: null, name: null };
  }

  async setDefaultAgent(actor: Actor, corpusId: number, agentId: number | null) {
    await this.requireCorpus(actor, corpusId, 'manage');
    if (agentId !== null) await this.requireAgent(actor, agentId);
    await this.store.repos.corpora.update(actor.organizationId, corpusId, { default_agent_id: agentId, modified_on: now(), modified_by: actor.userId });
    return this.getDefaultAgent(actor, corpusId);
  }

  // Conversation starters

  async getStarters(actor: Actor, corpusId: number) {
    return { conversation_starters: (await this.get(actor, corpusId)).conversation_starters };
  }

  async setStarters(actor: Actor, corpusId: number, starters: string[]) {
    await this.requireCorpus(actor, corpusId, 'write');
    await this.store.repos.corpora.update(actor.organizationId, corpusId, {
      conversation_starters: starters,
      modified_on: now(),
      modified_by: actor.userId,
    });
    return this.getStarters(actor, corpusId);
  }

  /**
   * Proposes conversation starters from what the corpus's documents are about: the headings most
   * passages fall under, else the documents' names. Proposals only; nothing is saved.
   */
  async proposeStarters(actor: Actor, corpusId: number, count: number) {
    await this.requireCorpus(actor, corpusId, 'read');
    const passages = this.store.repos.passages;
    const topics = (await passages.frequentHeadings(corpusId, count * 3))
      .map((heading) => heading.split(' > ').at(-1)!.trim())
      .filter((topic, index, all) => topic.length > 2 && all.indexOf(topic) === index);
    const starters = topics.map((topic) => `What should I know about ${topic}?`);
    if (starters.length < count) {
      for (const source of await passages.indexedSources(actor.organizationId, corpusId, count)) starters.push(`What does ${source} cover?`);
    }
    return { conversation_starters: starters.slice(0, count) };
  }

  /** Corpora an agent draws on, with the state of their documents (for the agent's status). */
  async corporaOfAgent(actor: Actor, agentId: number) {
    const corpora = await this.store.repos.corpora.corporaOfAgent(actor.organizationId, agentId);
    return Promise.all(
      corpora.map(async (corpus) => {
        const counts = presentDocumentCounts(await this.store.repos.corpora.documentCounts(actor.organizationId, corpus.id));
        const busy = counts.total - counts.indexed - counts.failed;
        const status = counts.total === 0 ? 'empty' : busy > 0 ? 'processing' : 'ready';
        return { corpus_id: corpus.id, name: corpus.name, status };
      }),
    );
  }
}
