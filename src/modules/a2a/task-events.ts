// The A2A events of one answer, as the executor publishes them on the SDK's event bus: the task once
// the question is recorded (its contextId the thread's id), the answer as an artifact (chunks appended
// while it is generated, when streamed; then the whole answer with its citations as data), and the
// final status. The answer's outcome maps to a task state: completed → completed, blocked by a
// guardrail → rejected, cancelled → canceled, failed → failed (with the reason as the status message).
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { Answer } from '../runtime/answer.js';
import type { RunFailure } from '../runtime/model-run.js';

export const ANSWER_ARTIFACT_ID = 'answer';

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const dataPart = (data: Record<string, unknown>): Part => ({ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' });

const answerArtifact = (parts: Part[]): Artifact => ({
  artifactId: ANSWER_ARTIFACT_ID,
  name: 'answer',
  description: 'The agent’s answer; its last version carries the citations as a data part',
  parts,
  metadata: undefined,
  extensions: [],
});

/** What the data part of the answer holds: the recorded response, its thread and its citations. */
export function answerData(answer: Answer) {
  return { response_id: answer.id ?? null, thread_id: answer.threadId ?? null, status: answer.status, citations: answer.citations };
}

function stateOf(answer: Answer, failure: RunFailure | undefined): TaskState {
  if (answer.status === 'completed') return TaskState.TASK_STATE_COMPLETED;
  if (answer.status === 'blocked') return TaskState.TASK_STATE_REJECTED;
  return failure?.kind === 'cancelled' ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED;
}

export class TaskEvents {
  private contextId: string;
  private chunks = 0;

  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly taskId: string,
    contextId: string,
    private readonly userMessage: Message,
  ) {
    this.contextId = contextId;
  }

  /** The task, working, in the thread the question was recorded in. */
  opened(threadId: number, responseId: number): void {
    this.contextId = String(threadId);
    this.bus.publish(
      AgentEvent.task({
        id: this.taskId,
        contextId: this.contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [{ ...this.userMessage, contextId: this.contextId, taskId: this.taskId }],
        metadata: { thread_id: threadId, response_id: responseId },
      }),
    );
  }

  /** A piece of the answer as it is generated: appended to the answer artifact. */
  chunk(text: string): void {
    this.bus.publish(AgentEvent.artifactUpdate({ taskId: this.taskId, contextId: this.contextId, artifact: answerArtifact([textPart(text)]), append: this.chunks++ > 0, lastChunk: false, metadata: undefined }));
  }

  /** The whole answer and its citations (replacing the chunks), then the final state. */
  finished(answer: Answer, failure: RunFailure | undefined): void {
    const state = stateOf(answer, failure);
    if (state === TaskState.TASK_STATE_COMPLETED) {
      const artifact = answerArtifact([textPart(answer.text), dataPart(answerData(answer))]);
      this.bus.publish(AgentEvent.artifactUpdate({ taskId: this.taskId, contextId: this.contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
    }
    const reason = state === TaskState.TASK_STATE_COMPLETED ? undefined : this.agentMessage(answer.error ?? 'The answer was not finished');
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message: reason, timestamp: new Date().toISOString() },
        metadata: { response_id: answer.id ?? null, response_status: answer.status },
      }),
    );
  }

  private agentMessage(text: string): Message {
    return { messageId: randomUUID(), contextId: this.contextId, taskId: this.taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
  }
}

/**
 * Pieces of a streamed answer gathered into chunks that grow with the answer (up to MAX_CHUNK
 * characters): the first piece goes at once, and an answer of n characters makes O(log n + n/MAX_CHUNK)
 * chunks. Each chunk is an event the SDK folds into the stored task (a copy of it each time), so a
 * chunk per token would cost the square of the answer's length.
 */
export class AnswerChunks {
  private static readonly MAX_CHUNK = 256;
  private pending = '';
  private sent = 0;

  constructor(private readonly send: (text: string) => void) {}

  push(text: string): void {
    this.pending += text;
    if (this.pending.length >= Math.min(AnswerChunks.MAX_CHUNK, Math.max(1, Math.floor(this.sent / 16)))) this.flush();
  }

  flush(): void {
    if (this.pending === '') return;
    this.sent += this.pending.length;
    this.send(this.pending);
    this.pending = '';
  }
}
