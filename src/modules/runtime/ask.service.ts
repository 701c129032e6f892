// Asking an agent (API.md §8). An ask is prepared first — who may ask, which thread, what answers,
// the passages the caller may read, the conversation fitted to the context window — and nothing is
// recorded until all of that holds, so a bad ask answers 4xx and changes nothing. Then the question
// is recorded (opening a thread where none was given), the model answers, and the response row is
// completed with what came of it. The row is written as `failed` ("not finished") when the question
// is recorded and completed when the answer ends, so a server stopped mid-answer leaves an honest row.
import type { FastifyBaseLogger } from 'fastify';
import { now } from '../../clock.js';
import { Conflict, NotFound, UpstreamError, UpstreamTimeout } from '../../errors.js';
import type { AgentGuardrails } from '../../guardrails/index.js';
import type { ChatMessage, ChatModel, ModelCallError } from '../../providers/chat/chat-model.js';
import { llmPolicy } from '../llm/llm.policy.js';
import { OFFLINE_MODEL, createOfflineAnswerer } from '../../providers/chat/offline-answerer.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { RunnableTool } from '../../tools/index.js';
import type { Actor } from '../auth/actor.js';
import { requireVisibleAgent } from '../agents/agent-access.js';
import type { AgentConfiguration } from '../agents/agent-config.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';
import type { Citation } from '../chat/responses.schemas.js';
import type { SearchService } from '../retrieval/search.service.js';
import type { Answer, AnswerOutcome, AskedQuestion } from './answer.js';
import { askedQuestion } from './asked-question.js';
import { DEFAULT_CONTEXT_WINDOW, type AnsweringConfiguration, type AnsweringModels } from './answering-model.js';
import { answerCharacterLimit, answerTokenLimit } from './answer-length.js';
import { runAnswerLoop, type AnswerLimits } from './answer-loop.js';
import { NO_GUARDRAILS, blockedBy, guardPassages, type GuardrailActionRecord } from './ask-guardrails.js';
import { citationOf, readableCorpusIds, retrievePassages, type CitablePassage, type NumberedPassage } from './ask-retrieval.js';
import { costOf, roundUsd } from './cost.js';
import { recordAnswerMetrics } from './metrics.js';
import type { RunFailure } from './model-run.js';
import { buildConversation, type Conversation, type Turn } from './prompt.js';
import { ToolBox, type ToolCallRecord } from './tool-calls.js';
import { checkClientAsk, guardContinuation, type ClientAsk } from './client-ask.js';

export interface AskInput {
  query: string;
  thread_id?: number | undefined;
  /** The conversation so far as the caller holds it (OpenAI-compatible access): after the thread's turns, where a thread is given. */
  turns?: Turn[] | undefined;
  /** The thread's turns up to this response of it only (the Responses API's previous_response_id). */
  throughResponseId?: number | undefined;
  /** What followed the question: the calls of the client's tools and the results it sends back (OpenAI-compatible access). */
  continuation?: ChatMessage[] | undefined;
  /** The client's own tools, tool choice and JSON answer (OpenAI-compatible access). */
  client?: ClientAsk | undefined;
  /** A checkpoint of the agent that answers instead of its present configuration, for this ask only (evaluations). */
  checkpoint?: AskCheckpoint | undefined;
  /**
   * false: the same answer, but no thread or response row is written (evaluations keep their own
   * results); the answer comes back without an id. Default true.
   */
  record?: boolean | undefined;
}

/** A history record of the agent whose configuration answers an ask, without restoring it. */
export interface AskCheckpoint {
  /** The record; the answer's history_id. */
  historyId: number;
  /** Its configuration (configurationOf(record.snapshot)), laid over the agent's. */
  configuration: Partial<AgentConfiguration>;
}

/** What an ask tells as it goes: the SSE route writes each as an event; the JSON route listens to none. */
export interface AskListener {
  /** The question is recorded: its response and thread. */
  created?(recorded: { id: number; threadId: number }): void;
  citations?(candidates: Citation[]): void;
  delta?(text: string): void;
  toolCall?(record: ToolCallRecord): void;
  guardrail?(action: GuardrailActionRecord): void;
}

export interface PreparedAsk {
  agent: AgentWithUsers;
  /** The question after the input guardrails: what is recorded and answered. */
  query: string;
  /** An input guardrail blocked the question: it is recorded, not answered. */
  blocked: boolean;
  guardrails: AgentGuardrails;
  /** What the input and context guardrails did. */
  guardrailActions: GuardrailActionRecord[];
  /** The tools the model may call; undefined where it has none (the offline answerer never has). */
  tools: ToolBox | undefined;
  /** What the client brought (OpenAI-compatible access): its tools, offered beside the agent's, and its answer format. */
  client: ClientAsk | undefined;
  /** null: a thread is opened when the question is recorded. */
  threadId: number | null;
  /** false: nothing is written (AskInput.record). */
  record: boolean;
  historyId: number | null;
  configuration: AnsweringConfiguration | null;
  chatModel: ChatModel;
  passages: NumberedPassage[];
  conversation: Conversation;
  /** Timer reading when the question arrived. */
  startedAt: number;
}

export interface AnsweredAsk {
  answer: Answer;
  failure: RunFailure | undefined;
  /** The failure as an HTTP error (502/504), for routes that answer one. */
  upstreamError?: UpstreamError | UpstreamTimeout;
}

const NOT_FINISHED = 'The answer was not finished';
const TITLE_CHARACTERS = 80;

/** The response row and thread of a recorded question. */
interface RecordedQuestion {
  id: number;
  threadId: number;
}

/** A thread's title: the question's first line, cut at a word near 80 characters. */
export function threadTitle(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_CHARACTERS) return flat;
  const cut = flat.slice(0, TITLE_CHARACTERS);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARACTERS / 2 ? cut.slice(0, space) : cut}…`;
}

const pricesOf = (configuration: AnsweringConfiguration | null) =>
  configuration
    ? { inputPerMillion: configuration.input_price_per_million, outputPerMillion: configuration.output_price_per_million }
    : { inputPerMillion: 0, outputPerMillion: 0 };

/**
 * What the asker is told of a model's failure: the whole of it (the provider's address and words) where
 * they may read the LLM configuration's settings, else the failure without them (docs/runtime.md).
 */
const modelFailureFor = (actor: Actor, error: ModelCallError) => (llmPolicy.seesSettings(actor) ? error.message : error.publicMessage);

export const configurationLabel = (configuration: AnsweringConfiguration | null) =>
  configuration === null ? 'The offline answerer' : `LLM configuration "${configuration.name}" (${configuration.id})`;

/** The tools of the organization an agent names, enabled and allowed by the flags, ready to run. */
export type AgentToolSource = { runnableTools(actor: Actor, toolIds: number[]): Promise<RunnableTool[]> };
/** The guardrails an agent names, as the organization's flags allow them. */
export type AgentGuardrailSource = { forAgent(organizationId: number, guardrailIds: number[]): Promise<AgentGuardrails> };

export interface ToolLimits extends AnswerLimits {
  toolTimeoutMs: number;
  toolResponseBytes: number;
  toolOutputCharacters: number;
}

export interface AskServiceOptions {
  llmTimeoutMs: number;
  tools?: AgentToolSource;
  guardrails?: AgentGuardrailSource;
  limits: ToolLimits;
  log: FastifyBaseLogger;
  /** Milliseconds on a monotonic clock; durations are differences of two readings. */
  timer?: () => number;
}

export class AskService {
  private readonly timer: () => number;
  /** Answers still running (a client that left does not stop the recording): awaited before the database closes. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly store: UnitOfWork,
    private readonly search: Pick<SearchService, 'searchCorpora'>,
    private readonly models: AnsweringModels | undefined,
    private readonly options: AskServiceOptions,
  ) {
    this.timer = options.timer ?? (() => performance.now());
  }

  /** Every check and every read an answer needs; records nothing. */
  async prepare(actor: Actor, agentId: number, input: AskInput): Promise<PreparedAsk> {
    const startedAt = this.timer();
    const repos = this.store.repos;
    const visible = await requireVisibleAgent(repos, actor, agentId);
    const agent = input.checkpoint ? { ...visible, ...input.checkpoint.configuration } : visible;
    if (agent.status === 'inactive') throw new Conflict(`Agent ${agentId} is inactive: activate it to ask it`);
    // Independent reads, side by side: on PostgreSQL each is a round trip. Retrieval waits for the
    // input guardrails: it searches with the question they let through.
    const guarding = this.guardedQuestion(actor, agent, input.query);
    const [threadTurns, resolved, guarded, found, historyId] = await Promise.all([
      input.thread_id === undefined ? [] : this.threadTurns(repos, actor, agentId, input.thread_id, input.throughResponseId),
      this.models?.resolveForAnswering(actor.organizationId, agent.llm_configuration_id),
      guarding,
      guarding.then(async ({ query, blocked, guardrails }) => {
        if (blocked) return { passages: [], actions: [] };
        const corpusIds = await readableCorpusIds(repos, actor, agent.corpus_ids);
        return guardPassages(guardrails, await retrievePassages(this.search, corpusIds, query, agent.retrieval));
      }),
      input.checkpoint ? input.checkpoint.historyId : repos.ask.latestHistoryId(actor.organizationId, agentId),
    ]);
    // The offline answerer calls no tools.
    const tools = resolved && agent.tool_ids.length > 0 && this.options.tools ? new ToolBox(await this.options.tools.runnableTools(actor, agent.tool_ids)) : undefined;
    if (input.client) checkClientAsk(input.client, resolved?.configuration ?? null, tools?.definitions.map((tool) => tool.name) ?? []);
    const continued = await guardContinuation(guarded.guardrails, input.continuation ?? []);
    const conversation = buildConversation({
      instructions: agent.instructions,
      passages: found.passages.map((passage) => ({ number: passage.number, source: passage.source, page: passage.page, text: passage.text })),
      turns: [...threadTurns, ...(input.turns ?? [])],
      query: guarded.query,
      continuation: continued.messages,
      withTools: (tools !== undefined && tools.size > 0) || (input.client?.tools.length ?? 0) > 0,
      contextWindow: resolved ? (resolved.configuration.context_window ?? DEFAULT_CONTEXT_WINDOW) : Number.POSITIVE_INFINITY,
      maxTokens: answerTokenLimit(agent.max_tokens, resolved?.configuration ?? null, input.client?.maxTokens),
    });
    const passages = found.passages.slice(0, conversation.passages.length);
    return {
      agent,
      query: guarded.query,
      blocked: guarded.blocked,
      guardrails: guarded.guardrails,
      guardrailActions: [...guarded.actions, ...found.actions, ...continued.actions],
      tools,
      client: input.client,
      threadId: input.thread_id ?? null,
      record: input.record ?? true,
      historyId,
      configuration: resolved?.configuration ?? null,
      chatModel: resolved?.chatModel ?? createOfflineAnswerer(passages),
      passages,
      conversation,
      startedAt,
    };
  }

  /** The agent's guardrails and the question after its input stage. */
  private async guardedQuestion(actor: Actor, agent: AgentWithUsers, query: string) {
    const source = this.options.guardrails;
    const guardrails = source && agent.guardrail_ids.length > 0 ? await source.forAgent(actor.organizationId, agent.guardrail_ids) : NO_GUARDRAILS;
    const result = await guardrails.apply('input', query);
    return { guardrails, query: result.text, blocked: result.blocked, actions: result.verdicts as GuardrailActionRecord[] };
  }

  /**
   * The questions and answers of a thread the caller owns with this agent, oldest first, up to a
   * response of it where one is named. Failed and blocked ones are left out, and so are those that
   * ended with calls of a client's tools (the answer given once their results came back follows them).
   */
  private async threadTurns(repos: Repositories, actor: Actor, agentId: number, threadId: number, throughResponseId?: number) {
    const thread = await repos.ask.threadTurns(actor.organizationId, threadId);
    if (!thread || thread.agentId !== agentId || thread.userId !== actor.userId) throw new NotFound('thread', threadId);
    return thread.responses
      .filter((response) => response.finishReason !== 'tool_calls' && (throughResponseId === undefined || response.id <= throughResponseId))
      .map((response) => ({ query: response.query, answer: response.answer }));
  }

  /** Records the question, lets the model answer, records the outcome. Never throws for a model's failure. */
  answer(actor: Actor, ask: PreparedAsk, listener: AskListener, clientSignal: AbortSignal): Promise<AnsweredAsk> {
    const answering = this.runAnswer(actor, ask, listener, clientSignal);
    this.running.add(answering);
    void answering.finally(() => this.running.delete(answering)).catch(() => undefined);
    return answering;
  }

  /** Waits for answers still being recorded. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async runAnswer(actor: Actor, ask: PreparedAsk, listener: AskListener, clientSignal: AbortSignal): Promise<AnsweredAsk> {
    const question = askedQuestion(actor, ask, now());
    const recorded = ask.record ? await this.recordQuestion(actor, ask, question) : undefined;
    if (recorded) listener.created?.(recorded);
    const actions = [...ask.guardrailActions];
    for (const action of actions) listener.guardrail?.(action);
    if (ask.blocked) return this.finishBlocked(actor, ask, question, recorded, actions);
    listener.citations?.(ask.passages.map(citationOf));

    // The answer streams through the output guardrails; one that blocks it stops the model.
    const output = ask.guardrails.streamOutput();
    const stop = new AbortController();
    let answer = '';
    let verdictsTold = 0;
    const send = (text: string) => {
      if (text === '') return;
      answer += text;
      listener.delta?.(text);
    };
    const tellVerdicts = () => {
      for (const verdict of output.verdicts.slice(verdictsTold)) {
        actions.push(verdict);
        listener.guardrail?.(verdict);
      }
      verdictsTold = output.verdicts.length;
    };
    const maxTokens = answerTokenLimit(ask.agent.max_tokens, ask.configuration, ask.client?.maxTokens);
    const loop = await runAnswerLoop({
      model: ask.chatModel,
      messages: ask.conversation.messages,
      temperature: ask.agent.temperature,
      // A door that sends the answer whole listens to no pieces of it.
      streamed: listener.delta !== undefined,
      maxTokens,
      maxCharacters: answerCharacterLimit(maxTokens, ask.configuration),
      passages: ask.passages.length,
      tools: ask.tools,
      clientTools: ask.client && ask.client.tools.length > 0 ? { definitions: ask.client.tools, choice: ask.client.toolChoice } : undefined,
      responseFormat: ask.client?.responseFormat,
      toolRound: {
        context: { actor, threadId: recorded?.threadId ?? null, signal: clientSignal },
        timeoutMs: this.options.limits.toolTimeoutMs,
        maxResponseBytes: this.options.limits.toolResponseBytes,
        maxOutputCharacters: this.options.limits.toolOutputCharacters,
        guardContext: (text) => ask.guardrails.apply('context', text),
        timer: this.timer,
      },
      limits: this.options.limits,
      prices: pricesOf(ask.configuration),
      clientSignal,
      stopSignal: stop.signal,
      timeoutMs: this.options.llmTimeoutMs,
      elapsed: () => this.timer() - ask.startedAt,
      onDelta: (text) => {
        send(output.push(text));
        tellVerdicts();
        if (output.blocked) stop.abort();
      },
      onToolCall: (record) => listener.toolCall?.(record),
      onVerdicts: (verdicts) => {
        const recorded = verdicts.map((verdict) => ({ ...verdict, source: 'tool result' }));
        actions.push(...recorded);
        for (const action of recorded) listener.guardrail?.(action);
      },
    });
    if (!output.blocked) send(output.flush());
    tellVerdicts();

    const label = configurationLabel(ask.configuration);
    const failure = output.blocked ? undefined : loop.failure;
    const error = output.blocked
      ? blockedBy(actions, 'output')
      : failure === undefined
        ? null
        : failure.kind === 'cancelled'
          ? failure.message
          : `${label}: ${modelFailureFor(actor, failure.error)}`;
    const tokenCost = costOf(loop.tokens, pricesOf(ask.configuration));
    const latencyMs = Math.round(this.timer() - ask.startedAt);
    // The answer's passages and those its tools found share one numbering: each cited number is one citation.
    const byNumber = new Map<number, CitablePassage>([...ask.passages, ...loop.toolPassages].map((passage) => [passage.number, passage]));

    const status = output.blocked ? 'blocked' : failure ? 'failed' : 'completed';
    const outcome: AnswerOutcome = {
      text: answer,
      status,
      error,
      finishReason: status !== 'completed' ? null : loop.cut ? 'length' : loop.clientCalls.length > 0 ? 'tool_calls' : 'stop',
      citations: loop.cited.flatMap((n) => (byNumber.has(n) ? [citationOf(byNumber.get(n)!)] : [])),
      toolCalls: loop.toolCalls,
      guardrailActions: actions,
      tokens: loop.tokens,
      cost: tokenCost === null ? null : roundUsd(tokenCost + loop.toolCost),
      latencyMs,
      firstTokenMs: loop.firstTokenMs,
    };
    const answered = await this.saveAnswer(actor, question, recorded, outcome);
    this.recordMetrics(ask, failure, { prompt: loop.tokens.prompt, completion: loop.tokens.completion, latencyMs, firstTokenMs: loop.firstTokenMs });
    if (failure?.kind === 'model' && failure.cause !== undefined) this.logUnclassified(failure.cause, recorded?.id ?? null);

    if (failure?.kind !== 'model') return { answer: answered, failure };
    const upstreamError = failure.error.status === 504 ? new UpstreamTimeout(error!) : new UpstreamError(error!);
    return { answer: answered, failure, upstreamError };
  }

  /**
   * The answer, its response row completed and its usage event written together (the figures agree
   * with the responses) where the question was recorded.
   */
  private async saveAnswer(actor: Actor, question: AskedQuestion, recorded: RecordedQuestion | undefined, outcome: AnswerOutcome): Promise<Answer> {
    if (!recorded) return { ...question, ...outcome, id: undefined, threadId: undefined };
    // With the thread's last activity: one transaction (ask.repo.ts).
    await this.store.repos.ask.finishResponse(actor.organizationId, recorded, outcome, now());
    return { ...question, ...outcome, ...recorded };
  }

  /** A question an input guardrail blocked: recorded as it was let through, never put to the model. */
  private async finishBlocked(actor: Actor, ask: PreparedAsk, question: AskedQuestion, recorded: RecordedQuestion | undefined, actions: GuardrailActionRecord[]): Promise<AnsweredAsk> {
    const outcome: AnswerOutcome = {
      text: '',
      status: 'blocked',
      error: blockedBy(actions, 'input'),
      finishReason: null,
      citations: [],
      toolCalls: [],
      guardrailActions: actions,
      tokens: { prompt: 0, completion: 0, estimated: false },
      cost: 0,
      latencyMs: Math.round(this.timer() - ask.startedAt),
      firstTokenMs: null,
    };
    return { answer: await this.saveAnswer(actor, question, recorded, outcome), failure: undefined };
  }

  /**
   * The question as a response row not yet finished, in a thread opened for it where none was given,
   * with its usage event: counted as a query from now on, as a failure until its answer ends.
   */
  private recordQuestion(actor: Actor, ask: PreparedAsk, question: AskedQuestion): Promise<RecordedQuestion> {
    const thread = ask.threadId ?? { agentId: ask.agent.id, userId: actor.userId, title: threadTitle(ask.query) };
    return this.store.repos.ask.recordQuestion(actor.organizationId, thread, question, { status: 'failed', error: NOT_FINISHED });
  }

  /**
   * A failure the model layer did not classify is a fault here: logged with where it happened, not with what
   * it said, since an error of a provider library may quote a request and its key.
   */
  private logUnclassified(cause: unknown, responseId: number | null) {
    const name = cause instanceof Error ? cause.name : typeof cause;
    const stack = cause instanceof Error ? cause.stack?.split('\n').slice(1).join('\n') : undefined;
    this.options.log.error({ responseId, error: name, stack }, 'model answer could not be read');
  }

  private recordMetrics(ask: PreparedAsk, failure: RunFailure | undefined, figures: Parameters<typeof recordAnswerMetrics>[2]) {
    const provider = ask.configuration?.provider ?? OFFLINE_MODEL;
    const outcome = failure === undefined ? 'completed' : failure.kind === 'cancelled' ? 'cancelled' : failure.error.errorClass === 'timeout' ? 'timeout' : 'failed';
    recordAnswerMetrics(provider, outcome, figures);
  }
}
