// One judge call: the pinned prompt filled in with the result's material, sent at temperature 0 to
// the judge's chat model (through the egress client, like every model call), its answer read
// strictly. A model that fails gives an `error` result, one that answers nonsense an `undetermined`
// one; either way the tokens it used are counted, since they are paid for.
import { countTokens } from '../ingest/tokens.js';
import { ModelCallError, type ChatMessage, type ChatModel } from '../providers/chat/chat-model.js';
import { collectStream } from '../providers/chat/collect-stream.js';
import { JUDGE_PROMPTS, fillPrompt, type JudgeKind, type JudgeMaterial } from './judge-prompts.js';
import { readClaimsVerdict, readScoreVerdict } from './judge-verdict.js';
import { failed, type MetricOutcome } from './outcome.js';

export interface JudgeCall {
  outcome: MetricOutcome;
  /** Tokens of the call: the provider's count, or counted here (estimated) where it gave none. */
  tokens: { prompt: number; completion: number; estimated: boolean };
  /** Whether a request reached the model (a call refused before it, e.g. aborted, costs nothing). */
  called: boolean;
}

/** Characters of a judge's answer read at most: a verdict is short. */
const ANSWER_CHARACTERS = 64_000;

export async function runJudge(model: ChatModel, kind: JudgeKind, material: JudgeMaterial, signal: AbortSignal): Promise<JudgeCall> {
  const prompt = JUDGE_PROMPTS[kind];
  const messages: ChatMessage[] = [
    { role: 'system', content: prompt.system },
    { role: 'user', content: fillPrompt(prompt.user, material) },
  ];
  // A verdict is short: a judge writing on is let go of (its connection closed), and billed for what came.
  const collected = await collectStream(model, { request: { messages, temperature: 0, maxTokens: prompt.verdict === 'claims' ? 2048 : 400 }, signals: [signal], maxCharacters: ANSWER_CHARACTERS });
  const text = collected.text;
  const tokens = {
    prompt: collected.usage?.prompt ?? messages.reduce((sum, message) => sum + countTokens(message.content), 0),
    completion: collected.usage?.completion ?? (text === '' ? 0 : countTokens(text)),
    estimated: collected.usage === undefined,
  };
  if (collected.failure !== undefined) {
    if (signal.aborted) return { outcome: failed('The judge was stopped'), tokens, called: true };
    const error = collected.failure.thrown;
    const message = error instanceof ModelCallError ? error.message : 'The judge model gave an answer that could not be read';
    return { outcome: failed(`The judge model failed: ${message}`), tokens, called: true };
  }
  const outcome = prompt.verdict === 'claims' ? readClaimsVerdict(text) : readScoreVerdict(text);
  return { outcome, tokens, called: true };
}
