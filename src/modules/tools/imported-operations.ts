// One operation of an imported document saved as an API tool, or skipped with the reason: the
// settings the engine made (with the import's overrides) are checked like any tool's, then saved on
// their own, so that one operation refused — by the engine, by the checks, or by a name already
// taken in the organization — never voids the others. A name taken is skipped, not suffixed: the same
// document imported again makes only what is new, and the tools already made keep their names.
import { now } from '../../clock.js';
import { AppError, Conflict, type ErrorDetail } from '../../errors.js';
import type { ApiToolConfig, OperationResult } from '../../tools/index.js';

/** What an import does with every operation it makes: the choices of the request. */
export interface ImportChoices {
  /** Settings that replace the document's in every tool made (headers are merged). */
  overrides?: Partial<ApiToolConfig> | undefined;
  enabled?: boolean | undefined;
}

export interface OperationOutcome {
  /** The operation's place among those imported, from 0. */
  position: number;
  operation: string;
  method: string;
  path: string;
  pointer: string;
  status: 'imported' | 'skipped';
  reason: string | null;
  details: ErrorDetail[];
  tool_id: number | null;
  tool_name: string | null;
  /** Why it was skipped, as an error: a synchronous import none of whose operations could be made answers the first. */
  refusal?: AppError;
}

/** The settings with the overrides applied: each replaces the setting, headers are merged. */
export function withOverrides(config: ApiToolConfig, overrides: Partial<ApiToolConfig> | undefined): ApiToolConfig {
  if (overrides === undefined) return config;
  const headers = overrides.headers === undefined ? config.headers : { ...config.headers, ...overrides.headers };
  return { ...config, ...overrides, ...(headers === undefined ? {} : { headers }) };
}

export interface OperationSaving {
  /** The settings checked, or a BadRequest naming their problems, their pointers under `at`. */
  check(config: Record<string, unknown>, at: string): Promise<Record<string, unknown>>;
  /** Where the settings of the operation at this position are said to be, in the problems' pointers. */
  settingsPointer(position: number): string;
  /** Saves the tool and answers its id; a Conflict when the name is taken. */
  insert(tool: { name: string; description: string; config: Record<string, unknown>; enabled: boolean; at: string }): Promise<number>;
}

/** The outcome of one operation: its tool saved, or why it was skipped. Throws only for faults of the server. */
export async function saveOperation(result: OperationResult, position: number, choices: ImportChoices, saving: OperationSaving): Promise<OperationOutcome> {
  const base = { position, operation: result.operation, method: result.method, path: result.path, pointer: result.pointer };
  const skipped = (refusal: AppError): OperationOutcome => ({ ...base, status: 'skipped', reason: refusal.message, details: refusal.details, tool_id: null, tool_name: null, refusal });
  if (result.imported === undefined) return skipped(result.refusal!);
  const { name, description } = result.imported;
  try {
    const config = await saving.check(withOverrides(result.imported.config, choices.overrides) as Record<string, unknown>, saving.settingsPointer(position));
    const id = await saving.insert({ name, description, config, enabled: choices.enabled !== false, at: now() });
    return { ...base, status: 'imported', reason: null, details: [], tool_id: id, tool_name: name };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (error instanceof Conflict) return skipped(new Conflict(`A tool named "${name}" already exists in the organization`));
    return skipped(error);
  }
}
