// The settings of each type of guardrail, checked when written: by the type's schema, then by what the
// schema cannot say — terms that fold to nothing, a length rule without a limit, a topic without
// words, patterns that are not regular expressions, that read without bound, or that could backtrack
// catastrophically (recheck, in a thread of its own). Every problem is a detail of one 400.
import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { createAjv, lazyAjv } from '../../ajv-instance.js';
import { BadRequest, type ErrorDetail } from '../../errors.js';
import { checkPatterns, foldForTerms, foldString, type GuardrailConfigs, type GuardrailType, PATTERN_FLAGS, regexReach, topicPhrase } from '../../guardrails/index.js';
import { DEFAULT_SEARCH_LANGUAGE } from '../../search/languages.js';
import { BlockedTermsConfig, LengthConfig, LIMITS, PiiConfig, TopicConfig } from './guardrails.schemas.js';

const SCHEMAS: Record<GuardrailType, TSchema> = { pii: PiiConfig, blocked_terms: BlockedTermsConfig, length: LengthConfig, topic: TopicConfig };

const ajv = lazyAjv(() => createAjv({ allErrors: true, strict: false }, []));
const validators = new Map<GuardrailType, ValidateFunction>();

function validatorOf(type: GuardrailType): ValidateFunction {
  let validate = validators.get(type);
  if (validate === undefined) validators.set(type, (validate = ajv().compile(SCHEMAS[type])));
  return validate;
}

/** How long recheck may think about the patterns of one request. */
const PATTERN_CHECK = { perPatternMs: 3_000, totalMs: 15_000 };

function shapeProblems(type: GuardrailType, config: unknown, at: string): ErrorDetail[] {
  const validate = validatorOf(type);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((error) => ({
    pointer: `${at}${error.instancePath}`,
    message: error.keyword === 'additionalProperties' ? `has no setting "${String(error.params.additionalProperty)}" for a ${type} guardrail` : (error.message ?? 'is invalid'),
  }));
}

function patternSyntaxProblems(patterns: readonly string[], at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [index, pattern] of patterns.entries()) {
    const pointer = `${at}/patterns/${index}`;
    let reach: number;
    try {
      new RegExp(pattern, PATTERN_FLAGS);
      reach = regexReach(pattern);
    } catch (error) {
      problems.push({ pointer, message: `is not a regular expression: ${(error as Error).message}` });
      continue;
    }
    if (reach === Number.POSITIVE_INFINITY) {
      problems.push({ pointer, message: 'can match text of any length (+, * or {n,}): give it a bound such as {1,100}, since the output stream holds back what a match may still need' });
    } else if (reach > LIMITS.patternReach) {
      problems.push({ pointer, message: `can read ${reach} characters from where it matches, more than ${LIMITS.patternReach}` });
    }
  }
  return problems;
}

function ruleProblems(type: GuardrailType, config: Record<string, unknown>, at: string): ErrorDetail[] {
  switch (type) {
    case 'pii':
      return [];
    case 'blocked_terms': {
      const { terms, patterns = [] } = config as unknown as GuardrailConfigs['blocked_terms'];
      const problems: ErrorDetail[] = [];
      if (terms.length === 0 && patterns.length === 0) problems.push({ pointer: `${at}/terms`, message: 'needs at least one term, or a pattern' });
      for (const [index, term] of terms.entries()) {
        if (foldString(term, foldForTerms).trim() === '') problems.push({ pointer: `${at}/terms/${index}`, message: 'has no visible character to match' });
      }
      return [...problems, ...patternSyntaxProblems(patterns, at)];
    }
    case 'length': {
      const { max_characters, max_tokens } = config as GuardrailConfigs['length'];
      return max_characters === undefined && max_tokens === undefined ? [{ pointer: at, message: 'needs max_characters, max_tokens or both' }] : [];
    }
    case 'topic': {
      const { allowed = [], denied = [], language = DEFAULT_SEARCH_LANGUAGE } = config as GuardrailConfigs['topic'];
      const problems: ErrorDetail[] = [];
      if (allowed.length === 0 && denied.length === 0) problems.push({ pointer: at, message: 'needs allowed topics, denied topics or both' });
      for (const [field, topics] of [['allowed', allowed], ['denied', denied]] as const) {
        topics.forEach((topic, index) => {
          if (topicPhrase(topic, language) === '') problems.push({ pointer: `${at}/${field}/${index}`, message: 'has no word to look for' });
        });
      }
      return problems;
    }
  }
}

/** The settings as they will be stored: checked in shape and rules (400 listing every problem). */
export function checkedConfig<T extends GuardrailType>(type: T, config: Record<string, unknown> | undefined, at: string): GuardrailConfigs[T] {
  const value = config ?? {};
  const problems = shapeProblems(type, value, at);
  if (problems.length === 0) problems.push(...ruleProblems(type, value, at));
  if (problems.length > 0) throw new BadRequest(`The settings of the ${type} guardrail are invalid`, problems);
  return value as unknown as GuardrailConfigs[T];
}

/** Refuses (400) patterns that recheck cannot show safe from catastrophic backtracking. */
export async function requireSafePatterns(type: GuardrailType, config: object, at: string): Promise<void> {
  if (type !== 'blocked_terms') return;
  const patterns = (config as GuardrailConfigs['blocked_terms']).patterns ?? [];
  if (patterns.length === 0) return;
  const verdicts = await checkPatterns(patterns, PATTERN_FLAGS, PATTERN_CHECK);
  const problems = verdicts.flatMap((verdict, index) => (verdict.safe ? [] : [{ pointer: `${at}/patterns/${index}`, message: `is refused: ${verdict.reason}` }]));
  if (problems.length > 0) throw new BadRequest('A pattern of the guardrail could make matching take too long', problems);
}
