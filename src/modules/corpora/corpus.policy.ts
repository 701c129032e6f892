// Who may do what to a corpus. Owners and admins of the organization manage every corpus; anyone
// else holds a permission per corpus (read < write < manage) or does not see it at all.
import type { CorpusPermission } from '../../db/schema.js';
import type { Actor } from '../auth/actor.js';

const RANK: Record<CorpusPermission, number> = { read: 1, write: 2, manage: 3 };

export const isOrganizationAdmin = (actor: Actor) => actor.role === 'owner' || actor.role === 'admin';

/** The caller's effective permission on a corpus, given the one granted to them (if any). */
export function effectivePermission(actor: Actor, granted: CorpusPermission | null | undefined): CorpusPermission | undefined {
  if (isOrganizationAdmin(actor)) return 'manage';
  return granted ?? undefined;
}

export function allows(held: CorpusPermission | undefined, needed: CorpusPermission): boolean {
  return held !== undefined && RANK[held] >= RANK[needed];
}

export const corpusPolicy = {
  mayCreate: (actor: Actor) => actor.role !== 'viewer',
};
