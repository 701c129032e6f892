// The corpus's processing progress, live: GET …/events (Server-Sent Events) read with fetch, so that
// a 401 can end the session like every other request. Each event has an id; after a dropped
// connection the stream is asked again with Last-Event-ID and the server sends what was missed. A
// stream asked without one starts "from now", so whenever that happens (the first connection, or a
// reconnection before any event came) the document list is read again after the stream has started:
// nothing that happened in between is lost.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { readCorpusEvents } from '@agent-platform/client';
import { reportSessionEnded, type Schemas } from '../../../api/client';
import { corpusKeys, type DocumentPageAt, type DocumentStep } from '../corpus-api';

type ProgressEvent = Schemas['DocumentProgressEvent'];

export interface LiveStatus {
  step: DocumentStep;
  is_failed: boolean;
  error: string | null;
  /** The order in which this page received it (see DocumentPageAt.askedAt). */
  sequence: number;
}

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface DocumentProgress {
  /** The latest event of each document that had one since the page opened. */
  live: ReadonlyMap<number, LiveStatus>;
  /** How many events have been received: a list read after this many knows them. */
  sequence: () => number;
  connection: Connection;
}

/** Calls `run` at once, then at most once every `ms` while calls keep coming, and once after the last. */
function atMostEvery(ms: number, run: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let again = false;
  const call = () => {
    if (timer !== undefined) {
      again = true;
      return;
    }
    run();
    timer = setTimeout(() => {
      timer = undefined;
      if (again) {
        again = false;
        call();
      }
    }, ms);
  };
  return { call, cancel: () => clearTimeout(timer) };
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export function useDocumentProgress(corpusId: number): DocumentProgress {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<ReadonlyMap<number, LiveStatus>>(() => new Map());
  const [connection, setConnection] = useState<Connection>('connecting');
  const received = useRef(0);
  const sequence = useCallback(() => received.current, []);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const refreshDocuments = atMostEvery(1000, () => void queryClient.invalidateQueries({ queryKey: corpusKeys.documents(corpusId) }));
    const refreshCounts = atMostEvery(1000, () => void queryClient.invalidateQueries({ queryKey: corpusKeys.detail(corpusId) }));

    const isListed = (documentId: number) =>
      queryClient
        .getQueriesData<DocumentPageAt>({ queryKey: corpusKeys.documents(corpusId) })
        .some(([, page]) => page?.items.some((document) => document.id === documentId));

    const receive = (event: ProgressEvent) => {
      received.current += 1;
      const status: LiveStatus = { step: event.step, is_failed: event.is_failed, error: event.error, sequence: received.current };
      setLive((previous) => new Map(previous).set(event.document_id, status));
      // A document the list has not shown yet (uploaded by someone else, or just now): read it again.
      if (!isListed(event.document_id)) refreshDocuments.call();
      refreshCounts.call();
    };

    const follow = async () => {
      let lastEventId: string | undefined;
      let delay = 1000;
      while (!signal.aborted) {
        try {
          const response = await fetch(`/api/v2/corpora/${corpusId}/events`, {
            headers: { accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
            credentials: 'same-origin',
            cache: 'no-store',
            signal,
          });
          if (response.status === 401) reportSessionEnded();
          // The corpus is gone or no longer readable: asking again will not change that.
          if (response.status === 403 || response.status === 404) {
            setConnection('stopped');
            return;
          }
          if (response.ok && response.body !== null) {
            setConnection('live');
            delay = 1000;
            if (lastEventId === undefined) {
              refreshDocuments.call();
              refreshCounts.call();
            }
            for await (const event of readCorpusEvents(response.body, signal)) {
              lastEventId = event.id;
              receive(event.data);
            }
          }
        } catch {
          // A dropped connection: connect again below, unless the page went away.
          if (signal.aborted) return;
        }
        if (signal.aborted) return;
        setConnection('reconnecting');
        await pause(delay, signal);
        delay = Math.min(delay * 2, 30_000);
      }
    };

    setConnection('connecting');
    void follow();
    return () => {
      controller.abort();
      refreshDocuments.cancel();
      refreshCounts.cancel();
    };
  }, [corpusId, queryClient]);

  return { live, sequence, connection };
}
