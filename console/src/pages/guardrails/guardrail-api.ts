// The guardrails area's reads and writes: the organization's guardrails (the whole list, cached with the
// choices the agent editor reads, so a change here shows there), one guardrail, its test, and the two
// feature flags that gate guardrails.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { guardrailsQuery } from '../../api/queries';

export type Guardrail = Schemas['Guardrail'];
export type GuardrailType = Guardrail['type'];
export type GuardrailStage = Guardrail['stages'][number];
export type GuardrailAction = Guardrail['action'];
export type GuardrailTestResult = Schemas['GuardrailTestResult'];
export type Finding = GuardrailTestResult['findings'][number];
export type FeatureFlag = Schemas['FeatureFlag'];

export { guardrailsQuery };

export const guardrailKeys = {
  one: (guardrailId: number) => ['guardrails', 'one', guardrailId] as const,
  flag: (flag: 'guardrail' | 'pii-redaction') => ['feature-flags', flag] as const,
};

export const guardrailQuery = (guardrailId: number) =>
  queryOptions({
    queryKey: guardrailKeys.one(guardrailId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/guardrails/{guardrail_id}', { params: { path: { guardrail_id: guardrailId } } }))).data,
  });

export const guardrailFlagQuery = () =>
  queryOptions({ queryKey: guardrailKeys.flag('guardrail'), queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/guardrail'))).data });

export const piiFlagQuery = () =>
  queryOptions({ queryKey: guardrailKeys.flag('pii-redaction'), queryFn: async () => (await unwrap(api.GET('/api/v2/feature-flags/pii-redaction'))).data });

export async function turnFlagOn(flag: 'guardrail' | 'pii-redaction') {
  return (await unwrap(api.PUT('/api/v2/feature-flags/{flag}', { params: { path: { flag } }, body: { enabled: true } }))).data;
}

export async function testGuardrail(guardrailId: number, text: string, stage: GuardrailStage) {
  return (await unwrap(api.POST('/api/v2/guardrails/{guardrail_id}/test', { params: { path: { guardrail_id: guardrailId } }, body: { text, stage } }))).data;
}

export const TYPE_NAMES: Record<GuardrailType, string> = {
  pii: 'PII redaction',
  blocked_terms: 'Blocked terms and patterns',
  length: 'Length',
  topic: 'Topics',
};

export const TYPE_DETAILS: Record<GuardrailType, string> = {
  pii: 'Finds personal data: e-mail addresses, phone numbers, card numbers, names…',
  blocked_terms: 'Finds words and phrases, and regular expressions, you name.',
  length: 'Finds texts longer than a number of characters or tokens.',
  topic: 'Finds texts about a denied topic, or about none of the allowed ones.',
};

export const STAGE_NAMES: Record<GuardrailStage, string> = {
  input: 'Input: the question',
  context: 'Context: retrieved passages and tool results',
  output: 'Output: the answer, as it streams',
};

export const ACTION_NAMES: Record<GuardrailAction, string> = {
  block: 'Block',
  redact: 'Redact',
  mask: 'Mask',
  warn: 'Warn',
};

export const ACTION_DETAILS: Record<GuardrailAction, string> = {
  block: 'The text is refused.',
  redact: 'What was found is replaced by its kind ([EMAIL_ADDRESS], [REDACTED]).',
  mask: 'The characters of what was found become *.',
  warn: 'Reported only; the text goes on as it is.',
};

export const GUARDRAIL_TYPES = Object.keys(TYPE_NAMES) as GuardrailType[];
export const GUARDRAIL_STAGES = Object.keys(STAGE_NAMES) as GuardrailStage[];
export const GUARDRAIL_ACTIONS = Object.keys(ACTION_NAMES) as GuardrailAction[];
