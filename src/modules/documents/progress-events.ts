// Document processing progress as Server-Sent Events: each step change of a corpus's documents,
// tailed from the corpus's event log. Every event has an id, so a client that reconnects with
// Last-Event-ID misses nothing; a new client starts from now.
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { CorpusScope } from './documents.repo.js';

const BATCH = 200;

export interface ProgressTiming {
  /** How often the event log is read while nothing new arrived. */
  pollMs: number;
  /** A comment line after this long without events, so that proxies keep the connection. */
  heartbeatMs: number;
}

const DEFAULT_TIMING: ProgressTiming = { pollMs: 250, heartbeatMs: 15_000 };

export interface ProgressStream {
  /** The stream's text, event by event, until it is ended. */
  text: AsyncGenerator<string>;
  /** Ends the stream (the client went away, or the server is closing). */
  end(): void;
}

export class DocumentProgress {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly timing: ProgressTiming = DEFAULT_TIMING,
  ) {}

  /** Checks that the caller may read the corpus (404 otherwise), then follows its events after `resumeAfter`, or from now. */
  async follow(actor: Actor, corpusId: number, resumeAfter: number | undefined): Promise<ProgressStream> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    const scope = { organizationId: actor.organizationId, corpusId };
    const startAfter = resumeAfter ?? (await this.store.repos.documents.lastEventId(scope));
    let ended = false;
    let wake: (() => void) | undefined;
    const end = () => {
      ended = true;
      wake?.();
    };
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    this.open.add(end);
    return { text: this.tail(scope, startAfter, { isEnded: () => ended, pause, end }), end };
  }

  /** Ends every open stream, so that shutdown does not wait on them. */
  endAll(): void {
    for (const end of this.open) end();
  }

  private async *tail(
    scope: CorpusScope,
    startAfter: number,
    control: { isEnded: () => boolean; pause: (ms: number) => Promise<void>; end: () => void },
  ): AsyncGenerator<string> {
    try {
      yield `retry: 2000\n\n`;
      let lastId = startAfter;
      let quietSince = Date.now();
      while (!control.isEnded()) {
        const batch = await this.store.repos.documents.eventsAfter(scope, lastId, BATCH);
        for (const event of batch) {
          lastId = event.id;
          const data = { document_id: event.document_id, step: event.step, is_failed: event.is_failed === 1, error: event.error, created_on: event.created_on };
          yield `id: ${event.id}\nevent: document\ndata: ${JSON.stringify(data)}\n\n`;
        }
        if (batch.length > 0) quietSince = Date.now();
        else if (Date.now() - quietSince > this.timing.heartbeatMs) {
          yield `: keep-alive\n\n`;
          quietSince = Date.now();
        }
        if (batch.length < BATCH) await control.pause(this.timing.pollMs);
      }
    } finally {
      this.open.delete(control.end);
    }
  }
}
