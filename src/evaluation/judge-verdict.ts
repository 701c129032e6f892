// A judge's answer read strictly: one JSON object (alone, or alone in one fenced code block), with a
// score that is an integer from 1 to 5, or with claims each marked supported or not. Anything else
// — prose, a score out of range, a fraction, an empty claim list — is `undetermined`: a judge that
// answered nonsense has not judged, and its non-answer is never turned into a number.
import { scored, undetermined, type MetricOutcome } from './outcome.js';

const FENCED = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;
const MAX_CLAIMS = 200;

function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  const body = FENCED.exec(trimmed)?.[1]?.trim() ?? trimmed;
  if (!body.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const reasonOf = (object: Record<string, unknown>) => (typeof object.reason === 'string' ? object.reason.slice(0, 1000) : undefined);

/** A 1-5 score, as 0 to 1: (score - 1) / 4. */
export function readScoreVerdict(text: string): MetricOutcome {
  const object = jsonObjectOf(text);
  if (!object) return undetermined('The judge did not answer with the JSON object asked for');
  const score = object.score;
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 1 || score > 5) {
    return undetermined('The judge did not give an integer score from 1 to 5');
  }
  return scored((score - 1) / 4, reasonOf(object) ?? `Judged ${score} out of 5`);
}

/** The share of the answer's claims the judge found supported. */
export function readClaimsVerdict(text: string): MetricOutcome {
  const object = jsonObjectOf(text);
  if (!object) return undetermined('The judge did not answer with the JSON object asked for');
  const claims = object.claims;
  if (!Array.isArray(claims) || claims.length > MAX_CLAIMS) return undetermined('The judge did not give a list of claims');
  if (claims.length === 0) return undetermined('The judge found no claim in the answer');
  let supported = 0;
  for (const claim of claims) {
    if (claim === null || typeof claim !== 'object' || typeof (claim as { supported?: unknown }).supported !== 'boolean') {
      return undetermined('The judge gave a claim without a true or false "supported"');
    }
    if ((claim as { supported: boolean }).supported) supported++;
  }
  return scored(supported / claims.length, `${supported} of ${claims.length} claims supported by the cited passages`);
}
