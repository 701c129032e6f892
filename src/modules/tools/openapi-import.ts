// `POST …/tools/api` with `openapi`: the chosen operations of a document made into tools while the
// request waits (at most MAX_IMPORTED_TOOLS; a whole document is imported by a job: tool-imports).
// Each operation is saved or skipped on its own; only when none could be made is the answer an
// error, that of the first refused (400, 409 or 413), naming every one.
import { AppError, BadRequest } from '../../errors.js';
import type { EgressClient } from '../../net/egress.js';
import { readDocumentOperations, type DocumentLimits } from '../../tools/index.js';
import { checkOperation, isChecked, type CheckedOperation, type OperationOutcome } from './imported-operations.js';
import { MAX_IMPORTED_TOOLS, type CreateApiToolInput } from './tools.schemas.js';

export interface ImportLimits extends DocumentLimits {
  /** Most schema parts copied for one operation. */
  schemaParts: number;
}

export interface ImportNowDeps {
  egress: EgressClient;
  timeoutMs: number;
  limits: ImportLimits;
}

/** What a skipped operation is called in an error's details: a pointer into the request where the document is in it. */
const detailOf = (outcome: OperationOutcome, inline: boolean) => ({ pointer: `${inline ? '/body/openapi/document' : ''}${outcome.pointer}`, message: outcome.reason ?? 'skipped' });

export interface ImportNowSaving {
  /** How the settings of the operation at a position are checked. */
  check(position: number): (config: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Saves the checked operations together, each imported or skipped (a name taken). */
  save(checked: CheckedOperation[]): Promise<OperationOutcome[]>;
}

export async function importOperationsNow(input: CreateApiToolInput, deps: ImportNowDeps, saving: ImportNowSaving): Promise<OperationOutcome[]> {
  const openapi = input.openapi!;
  if (input.name !== undefined || input.description !== undefined) {
    throw new BadRequest('Tools imported from a document take their names and descriptions from its operations (use openapi.name_prefix)', [
      { pointer: input.name !== undefined ? '/body/name' : '/body/description', message: 'cannot be given with openapi' },
    ]);
  }
  // Parsed and made into tool settings in a thread: a document fetched from a URL may be as large as a job's.
  const reading = await readDocumentOperations({ url: openapi.url, document: openapi.document }, deps.egress, {
    limits: deps.limits,
    fetchTimeoutMs: deps.timeoutMs,
    chosen: openapi.operations,
    maxTools: MAX_IMPORTED_TOOLS,
    importOptions: { serverUrl: openapi.server_url, namePrefix: openapi.name_prefix ?? '', maxSchemaParts: deps.limits.schemaParts },
  });
  const items: (CheckedOperation | OperationOutcome)[] = [];
  try {
    for (let results = await reading.next(); results.length > 0; results = await reading.next()) {
      for (const result of results) items.push(await checkOperation(result, items.length, { overrides: input.overrides }, saving.check(items.length)));
    }
  } finally {
    await reading.close();
  }
  const saved = await saving.save(items.filter(isChecked));
  const outcomes = [...saved, ...items.filter((item): item is OperationOutcome => !isChecked(item))].sort((a, b) => a.position - b.position);
  if (outcomes.some((outcome) => outcome.status === 'imported')) return outcomes;
  const first = outcomes[0]!.refusal!;
  const message =
    outcomes.length === 1 ? `Operation ${outcomes[0]!.operation} cannot be imported: ${first.message}` : `None of the ${outcomes.length} operations can be imported: ${outcomes.slice(0, 3).map((outcome) => `${outcome.operation}: ${outcome.reason}`).join('; ')}`;
  const details = outcomes.length === 1 && first.details.length > 0 ? first.details : outcomes.map((outcome) => detailOf(outcome, openapi.document !== undefined));
  throw new AppError(first.status, first.code, message, details);
}
