// Who may do what to agents, one line each. Everyone in an organization sees its agents; viewers
// only read; an agent is deleted by its creator or an owner or admin.
import { Forbidden } from '../../errors.js';
import type { Actor } from '../auth/actor.js';

const isAdmin = (actor: Actor) => actor.role === 'owner' || actor.role === 'admin';

export const agentPolicy = {
  mayCreate: (actor: Actor) => actor.role !== 'viewer',
  mayChange: (actor: Actor) => actor.role !== 'viewer',
  mayRestore: (actor: Actor) => actor.role !== 'viewer',
  mayDelete: (actor: Actor, agent: { created_by: number }) => isAdmin(actor) || agent.created_by === actor.userId,
};

export function authorize(allowed: boolean, message: string): void {
  if (!allowed) throw new Forbidden(message);
}
