// What a page says while it waits, when something failed, and when there is nothing yet.
import type { ReactNode } from 'react';
import { messageOf } from '../api/errors';

/** A failure, said plainly with the server's message; announced to screen readers. */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (error === null || error === undefined) return null;
  return (
    <div className="note note-error" role="alert">
      {title !== undefined && <strong>{title} </strong>}
      {messageOf(error)}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A short confirmation that something worked ("Saved"), read out politely. */
export function SuccessNote({ children }: { children: ReactNode }) {
  return (
    <p className="note note-success" role="status">
      {children}
    </p>
  );
}
