// The thread that checkpoints the SQLite database for the server (wal-checkpoints.ts says why): its
// own connection to the same file, a PASSIVE checkpoint every CHECKPOINT_EVERY_MS (it copies what no
// reader still needs and waits for no one), and one at once when asked.
import { parentPort } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { sqliteDriver } from './sqlite-driver.js';
import type { CheckpointReply, CheckpointRequest } from './wal-checkpoints.js';

const CHECKPOINT_EVERY_MS = 250;

let connection: SQLite.Database | undefined;
let timer: NodeJS.Timeout | undefined;

function checkpoint(database: SQLite.Database): { logPages: number; checkpointedPages: number } {
  const [result] = database.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
  return { logPages: result?.log ?? 0, checkpointedPages: result?.checkpointed ?? 0 };
}

parentPort?.on('message', (request: CheckpointRequest) => {
  if (request.type === 'open') {
    connection = new (sqliteDriver())(request.file, { fileMustExist: true });
    const database = connection;
    timer = setInterval(() => checkpoint(database), CHECKPOINT_EVERY_MS);
    parentPort?.postMessage({ type: 'opened' } satisfies CheckpointReply);
  } else if (request.type === 'checkpoint' && connection !== undefined) {
    parentPort?.postMessage({ type: 'checkpointed', ...checkpoint(connection) } satisfies CheckpointReply);
  } else if (request.type === 'stop') {
    clearInterval(timer);
    connection?.close();
    parentPort?.close();
  }
});
