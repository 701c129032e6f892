// The SDK's AgentExecutor for every agent of the platform: it answers the ask the request handler
// prepared (a2a-request-handler.ts) through the one asking pipeline (AskService.answer: the same
// guardrails, usage events, cost and stored response as POST /api/v2/agents/{id}/responses), and
// tells the answer as A2A events (task-events.ts). A running task can be cancelled (CancelTask,
// tasks/cancel): its model call is aborted, as when the client goes away.
import type { FastifyBaseLogger } from 'fastify';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import type { AskListener, AskService } from '../runtime/ask.service.js';
import { callerOf, callStateOf } from './a2a-caller.js';
import { AnswerChunks, TaskEvents } from './task-events.js';

export class PlatformAgentExecutor implements AgentExecutor {
  /** The tasks answering now, by task id (an id the caller reaches only through its own scoped task store). */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly asks: AskService,
    private readonly log: FastifyBaseLogger,
  ) {}

  execute = async (requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const caller = callerOf(requestContext.context);
    const call = callStateOf(requestContext.context);
    if (!call.prepared) throw new Error('An A2A message without its prepared ask');
    const events = new TaskEvents(bus, requestContext.taskId, requestContext.contextId, requestContext.userMessage);
    const chunks = new AnswerChunks((text) => events.chunk(text));
    const cancel = new AbortController();
    this.running.set(requestContext.taskId, cancel);
    const listener: AskListener = {
      created: ({ id, threadId }) => events.opened(threadId, id),
      ...(call.streaming ? { delta: (text: string) => chunks.push(text) } : {}),
    };
    try {
      const { answer, failure } = await this.asks.answer(caller.actor, call.prepared, listener, AbortSignal.any([call.clientSignal, cancel.signal]));
      chunks.flush();
      events.finished(answer, failure);
    } catch (error) {
      // The SDK ends the task as failed; the cause stays in the log.
      this.log.error({ err: error, taskId: requestContext.taskId }, 'A2A answer failed');
      throw error;
    } finally {
      this.running.delete(requestContext.taskId);
    }
  };

  /** Aborts the task's answer; its execution then publishes the canceled state on the bus. */
  cancelTask = (taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    this.running.get(taskId)?.abort();
    return Promise.resolve();
  };
}
