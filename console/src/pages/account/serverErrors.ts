// The server names the fields it refuses (details with a pointer such as /body/current_password):
// those refusals are shown on the field itself, worded with the field's label ("Current password is
// wrong."), and all of them in the form's alert.
import { useMemo } from 'react';
import { ApiError, messageOf } from '../../api/errors';

export interface FormRefusal {
  /** By the field's `name`, for React Aria's Form `validationErrors` (cleared when the field is edited). */
  fields: Record<string, string>;
  /** What the form's alert says. */
  summary: string;
}

/**
 * `labels`: the form's field names and their labels, e.g. { current_password: 'Current password' };
 * `outcome` opens the alert ("Not saved:").
 */
export function refusalOf(error: unknown, labels: Record<string, string>, outcome = 'Not saved:'): FormRefusal {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fields: {}, summary: messageOf(error) };
  const fields: Record<string, string> = {};
  const sentences = error.details.map(({ pointer, message }) => {
    const name = pointer.replace(/^\/body\//, '');
    const sentence = `${labels[name] ?? name} ${message}.`;
    if (labels[name] !== undefined) fields[name] ??= sentence;
    return sentence;
  });
  return { fields, summary: `${outcome} ${[...new Set(sentences)].join(' ')}` };
}

/** The session ended under the request: the sign-in dialog says so, and the form waits for it. */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * The refusals of the fields that still hold the value the server refused, for React Aria's Form
 * `validationErrors`: typing in a field takes its refusal away at once, so that the next press of
 * the button sends the form (a refusal left on the field would keep the browser from submitting).
 */
export function useStandingRefusals(refusal: FormRefusal | undefined, sent: object | undefined, current: Record<string, string>): Record<string, string> | undefined {
  const sentValues = (sent ?? {}) as Record<string, unknown>;
  const standing = Object.entries(refusal?.fields ?? {}).filter(([name]) => name in current && sentValues[name] === current[name]);
  // The same refusals give the same object: a new one tells the Form that the server answered anew.
  const key = JSON.stringify(standing);
  return useMemo(() => (key === '[]' ? undefined : (Object.fromEntries(JSON.parse(key) as [string, string][]) as Record<string, string>)), [key]);
}
