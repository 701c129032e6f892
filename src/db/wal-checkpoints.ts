// SQLite in WAL mode appends each commit's pages to its log, and every 1,000 pages of log the commit
// that crosses the mark also copies the log back into the database file (a checkpoint): one answer in
// so many paid for it, half the cost of a commit measured alone (docs/performance.md, suite `ask`).
// The server moves the checkpoints to a thread of its own (wal-checkpoint-thread.ts), with its own
// connection, and raises its connection's own mark to LOG_BOUND_PAGES: the log's bound should the
// thread fall behind or stop, never reached while it keeps up. Only a server does this: a test or a
// command opening the database keeps SQLite's own checkpoints and starts no thread.
import type SQLite from 'better-sqlite3';
import { startScriptThread } from '../threads/script-thread.js';

/** SQLite's own mark, in pages of log. */
const SQLITE_DEFAULT_PAGES = 1000;
/** The connection's mark while the thread checkpoints: 40 MB of 4 KB pages. */
const LOG_BOUND_PAGES = 10_000;

export type CheckpointRequest = { type: 'open'; file: string } | { type: 'checkpoint' } | { type: 'stop' };
export type CheckpointReply = { type: 'opened' } | { type: 'checkpointed'; logPages: number; checkpointedPages: number };

export interface CheckpointThread {
  /** A checkpoint at once: the log's pages, and how many of them are now in the database file. */
  checkpointNow(): Promise<{ logPages: number; checkpointedPages: number }>;
  /** Ends the thread (before the connection closes), at once if it has ended; SQLite's own checkpoints resume. */
  stop(): Promise<void>;
}

/** Starts the thread on `file`, the database `connection` is open on; resolves once its connection is open. */
export async function startCheckpointThread(connection: SQLite.Database, file: string): Promise<CheckpointThread> {
  const thread = startScriptThread(new URL('./wal-checkpoint-thread.js', import.meta.url), { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 });
  // Never what keeps the process alive; a failure in it only ends it (below), never the server.
  thread.unref();
  thread.on('error', () => undefined);
  const restoreOwnCheckpoints = () => {
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  };
  // A thread that fails or ends hands the checkpoints back to the connection.
  const exited = new Promise<void>((resolve) =>
    thread.once('exit', () => {
      restoreOwnCheckpoints();
      resolve();
    }),
  );
  const reply = (type: CheckpointReply['type']) =>
    new Promise<CheckpointReply>((resolve, reject) => {
      const onMessage = (message: CheckpointReply) => {
        if (message.type !== type) return;
        thread.off('message', onMessage).off('error', reject);
        resolve(message);
      };
      thread.on('message', onMessage).once('error', reject);
    });
  const opened = reply('opened');
  thread.postMessage({ type: 'open', file } satisfies CheckpointRequest);
  await opened;
  connection.pragma(`wal_autocheckpoint = ${LOG_BOUND_PAGES}`);
  return {
    async checkpointNow() {
      const checkpointed = reply('checkpointed');
      thread.postMessage({ type: 'checkpoint' } satisfies CheckpointRequest);
      const { logPages, checkpointedPages } = (await checkpointed) as Extract<CheckpointReply, { type: 'checkpointed' }>;
      return { logPages, checkpointedPages };
    },
    async stop() {
      thread.postMessage({ type: 'stop' } satisfies CheckpointRequest);
      await exited;
    },
  };
}
