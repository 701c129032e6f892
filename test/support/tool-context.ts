// A tool's run context for tests that call a tool directly: the caller, the thread, a deadline and
// a byte cap as the runtime sets them.
import type { Actor } from '../../src/modules/auth/actor.js';
import type { ToolRunContext } from '../../src/tools/tool.js';
import type { TestUser } from './factories.js';

export function actorOf(user: Pick<TestUser, 'id' | 'organizationId' | 'role' | 'email'>): Actor {
  return { userId: user.id, organizationId: user.organizationId, email: user.email, role: user.role, credential: { kind: 'api_key', id: 0 } };
}

export function runContext(actor: Actor, overrides: Partial<ToolRunContext> = {}): ToolRunContext {
  return { actor, threadId: null, signal: new AbortController().signal, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, ...overrides };
}
