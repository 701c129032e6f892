// The answers asked in this page, by conversation, kept outside the components: an answer goes on
// streaming while its person looks at another thread, and a new thread's first answer carries on
// when the page moves to the thread's address (which the server gives only once the question is
// recorded).
import { useSyncExternalStore } from 'react';
import type { AskRun } from './askRun';

/** A conversation: a thread of an agent, or the agent's new thread not yet opened. */
export function conversationKey(agentId: number, threadId: number | undefined): string {
  return `${agentId}:${threadId ?? 'new'}`;
}

const NONE: readonly AskRun[] = [];
const runs = new Map<string, readonly AskRun[]>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Adds an answer to a conversation; earlier questions the server refused outright are dropped (the newest says it). */
export function addRun(key: string, run: AskRun): void {
  const kept = (runs.get(key) ?? NONE).filter((earlier) => earlier.getSnapshot().responseId !== undefined || earlier.isActive);
  runs.set(key, [...kept, run]);
  changed();
}

/** Moves an answer to another conversation (the new thread's, once it has an id). */
export function moveRun(run: AskRun, from: string, to: string): void {
  runs.set(from, (runs.get(from) ?? NONE).filter((other) => other !== run));
  runs.set(to, [...(runs.get(to) ?? NONE), run]);
  changed();
}

/** Forgets a deleted thread's answers. */
export function forgetConversation(key: string): void {
  for (const run of runs.get(key) ?? NONE) run.stop();
  runs.delete(key);
  changed();
}

export function useConversationRuns(key: string): readonly AskRun[] {
  return useSyncExternalStore(subscribe, () => runs.get(key) ?? NONE);
}
