// Operations of an imported document saved as API tools, or skipped with the reason: the settings
// the engine made (with the import's overrides) are checked like any tool's, one operation at a time,
// then the tools of a batch are saved in one transaction, a name already taken in the organization
// skipped rather than failing the batch. One operation refused — by the engine, by the checks, or by
// its name — never voids the others. A name taken is skipped, not suffixed: the same document
// imported again makes only what is new, and the tools already made keep their names.
import type { ToolImportOperationRow } from '../../db/schema.js';
import { AppError, Conflict, type ErrorDetail } from '../../errors.js';
import type { ApiToolConfig, OperationResult } from '../../tools/index.js';

/** What an import does with every operation it makes: the choices of the request. */
export interface ImportChoices {
  /** Settings that replace the document's in every tool made (headers are merged). */
  overrides?: Partial<ApiToolConfig> | undefined;
  enabled?: boolean | undefined;
}

/** What became of one operation: imported (its tool) or skipped (why, and where in the document); stored as a report row. */
export type OperationOutcome = Omit<ToolImportOperationRow, 'id' | 'tool_import_id' | 'details'> & {
  details: ErrorDetail[];
  /** Why it was skipped, as an error: a synchronous import none of whose operations could be made answers the first. */
  refusal?: AppError;
};

/** An operation whose settings passed the checks, ready to be saved. */
export interface CheckedOperation {
  base: Pick<OperationOutcome, 'position' | 'operation' | 'method' | 'path' | 'pointer'>;
  name: string;
  description: string;
  config: Record<string, unknown>;
}

/** The settings with the overrides applied: each replaces the setting, headers are merged. */
export function withOverrides(config: ApiToolConfig, overrides: Partial<ApiToolConfig> | undefined): ApiToolConfig {
  if (overrides === undefined) return config;
  const headers = overrides.headers === undefined ? config.headers : { ...config.headers, ...overrides.headers };
  return { ...config, ...overrides, ...(headers === undefined ? {} : { headers }) };
}

export function skippedOperation(base: CheckedOperation['base'], refusal: AppError): OperationOutcome {
  return { ...base, status: 'skipped', reason: refusal.message, details: refusal.details, tool_id: null, tool_name: null, refusal };
}

export const nameTakenRefusal = (name: string) => new Conflict(`A tool named "${name}" already exists in the organization`);

/**
 * The operation checked: ready to be saved, or skipped with why. `check` answers the settings checked
 * or throws a 4xx naming their problems, under `at`. Throws only for faults of the server.
 */
export async function checkOperation(
  result: OperationResult,
  position: number,
  choices: ImportChoices,
  check: (config: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<CheckedOperation | OperationOutcome> {
  const base = { position, operation: result.operation, method: result.method, path: result.path, pointer: result.pointer };
  if (result.imported === undefined) return skippedOperation(base, result.refusal!);
  try {
    const config = await check(withOverrides(result.imported.config, choices.overrides) as Record<string, unknown>);
    return { base, name: result.imported.name, description: result.imported.description, config };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return skippedOperation(base, error);
  }
}

export const isChecked = (item: CheckedOperation | OperationOutcome): item is CheckedOperation => 'config' in item;
