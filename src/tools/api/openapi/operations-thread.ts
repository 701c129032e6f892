// The script of the thread that reads OpenAPI documents for imports, one at a time: it parses a
// document and resolves its $refs (a second or more of synchronous work on GitHub's 13 MB, which
// would hold the event loop), chooses the operations, then makes them into tool settings a batch at
// a time, as the server asks for them, so that the results cross to the event loop in small pieces;
// the parameters of each checked as a JSON Schema here too (compiling a large one takes tens of
// milliseconds); then it lets the document go and waits for the next. The server ends the thread when a reading
// runs out of time or is stopped, and when it has been idle a while; the heap limit it is given ends
// it when a document takes too much memory. It also lists a document's operations for a preview
// (parsed and checked, its $refs left as they are), in one answer. Protocol: operations-reader.ts.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../errors.js';
import { schemaProblems } from '../../json-schema.js';
import { parseOpenApiDocument, readOpenApiDocument, type DocumentLimits } from './document.js';
import { importOperations, type OperationResult } from './import-plan.js';
import { chooseOperations, summariseOperations, type ImportOptions, type OperationSummary } from './operations.js';

/** What the thread reads: sent once, as it starts. */
export interface ReadRequest {
  /** The document's text (UTF-8 bytes handed over, or a string); else `document`. */
  text?: Uint8Array | string;
  /** The document itself, as a request body held it. */
  document?: unknown;
  limits: DocumentLimits;
  /** The operations chosen (operationId or `METHOD /path`); all when undefined. */
  chosen: string[] | undefined;
  /** Most operations an import without a choice may take. */
  maxTools: number;
  options: ImportOptions;
  /** Results already recorded by an earlier run of the import, not sent again (their names are still claimed). */
  skip: number;
}

/** A refusal as it crosses between threads (an AppError's class does not). */
export interface ErrorOnWire {
  status: number;
  code: AppError['code'];
  message: string;
  details: AppError['details'];
}

export type ResultOnWire = Omit<OperationResult, 'refusal'> & {
  refusal?: ErrorOnWire;
  /** The tool's parameters were found a valid JSON Schema here (schemaProblems): the event loop need not compile them again to know. */
  parametersChecked?: true;
};

/** Lists the document's operations (a preview): answered with `summary`, nothing kept. */
export interface SummaryRequest {
  summarise: { text?: Uint8Array | string; document?: unknown; limits: DocumentLimits };
}

/** What a preview shows of a document. */
export interface DocumentSummary {
  title: string | null;
  version: string;
  operations: OperationSummary[];
}

/** Asks for the next results of the reading, at most `next` of them. */
export interface NextRequest {
  next: number;
}

/** Ends the reading: the thread lets its document go. */
export interface ReleaseRequest {
  release: true;
}

export type ThreadRequest = ReadRequest | SummaryRequest | NextRequest | ReleaseRequest;

export type ThreadReply =
  | { loaded: { total: number } }
  | { summary: DocumentSummary }
  /** The document cannot be imported from: the reason for the user. */
  | { refused: ErrorOnWire }
  | { results: ResultOnWire[]; done: boolean }
  /** A fault of the server (a bug): the import is retried, then fails with it. */
  | { fault: string };

export const errorOnWire = ({ status, code, message, details }: AppError): ErrorOnWire => ({ status, code, message, details });

const faultOf = (error: unknown): ThreadReply => ({ fault: error instanceof Error ? (error.stack ?? error.message) : String(error) });

function onWire({ refusal, ...result }: OperationResult): ResultOnWire {
  if (refusal !== undefined) return { ...result, refusal: errorOnWire(refusal) };
  return result.imported !== undefined && schemaProblems(result.imported.config.parameters).length === 0 ? { ...result, parametersChecked: true } : result;
}

/** The results of the reading in progress, if any. */
let reading: Generator<OperationResult> | undefined;

/** The document as the parser takes it: its text (decoded from the bytes handed over), else the object. */
function sourceOf({ text, document }: { text?: Uint8Array | string; document?: unknown }): { text?: string; document?: unknown } {
  if (text === undefined) return { document };
  return { text: typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8') };
}

/** A refusal of the document (an AppError) as a reply; anything else is a fault, thrown. */
function refusedBy(error: unknown): ThreadReply {
  if (!(error instanceof AppError)) throw error;
  return { refused: errorOnWire(error) };
}

async function summarise({ limits, ...given }: SummaryRequest['summarise']): Promise<ThreadReply> {
  try {
    const document = await readOpenApiDocument(sourceOf(given), limits);
    const title = typeof document.info?.title === 'string' ? document.info.title : null;
    return { summary: { title, version: String(document.openapi ?? document.swagger), operations: summariseOperations(document) } };
  } catch (error) {
    return refusedBy(error);
  }
}

async function read(request: ReadRequest): Promise<ThreadReply> {
  try {
    const document = await parseOpenApiDocument(sourceOf(request), request.limits);
    const refs = chooseOperations(document, request.chosen, request.maxTools);
    const results = importOperations(document, refs, request.options);
    for (let skipped = 0; skipped < request.skip && !results.next().done; skipped++);
    reading = results;
    return { loaded: { total: refs.length } };
  } catch (error) {
    return refusedBy(error);
  }
}

function next(count: number): ThreadReply {
  const batch: ResultOnWire[] = [];
  let done = reading === undefined;
  while (!done && batch.length < count) {
    const item = reading!.next();
    if ((done = item.done === true)) break;
    batch.push(onWire(item.value));
  }
  return { results: batch, done };
}

async function answer(request: ThreadRequest): Promise<ThreadReply | undefined> {
  if ('next' in request) return next(request.next);
  reading = undefined;
  if ('release' in request) return undefined;
  if ('summarise' in request) return summarise(request.summarise);
  return read(request);
}

if (parentPort !== null) {
  const port = parentPort;
  // One request at a time: the server waits for each answer before it asks again.
  port.on('message', (request: ThreadRequest) => {
    answer(request).then(
      (reply) => reply && port.postMessage(reply),
      (error: unknown) => port.postMessage(faultOf(error)),
    );
  });
}
