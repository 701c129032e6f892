// The chat log written as it is read: the success envelope's JSON or CSV, one batch of rows at a
// time, so that the text of the whole log is never held at once.
import { createRequire } from 'node:module';
import { csvRow } from './chat-logs.csv.js';
import { CHAT_LOG_COLUMNS, ChatLogRowSchema, type ChatLogRow } from './chat-logs.schemas.js';

/** The row's serialiser, compiled with the first export rather than at start. */
let serialiseRow: ((row: ChatLogRow) => string) | undefined;
function rowSerialiser(): (row: ChatLogRow) => string {
  serialiseRow ??= (createRequire(import.meta.url)('fast-json-stringify') as typeof import('fast-json-stringify')).default(ChatLogRowSchema);
  return serialiseRow;
}

export async function* chatLogJson(batches: AsyncIterable<ChatLogRow[]>): AsyncGenerator<string> {
  yield '{"success":true,"message":"Chat logs","data":{"items":[';
  let first = true;
  const serialise = rowSerialiser();
  for await (const rows of batches) {
    let text = '';
    for (const row of rows) {
      text += (first ? '' : ',') + serialise(row);
      first = false;
    }
    yield text;
  }
  yield ']}}';
}

export async function* chatLogCsv(batches: AsyncIterable<ChatLogRow[]>): AsyncGenerator<string> {
  yield csvRow(CHAT_LOG_COLUMNS);
  for await (const rows of batches) yield rows.map((row) => csvRow(CHAT_LOG_COLUMNS.map((column) => row[column]))).join('');
}
