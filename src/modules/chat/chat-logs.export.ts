// The chat log written as it is read: the success envelope's JSON or CSV, one batch of rows at a
// time, so that the text of the whole log is never held at once.
import fastJson from 'fast-json-stringify';
import { csvRow } from './chat-logs.csv.js';
import { CHAT_LOG_COLUMNS, ChatLogRowSchema, type ChatLogRow } from './chat-logs.schemas.js';

const serialiseRow = fastJson(ChatLogRowSchema);

export async function* chatLogJson(batches: AsyncIterable<ChatLogRow[]>): AsyncGenerator<string> {
  yield '{"success":true,"message":"Chat logs","data":{"items":[';
  let first = true;
  for await (const rows of batches) {
    let text = '';
    for (const row of rows) {
      text += (first ? '' : ',') + serialiseRow(row);
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
