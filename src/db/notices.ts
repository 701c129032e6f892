// Wake-ups for readers that follow rows as they are written (a corpus's document events): a writer
// notifies a channel once its transaction has committed, and the channel's listeners read the rows
// again. A notice is a hint, never the data: the rows stay the truth, so a reader that misses a
// notice only reads later (each reader keeps a slow poll of its own for that).
//
// PostgreSQL: NOTIFY, sent by the writing statement itself and delivered by the server at commit to
// every process, heard on one LISTEN connection per process (postgres-notices.ts). SQLite: one
// process writes, so an emitter in the process, told after the commit (AtCommit.afterCommit).
import { EventEmitter } from 'node:events';

/**
 * Called with the payload of each notice on the channel; with undefined when notices may have been
 * missed (the listening connection was lost and is back): every reader then reads again.
 */
export type NoticeListener = (payload: string | undefined) => void;

export interface Notices {
  /** Listens on the channel; resolves once notices sent from now on are heard, with what stops listening. */
  listen(channel: string, listener: NoticeListener): Promise<() => void>;
  close(): Promise<void>;
}

/**
 * The process's SQLite databases share it: a listener may wake for a notice of another database
 * (tests open several), and then only reads again and finds nothing new.
 */
const inProcess = new EventEmitter().setMaxListeners(0);

/** Tells this process's listeners of the channel; on SQLite, after the writes are committed. */
export function notifyInProcess(channel: string, payload: string): void {
  inProcess.emit(channel, payload);
}

export const inProcessNotices: Notices = {
  listen: async (channel, listener) => {
    inProcess.on(channel, listener);
    return () => inProcess.off(channel, listener);
  },
  close: async () => undefined,
};
