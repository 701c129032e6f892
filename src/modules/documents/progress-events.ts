// Document processing progress as Server-Sent Events: each step change of a corpus's documents,
// tailed from the corpus's event log. Every event has an id, so a client that reconnects with
// Last-Event-ID misses nothing; a new client starts from now.
import type { EventStreamWriter } from '../../http/server-sent-events.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { CorpusScope } from './documents.repo.js';

const BATCH = 200;

/** How long a client waits before reconnecting. */
const RECONNECT_MS = 2000;

export interface ProgressTiming {
  /** How often the event log is read while nothing new arrived. */
  pollMs: number;
  /** A comment line after this long without events, so that proxies keep the connection. */
  heartbeatMs: number;
}

const DEFAULT_TIMING: ProgressTiming = { pollMs: 250, heartbeatMs: 15_000 };

export class DocumentProgress {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly timing: ProgressTiming = DEFAULT_TIMING,
  ) {}

  /**
   * Checks that the caller may read the corpus (404 otherwise, before anything is written), then
   * writes its events after `resumeAfter`, or from now, until the stream closes or the server does.
   */
  async follow(actor: Actor, corpusId: number, resumeAfter: number | undefined, events: EventStreamWriter): Promise<void> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const scope = { organizationId: actor.organizationId, corpusId };
    const startAfter = resumeAfter ?? (await this.store.repos.documents.lastEventId(scope));
    let wake: (() => void) | undefined;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const end = () => {
      events.end();
      wake?.();
    };
    this.open.add(end);
    events.onClose(end);
    this.tail(scope, startAfter, events, pause)
      .catch((error: unknown) => events.fail(error))
      .finally(() => {
        this.open.delete(end);
        events.end();
      });
  }

  /** Ends every open stream, so that shutdown does not wait on them. */
  endAll(): void {
    for (const end of this.open) end();
  }

  private async tail(scope: CorpusScope, startAfter: number, events: EventStreamWriter, pause: (ms: number) => Promise<void>): Promise<void> {
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
      if (batch.length < BATCH && events.isOpen) await pause(this.timing.pollMs);
    }
  }
}
