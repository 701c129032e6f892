// The A2A tasks of this process: kept in memory, for the SDK's request handler to follow a task while
// it runs and for GetTask (tasks/get) to read it shortly after. A task is transient by design: the
// answer it carries is recorded as an agent response in its thread (the contextId), which is what
// lasts. Bounded in count and age, so memory stays flat however many tasks are asked for; scoped by
// owner (a2a-caller.ts), so a task id never finds another caller's task. Listing tasks is not
// offered (ListTasks answers "unsupported operation"): the threads and responses routes list what
// lasts.
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { ListTasksResponse, Task } from '@a2a-js/sdk';
import { ownerOf } from './a2a-caller.js';

export interface TaskStoreLimits {
  maxTasks: number;
  maxAgeMs: number;
}

export const TASK_STORE_LIMITS: TaskStoreLimits = { maxTasks: 10_000, maxAgeMs: 60 * 60 * 1000 };

interface StoredTask {
  task: Task;
  savedAt: number;
}

export class TransientTaskStore implements TaskStore {
  /** By owner and task id, the least recently saved first (a save moves a task to the end). */
  private readonly tasks = new Map<string, StoredTask>();

  constructor(
    private readonly limits: TaskStoreLimits = TASK_STORE_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    this.forgetExpired();
    const stored = this.tasks.get(keyOf(context, taskId));
    return Promise.resolve(stored ? structuredClone(stored.task) : undefined);
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    const key = keyOf(context, task.id);
    this.tasks.delete(key);
    this.tasks.set(key, { task: structuredClone(task), savedAt: this.clock() });
    this.forgetExpired();
    return Promise.resolve();
  }

  list(): Promise<ListTasksResponse> {
    return Promise.reject(new UnsupportedOperationError('Listing tasks is not offered: tasks are transient; the threads and responses of the API list what was asked'));
  }

  /** Drops the oldest tasks beyond the count, and those older than the age. */
  private forgetExpired() {
    const oldest = this.clock() - this.limits.maxAgeMs;
    for (const [key, stored] of this.tasks) {
      if (this.tasks.size <= this.limits.maxTasks && stored.savedAt >= oldest) break;
      this.tasks.delete(key);
    }
  }
}

const keyOf = (context: ServerCallContext, taskId: string) => `${ownerOf(context)}\n${taskId}`;
