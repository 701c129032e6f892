// The settings of a tool, checked when written: by its kind's schema (defaults filled in), then by
// the rules of its kind the schema cannot say — an API tool's URL, parameters and placeholders, a web
// search address the egress rules allow, the corpora of a retrieval tool in the organization, the
// secret a kind's authentication needs (src/tools/kinds.ts). Every problem is a detail of one 400.
import type { ValidateFunction } from 'ajv';
import { createAjv, lazyAjv } from '../../ajv-instance.js';
import { BadRequest } from '../../errors.js';
import { toolKind, type SettingsContext, type ToolKind } from '../../tools/index.js';

/** The largest settings of one tool, as JSON. */
const MAX_CONFIG_BYTES = 128 * 1024;

const ajv = lazyAjv(() => createAjv({ allErrors: true, strict: false, useDefaults: true }, 'all'));
const validators = new Map<ToolKind, ValidateFunction>();

function validatorOf(kind: ToolKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate === undefined) validators.set(kind, (validate = ajv().compile(toolKind(kind).settings)));
  return validate;
}

/** The settings with their defaults, or a 400 naming every problem. */
export async function checkedSettings(kind: ToolKind, config: unknown, context: SettingsContext): Promise<Record<string, unknown>> {
  if (JSON.stringify(config ?? null).length > MAX_CONFIG_BYTES) throw new BadRequest(`The tool's settings are larger than ${MAX_CONFIG_BYTES} bytes`, [{ pointer: context.at, message: 'is too large' }]);
  const copy = structuredClone(config) as Record<string, unknown>;
  const validate = validatorOf(kind);
  if (!validate(copy)) {
    const details = (validate.errors ?? []).slice(0, 20).map((error) => ({ pointer: `${context.at}${error.instancePath}`, message: error.message ?? 'is not valid' }));
    throw new BadRequest(`Invalid settings for a ${kind} tool: ${details[0]!.pointer} ${details[0]!.message}`, details);
  }
  const problems = await toolKind(kind).settingsProblems(copy, context);
  if (problems.length > 0) throw new BadRequest(`Invalid settings for a ${kind} tool: ${problems[0]!.pointer} ${problems[0]!.message}`, problems);
  return copy;
}
