// The rules a metric definition follows beyond its schema: its kind's parameters (checked against
// the kind's own schema), a rubric where the kind grades with one, a judge configuration only on
// judge kinds, and a regular expression that RE2 runs (src/regexp: no backtracking, so no pattern
// can hold the server however it is written).
import { Value } from '@sinclair/typebox/value';
import { BadRequest, type ErrorDetail } from '../../errors.js';
import { KINDS, type MetricKind } from '../../evaluation/index.js';
import { compileLinear, PatternRefused } from '../../regexp/index.js';

export interface MetricSettings {
  parameters: Record<string, unknown>;
  rubric: string | null;
  llm_configuration_id: number | null;
}

/** Throws BadRequest listing every problem, each with the field it is about. */
export async function checkMetricSettings(kind: MetricKind, settings: MetricSettings): Promise<void> {
  const definition = KINDS[kind];
  const problems: ErrorDetail[] = [...Value.Errors(definition.parameters, settings.parameters)].map((error) => ({
    pointer: `/body/parameters${error.path}`,
    message: error.message,
  }));
  if (definition.rubric === 'required' && settings.rubric === null) problems.push({ pointer: '/body/rubric', message: `is required for ${kind}` });
  if (definition.rubric === undefined && settings.rubric !== null) problems.push({ pointer: '/body/rubric', message: `${kind} grades with no rubric` });
  if (definition.needs !== 'judge' && settings.llm_configuration_id !== null) problems.push({ pointer: '/body/llm_configuration_id', message: `${kind} calls no judge model` });
  if (problems.length === 0 && kind === 'regex') problems.push(...patternProblems(settings.parameters));
  if (problems.length > 0) throw new BadRequest(`Invalid metric: ${problems[0]!.pointer.replace('/body/', '')} ${problems[0]!.message}`, problems);
}

function patternProblems(parameters: Record<string, unknown>): ErrorDetail[] {
  const flags = typeof parameters.flags === 'string' ? parameters.flags.replace('u', '') : '';
  try {
    compileLinear(String(parameters.pattern), flags);
    return [];
  } catch (error) {
    if (error instanceof PatternRefused) return [{ pointer: '/body/parameters/pattern', message: error.message }];
    throw error;
  }
}
