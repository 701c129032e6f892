// Document processing progress as Server-Sent Events: each step change of a corpus's documents,
// tailed from the corpus's event log. Every event has an id, so a client that reconnects with
// Last-Event-ID misses nothing; a new client starts from now.
//
// The log is read when a notice says the corpus has new events (src/db/notices.ts: PostgreSQL's
// NOTIFY at commit, seen by every process; on SQLite, an emitter in the process), not polled: a
// waiting stream costs nothing. The notice only wakes the stream, which reads the events from the
// database after the last id it sent, so a notice that is lost (or two that come as one) loses
// nothing; a slow poll remains for that case alone.
import type { Notices } from '../../db/notices.js';
import type { EventStreamWriter } from '../../http/server-sent-events.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { DOCUMENT_EVENTS_CHANNEL } from './document-statements.sql.js';
import type { CorpusScope } from './documents.repo.js';

const BATCH = 200;

/** How long a client waits before reconnecting. */
const RECONNECT_MS = 2000;

export interface ProgressTiming {
  /** How often the event log is read when no notice came: for a notice lost, which should not happen. */
  fallbackPollMs: number;
  /** A comment line after this long without events, so that proxies keep the connection. */
  heartbeatMs: number;
}

const DEFAULT_TIMING: ProgressTiming = { fallbackPollMs: 5_000, heartbeatMs: 15_000 };

/** A pause that a notice cuts short; a notice that comes while the stream is reading cuts the next one short. */
class Wakeable {
  private notified = false;
  private wake: (() => void) | undefined;

  notify(): void {
    this.notified = true;
    this.wake?.();
  }

  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.notified = false;
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      if (this.notified) done();
    });
  }
}

export class DocumentProgress {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly notices: Notices,
    private readonly timing: ProgressTiming = DEFAULT_TIMING,
  ) {}

  /**
   * Checks that the caller may read the corpus (404 otherwise, before anything is written), then
   * writes its events after `resumeAfter`, or from now, until the stream closes or the server does.
   */
  async follow(actor: Actor, corpusId: number, resumeAfter: number | undefined, events: EventStreamWriter): Promise<void> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const scope = { organizationId: actor.organizationId, corpusId };
    const wakeable = new Wakeable();
    // Listening before the first read: an event committed after that read is always told.
    const stopListening = await this.notices.listen(DOCUMENT_EVENTS_CHANNEL, (payload) => {
      if (payload === undefined || payload === String(corpusId)) wakeable.notify();
    });
    const end = () => {
      events.end();
      wakeable.notify();
    };
    this.open.add(end);
    events.onClose(end);
    const ended = () => {
      stopListening();
      this.open.delete(end);
      events.end();
    };
    try {
      const startAfter = resumeAfter ?? (await this.store.repos.documents.lastEventId(scope));
      this.tail(scope, startAfter, events, wakeable)
        .catch((error: unknown) => events.fail(error))
        .finally(ended);
    } catch (error) {
      ended();
      throw error;
    }
  }

  /** Ends every open stream, so that shutdown does not wait on them. */
  endAll(): void {
    for (const end of this.open) end();
  }

  private async tail(scope: CorpusScope, startAfter: number, events: EventStreamWriter, wakeable: Wakeable): Promise<void> {
    events.retryAfter(RECONNECT_MS);
    let lastId = startAfter;
    let quietSince = Date.now();
    while (events.isOpen) {
      const batch = await this.store.repos.documents.eventsAfter(scope, lastId, BATCH);
      for (const event of batch) {
        lastId = event.id;
        const data = { document_id: event.document_id, step: event.step, is_failed: event.is_failed === 1, error: event.error, created_on: event.created_on };
        if (!events.send('document', data, event.id)) await events.drained();
      }
      if (batch.length > 0) quietSince = Date.now();
      else if (Date.now() - quietSince > this.timing.heartbeatMs) {
        events.keepAlive();
        quietSince = Date.now();
      }
      if (batch.length < BATCH && events.isOpen) await wakeable.pause(Math.min(this.timing.fallbackPollMs, this.timing.heartbeatMs));
    }
  }
}
