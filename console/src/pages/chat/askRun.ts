// One question being answered in the page: the streamed POST, its events, and what the page shows of
// it. It is a small external store (subscribe/snapshot, for useSyncExternalStore) rather than React
// state, so that only the answer being written re-renders while it streams, not the thread.
//
// Deltas are appended to a buffer and published at most once per animation frame: a model sending
// hundreds of pieces a second costs one render a frame, and no piece is lost (the buffer is joined
// whole at each frame and flushed before the answer ends).
import { csrfHeaders, reportSessionEnded } from '../../api/client';
import { ApiError, errorOf, UNREACHABLE } from '../../api/errors';
import { readAskEvents } from '@agent-platform/client';
import type { AgentResponse, Citation, GuardrailAction, ToolCall } from './responseTypes';

export type RunStatus = 'sending' | 'streaming' | 'completed' | 'stopped' | 'failed';

/** A tool call or a guardrail's action, at the place in the answer's text where it happened. */
export type AnswerMark = { at: number; kind: 'tool_call'; call: ToolCall } | { at: number; kind: 'guardrail'; action: GuardrailAction };

export interface RunSnapshot {
  query: string;
  status: RunStatus;
  text: string;
  /** The passages put before the model, numbered as the answer's markers. */
  citations: Citation[];
  marks: AnswerMark[];
  /** Set once the question is recorded. */
  responseId?: number;
  threadId?: number;
  /** The whole response, once it has ended well (or been blocked). */
  response?: AgentResponse;
  error?: ApiError;
}

export interface AskRequest {
  agentId: number;
  threadId: number | undefined;
  query: string;
  /** Called once the question is recorded, with the thread it is in (new when none was named). */
  onCreated?: (ids: { responseId: number; threadId: number }) => void;
  /** Called once the answer has ended, however it ended. */
  onSettled?: (run: AskRun) => void;
}

/** The status each error event of the stream stands for (the stream itself answered 200). */
const STREAM_ERROR_STATUS = { upstream_error: 502, upstream_timeout: 504, internal: 500 } as const;

let nextRunKey = 1;

export class AskRun {
  readonly key = `run-${nextRunKey++}`;
  private snapshot: RunSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();
  private pending: string[] = [];
  /** Characters of the answer received so far, the buffer included: where a mark is placed. */
  private received = 0;
  private frame: number | undefined;
  /** Resolves true once the server accepted the question (the stream began), false when it refused it. */
  readonly accepted: Promise<boolean>;

  constructor(private readonly request: AskRequest) {
    this.snapshot = { query: request.query, status: 'sending', text: '', citations: [], marks: [] };
    this.accepted = this.run();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RunSnapshot => this.snapshot;

  get isActive(): boolean {
    return this.snapshot.status === 'sending' || this.snapshot.status === 'streaming';
  }

  /** Stops the answer: the server cancels the model call; what arrived stays, marked as stopped. */
  stop(): void {
    if (!this.isActive) return;
    this.flush();
    this.update({ status: 'stopped' });
    this.controller.abort();
  }

  private update(change: Partial<RunSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  private appendDelta(text: string): void {
    this.pending.push(text);
    this.received += text.length;
    this.frame ??= requestAnimationFrame(() => this.flush());
  }

  /** Publishes the buffered deltas (once a frame, and before anything that ends or marks the answer). */
  private flush(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    if (this.pending.length === 0) return;
    const text = this.snapshot.text + this.pending.join('');
    this.pending = [];
    this.update({ text });
  }

  /** A tool call or guardrail action, placed after the text received before it. */
  private addMark(mark: AnswerMark): void {
    this.flush();
    this.update({ marks: [...this.snapshot.marks, mark] });
  }

  private fail(error: ApiError): void {
    this.flush();
    this.update({ status: 'failed', error });
  }

  private async run(): Promise<boolean> {
    const { agentId, threadId, query } = this.request;
    let response: Response;
    try {
      response = await fetch(`/api/v2/agents/${agentId}/responses`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...csrfHeaders() },
        body: JSON.stringify({ query, stream: true, ...(threadId === undefined ? {} : { thread_id: threadId }) }),
        signal: this.controller.signal,
      });
    } catch {
      if (this.controller.signal.aborted) return false;
      this.fail(new ApiError(UNREACHABLE, 0));
      this.request.onSettled?.(this);
      return false;
    }
    if (!response.ok || response.body === null) {
      // Errors of the ask itself (400, 404, 409, 429…) come as JSON before any stream.
      const body: unknown = await response.json().catch(() => undefined);
      if (response.status === 401) reportSessionEnded();
      const error = errorOf(body, response);
      const retryAfter = response.headers.get('retry-after');
      this.fail(response.status === 429 && retryAfter !== null ? new ApiError(`${error.message} Try again in ${retryAfter} s.`, 429, error.code) : error);
      this.request.onSettled?.(this);
      return false;
    }
    // Stopped while the answer's first bytes were on their way: the stream is already cancelled.
    if (!this.isActive) return false;
    this.update({ status: 'streaming' });
    void this.readStream(response.body);
    return true;
  }

  private async readStream(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const streamed of readAskEvents(body, this.controller.signal)) {
        if (!this.isActive) break;
        switch (streamed.event) {
          case 'response.created': {
            const { id, thread_id } = streamed.data;
            this.update({ responseId: id, threadId: thread_id });
            this.request.onCreated?.({ responseId: id, threadId: thread_id });
            break;
          }
          case 'citations':
            this.update({ citations: streamed.data });
            break;
          case 'delta':
            this.appendDelta(streamed.data.text);
            break;
          case 'tool_call':
            this.addMark({ at: this.received, kind: 'tool_call', call: streamed.data });
            break;
          case 'guardrail':
            this.addMark({ at: this.received, kind: 'guardrail', action: streamed.data });
            break;
          case 'response.completed':
            this.flush();
            this.update({
              status: 'completed',
              response: streamed.data,
              // The deltas joined are the answer; a blocked answer may have had none streamed.
              text: this.snapshot.text === '' ? streamed.data.answer : this.snapshot.text,
            });
            break;
          case 'error':
            this.fail(new ApiError(streamed.data.message, STREAM_ERROR_STATUS[streamed.data.code], streamed.data.code));
            break;
        }
      }
      if (this.isActive) this.fail(new ApiError('The connection closed before the answer ended. Part of it may be missing; ask again.', 0));
    } catch (error) {
      if (this.isActive) this.fail(new ApiError(error instanceof Error && error.name !== 'AbortError' ? `The answer could not be read: ${error.message}` : 'The answer broke off.', 0));
    } finally {
      this.flush();
      this.request.onSettled?.(this);
    }
  }
}
