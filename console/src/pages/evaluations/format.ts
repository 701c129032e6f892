// How the evaluations pages write figures and states.
import { atLeast } from '../../session/permissions';
import type { CurrentUser } from '../../session/session';
import type { EvaluationStatus } from './evaluations-api';

/** A score or mean: three decimals at most ("0.75", "1"); a dash for none. */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return String(Math.round(value * 1000) / 1000);
}

/** A change, signed ("+0.25", "−0.1", "0"). */
export function formatChange(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const rounded = Math.round(value * 1000) / 1000;
  if (rounded === 0) return '0';
  return rounded > 0 ? `+${rounded}` : `−${Math.abs(rounded)}`;
}

export function formatInterval(low: number | null | undefined, high: number | null | undefined, format = formatScore): string {
  if (low === null || low === undefined || high === null || high === undefined) return '—';
  return `${format(low)} to ${format(high)}`;
}

export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

export const STATUS_LABELS: Record<EvaluationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  budget_exhausted: 'Stopped: budget spent',
  failed: 'Failed',
};

export const STATUS_BADGES: Record<EvaluationStatus, string> = {
  queued: 'badge',
  running: 'badge badge-warning',
  completed: 'badge badge-success',
  cancelled: 'badge',
  budget_exhausted: 'badge badge-warning',
  failed: 'badge badge-danger',
};

/** Owners, admins and whoever made the thing may change it (the server's 403 still decides). */
export function mayChange(user: CurrentUser, createdBy: string | null): boolean {
  return atLeast(user.role, 'admin') || (createdBy !== null && createdBy === user.email);
}

export const mayCreate = (user: CurrentUser) => atLeast(user.role, 'member');

export const VIEWER_CANNOT_CREATE = 'Viewers cannot create this; ask an admin for the member role.';
export const NOT_YOURS = 'Only owners, admins and whoever made it can change it.';
