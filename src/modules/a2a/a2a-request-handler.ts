// The SDK's DefaultRequestHandler, with the platform's ask prepared before a message opens a task: the
// user message's text parts are the question, its contextId the thread to continue (one of this
// agent that the caller owns; the thread's id, as the tasks this endpoint makes say it). Everything
// AskService.prepare refuses (an unknown or foreign thread, an inactive agent) is a JSON-RPC error,
// and nothing is recorded; the executor then answers the prepared ask.
import type { FastifyBaseLogger } from 'fastify';
import type { AgentCard, Message, SendMessageRequest, Task, StreamResponse } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError, RequestMalformedError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type AgentExecutor, type ExecutionEventBusManager, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { AppError } from '../../errors.js';
import type { AskService } from '../runtime/ask.service.js';
import { QUERY_MAX_CHARACTERS } from '../runtime/ask.schemas.js';
import { callerOf, callStateOf } from './a2a-caller.js';

/** A contextId this endpoint gave: a thread's id. */
const THREAD_CONTEXT = /^[1-9][0-9]{0,14}$/;

/** The question a message asks: its text parts, joined. */
export function questionOf(message: Message | undefined): string {
  if (!message) throw new RequestMalformedError('params.message is required');
  const texts = message.parts.map((part, index) => {
    if (part.content?.$case !== 'text') throw new ContentTypeNotSupportedError(`Only text parts are read: part ${index} is not text`);
    return part.content.value;
  });
  const question = texts.join('\n').trim();
  if (question === '') throw new RequestMalformedError('The message has no text to ask');
  if (question.length > QUERY_MAX_CHARACTERS) throw new RequestMalformedError(`The question is longer than ${QUERY_MAX_CHARACTERS} characters`);
  return question;
}

/** The thread a contextId continues; undefined: a new thread. */
function threadOf(contextId: string): number | undefined {
  if (contextId === '') return undefined;
  if (!THREAD_CONTEXT.test(contextId)) throw new RequestMalformedError(`contextId ${contextId} names no conversation of this agent: send the contextId of a task it answered, or none`);
  return Number(contextId);
}

/**
 * A refusal of the asking pipeline in A2A's words: a 4xx is the request's fault. Anything else is a
 * fault here, logged, and told without its message (the SDK would send an error's message as it is).
 */
function asA2aError(error: unknown, contextId: string, log: FastifyBaseLogger): Error {
  if (error instanceof AppError && error.status < 500) {
    if (error.status === 404 && contextId !== '') return new RequestMalformedError(`contextId ${contextId} names no conversation of this agent that you may continue`);
    if (error.status === 409) return new UnsupportedOperationError(error.message);
    return new RequestMalformedError(error.message);
  }
  log.error({ err: error }, 'A2A message could not be prepared');
  return new Error('The server failed while preparing the answer; the request id finds it in the log');
}

/** What every agent's handler shares: the asking pipeline, the executor, the tasks and their event buses. */
export interface A2aDoorParts {
  asks: AskService;
  executor: AgentExecutor;
  tasks: TaskStore;
  buses: ExecutionEventBusManager;
}

/** One agent's handler, made per request from its card (a few fields: the SDK keeps no state of its own in it). */
export class PlatformRequestHandler extends DefaultRequestHandler {
  private readonly asks: AskService;

  constructor(
    card: AgentCard,
    parts: A2aDoorParts,
    private readonly log: FastifyBaseLogger,
  ) {
    super(card, parts.tasks, parts.executor, parts.buses);
    this.asks = parts.asks;
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    await this.prepareAsk(params, context, false);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    await this.prepareAsk(params, context, true);
    yield* super.sendMessageStream(params, context);
  }

  private async prepareAsk(params: SendMessageRequest, context: ServerCallContext, streaming: boolean) {
    const caller = callerOf(context);
    const call = callStateOf(context);
    const query = questionOf(params.message);
    // A task of this endpoint answers one message and ends; a conversation goes on in its context.
    if (params.message?.taskId) throw new UnsupportedOperationError('A task answers one message: continue the conversation with its contextId, without a taskId');
    const contextId = params.message?.contextId ?? '';
    const threadId = threadOf(contextId);
    try {
      call.prepared = await this.asks.prepare(caller.actor, caller.agentId, { query, thread_id: threadId });
    } catch (error) {
      throw asA2aError(error, contextId, this.log);
    }
    call.streaming = streaming;
  }
}
