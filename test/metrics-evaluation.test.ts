// The evaluation metrics as pure functions, checked against values computed by hand: text overlap
// (exact match, contains, token F1, ROUGE-L, length), sources (hit@k, recall@k, precision@k,
// reciprocal rank, citation precision and recall), the summary statistics (mean, Student's t
// interval, pass rate), strict reading of a judge's verdict, and when a result is undetermined or
// an error rather than a score.
import { describe, expect, it } from 'vitest';
import { precondition, scoreWithoutModel, type AnswerUnderTest, type MetricDefinition, type QueryUnderTest } from '../src/evaluation/answer-scoring.js';
import { fillPrompt, JUDGE_PROMPTS } from '../src/evaluation/judge-prompts.js';
import { readClaimsVerdict, readScoreVerdict } from '../src/evaluation/judge-verdict.js';
import { passes } from '../src/evaluation/metric-kinds.js';
import { cosineSimilarity } from '../src/evaluation/similarity.js';
import {
  citationPrecision,
  citationRecall,
  hitAtK,
  matchesSource,
  precisionAtK,
  recallAtK,
  reciprocalRank,
} from '../src/evaluation/source-metrics.js';
import { summarize, sumScores, tQuantile975 } from '../src/evaluation/statistics.js';
import { answerLength, containsText, exactMatch, longestCommonSubsequence, rougeL, tokenF1 } from '../src/evaluation/text-metrics.js';
import { normalizeAnswer } from '../src/evaluation/text-normalization.js';

describe('text metrics', () => {
  it('normalizes as SQuAD does: case, punctuation, articles and spaces', () => {
    expect(normalizeAnswer('  The Eiffel   Tower, in Paris! ')).toBe('eiffel tower in paris');
    expect(normalizeAnswer('An apple a day')).toBe('apple day');
  });

  it('exact match compares normalized answers, or answers as written', () => {
    expect(exactMatch('The Eiffel Tower.', 'eiffel tower')).toBe(1);
    expect(exactMatch('The Eiffel Tower.', 'eiffel tower', false)).toBe(0);
    expect(exactMatch('Eiffel  Tower', 'Eiffel Tower', false)).toBe(1);
    expect(exactMatch('Eiffel Tower in Paris', 'Eiffel Tower')).toBe(0);
  });

  it('contains ignores case unless asked', () => {
    expect(containsText('It is 25 DAYS a year', '25 days')).toBe(1);
    expect(containsText('It is 25 DAYS a year', '25 days', true)).toBe(0);
    expect(containsText('twenty', '25 days')).toBe(0);
  });

  it('token F1 counts shared words: 3 of 4 each way is 0.75; 1 of 5 against 1 of 1 is 1/3', () => {
    expect(tokenF1('The cat sat on the mat', 'a cat sat on a hat')).toBeCloseTo(0.75, 10);
    // precision 1/5, recall 1: 2 * 0.2 * 1 / 1.2
    expect(tokenF1('Paris is the capital of France', 'Paris')).toBeCloseTo(1 / 3, 10);
    expect(tokenF1('nothing alike', 'Paris')).toBe(0);
    expect(tokenF1('', '')).toBe(1);
    // A word counts as often as both hold it: "yes yes yes" shares one "yes" with "yes no".
    expect(tokenF1('yes yes yes', 'yes no')).toBeCloseTo((2 * (1 / 3) * (1 / 2)) / (1 / 3 + 1 / 2), 10);
  });

  it('ROUGE-L is the F1 of the longest common subsequence of words', () => {
    expect(longestCommonSubsequence(['one', 'two', 'three', 'four', 'five'], ['one', 'six', 'three', 'seven', 'five'])).toBe(3);
    // LCS 3 of 5 words each way: precision = recall = 0.6
    expect(rougeL('one two three four five', 'one six three seven five')).toBeCloseTo(0.6, 10);
    // "police killed the gunman" / "the gunman was shot down by police": LCS 1, P 1/3, R 1/6, F 2/9
    expect(rougeL('police killed the gunman', 'the gunman was shot down by police')).toBeCloseTo(2 / 9, 10);
    expect(rougeL('same words here', 'Same words, here.')).toBe(1);
  });

  it('answer length counts words, characters (code points) or tokens', () => {
    expect(answerLength('Twenty-five days  of leave.', 'words')).toBe(4);
    expect(answerLength('héllo 👋', 'characters')).toBe(7);
    expect(answerLength('hello world', 'tokens')).toBe(2);
    expect(answerLength('', 'words')).toBe(0);
  });

  it('cosine similarity of vectors', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 10);
    expect(cosineSimilarity([0, 0], [1, 0])).toBeUndefined();
    expect(cosineSimilarity([1], [1, 0])).toBeUndefined();
  });
});

describe('source metrics', () => {
  const expected = [12, 'guide.md'];
  // Distinct documents in rank order: 7, 12, 9 (document 7 comes back twice).
  const ranked = [
    { document_id: 7, source: 'a.md' },
    { document_id: 12, source: 'b.md' },
    { document_id: 7, source: 'a.md' },
    { document_id: 9, source: 'docs/Guide.md' },
  ];

  it('matches document ids, and source names whole or by their last segment, case ignored', () => {
    expect(matchesSource(12, { document_id: 12, source: 'x' })).toBe(true);
    expect(matchesSource('guide.md', { document_id: 1, source: 'docs/Guide.md' })).toBe(true);
    expect(matchesSource('https://example.com/a', { document_id: 1, source: 'https://example.com/a' })).toBe(true);
    expect(matchesSource('guide', { document_id: 1, source: 'docs/guide.md' })).toBe(false);
  });

  it('hit@k, recall@k, precision@k and reciprocal rank over distinct documents', () => {
    expect(hitAtK(expected, ranked, 1)).toBe(0);
    expect(hitAtK(expected, ranked, 2)).toBe(1);
    expect(recallAtK(expected, ranked, 2)).toBe(0.5);
    expect(recallAtK(expected, ranked, 3)).toBe(1);
    expect(precisionAtK(expected, ranked, 2)).toBe(0.5);
    // 2 expected among 3 documents, 5 places: 2/5
    expect(precisionAtK(expected, ranked, 5)).toBe(0.4);
    expect(reciprocalRank(expected, ranked)).toBe(0.5);
    expect(reciprocalRank([99], ranked)).toBe(0);
  });

  it('citation precision and recall', () => {
    const cited = [
      { document_id: 12, source: 'b.md' },
      { document_id: 3, source: 'c.md' },
      { document_id: 12, source: 'b.md' },
    ];
    expect(citationPrecision(expected, cited)).toBe(0.5);
    expect(citationRecall(expected, cited)).toBe(0.5);
    expect(citationPrecision(expected, [])).toBeUndefined();
    expect(citationRecall(expected, [])).toBe(0);
  });
});

describe('summary statistics', () => {
  it('Student t quantiles: the table and the expansion beyond it', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(3)).toBe(3.182);
    expect(tQuantile975(40)).toBeCloseTo(2.021075, 3);
    expect(tQuantile975(120)).toBeCloseTo(1.97993, 3);
    expect(tQuantile975(100_000)).toBeCloseTo(1.96, 3);
  });

  it('mean, sample standard deviation and the 95% interval, by hand: scores 1, 0, 1, 1', () => {
    // mean 0.75; variance (3 - 4 * 0.75^2) / 3 = 0.25; sd 0.5; margin t(3) 3.182 * 0.5 / 2 = 0.7955
    const summary = summarize(sumScores([1, 0, 1, 1].map((score) => ({ status: 'ok', score, passed: score >= 1 }))));
    expect(summary.n).toBe(4);
    expect(summary.mean).toBe(0.75);
    expect(summary.std_dev).toBe(0.5);
    expect(summary.ci_low).toBeCloseTo(-0.0455, 6);
    expect(summary.ci_high).toBeCloseTo(1.5455, 6);
    expect(summary.pass_rate).toBe(0.75);
    expect(summary.passed).toBe(3);
  });

  it('counts undetermined results and errors beside the mean, never in it', () => {
    const summary = summarize(
      sumScores([
        { status: 'ok', score: 0.2, passed: null },
        { status: 'ok', score: 0.4, passed: null },
        { status: 'undetermined', score: null, passed: null },
        { status: 'error', score: null, passed: null },
        { status: 'error', score: null, passed: null },
      ]),
    );
    expect(summary).toMatchObject({ n: 2, undetermined: 1, errors: 2, pass_rate: null });
    expect(summary.mean).toBeCloseTo(0.3, 10);
    // sd of 0.2 and 0.4: 0.141421; margin 12.706 * 0.141421 / sqrt(2) = 1.2706
    expect(summary.ci_high! - summary.mean!).toBeCloseTo(1.2706, 4);
  });

  it('one score has no interval; none has no mean; equal scores have a zero-width interval', () => {
    expect(summarize(sumScores([{ status: 'ok', score: 0.5, passed: true }]))).toMatchObject({ n: 1, mean: 0.5, ci_low: null, ci_high: null, pass_rate: 1 });
    expect(summarize(sumScores([{ status: 'undetermined', score: null, passed: null }]))).toMatchObject({ n: 0, mean: null, pass_rate: null, undetermined: 1 });
    expect(summarize(sumScores([0.3, 0.3, 0.3].map((score) => ({ status: 'ok', score, passed: null }))))).toMatchObject({ mean: 0.3, std_dev: 0, ci_low: 0.3, ci_high: 0.3 });
  });

  it('passes a threshold the kind’s way', () => {
    expect(passes('token_f1', 0.5, 0.5)).toBe(true);
    expect(passes('token_f1', 0.5, 0.49)).toBe(false);
    expect(passes('latency', 1000, 999)).toBe(true);
    expect(passes('latency', 1000, 1001)).toBe(false);
    expect(passes('recall_at_k', 0.6667, 2 / 3)).toBe(true);
    expect(passes('token_f1', null, 1)).toBeNull();
  });
});

describe('judge verdicts, read strictly', () => {
  it('a score from 1 to 5 becomes 0 to 1', () => {
    expect(readScoreVerdict('{"score": 4, "reason": "Mostly right"}')).toEqual({ status: 'ok', score: 0.75, reason: 'Mostly right' });
    expect(readScoreVerdict('```json\n{"score": 5}\n```')).toMatchObject({ status: 'ok', score: 1 });
    expect(readScoreVerdict(' {"score": 1} ')).toMatchObject({ status: 'ok', score: 0 });
  });

  it('anything else is undetermined', () => {
    for (const nonsense of ['Score: 4', '{"score": 4.5}', '{"score": 6}', '{"score": "4"}', '[4]', '', 'Sure! {"score": 4}', '{"grade": 4}', 'null']) {
      expect(readScoreVerdict(nonsense).status, nonsense).toBe('undetermined');
    }
  });

  it('claims: the share supported; no claims or a malformed one is undetermined', () => {
    const verdict = readClaimsVerdict('{"claims":[{"claim":"a","supported":true},{"claim":"b","supported":false},{"claim":"c","supported":true}]}');
    expect(verdict.status).toBe('ok');
    expect(verdict.status === 'ok' && verdict.score).toBeCloseTo(2 / 3, 10);
    expect(readClaimsVerdict('{"claims": []}').status).toBe('undetermined');
    expect(readClaimsVerdict('{"claims": [{"claim": "a", "supported": "yes"}]}').status).toBe('undetermined');
    expect(readClaimsVerdict('{"score": 5}').status).toBe('undetermined');
  });

  it('fills a prompt in one pass: braces inside the material are not read again', () => {
    const text = fillPrompt(JUDGE_PROMPTS.correctness.user, { question: 'What is {answer}?', answer: 'It is {rubric}', expected_answer: null, passages: [], rubric: 'R' });
    expect(text).toContain('What is {answer}?');
    expect(text).toContain('It is {rubric}');
    expect(text).toContain('(none given)');
  });
});

describe('scoring an answer without a model', () => {
  const metric = (kind: MetricDefinition['kind'], parameters: Record<string, unknown> = {}): MetricDefinition => ({
    id: 1,
    name: kind,
    kind,
    parameters,
    threshold: null,
    rubric: null,
    llm_configuration_id: null,
  });
  const query: QueryUnderTest = { question: 'How many days of leave?', expected_answer: '25 days', expected_sources: [4] };
  const answer: AnswerUnderTest = {
    status: 'completed',
    answer: 'Everyone has 25 days of leave [1].',
    error: null,
    retrieved_ran: true,
    retrieved: [{ document_id: 4, source: 'handbook.md' }],
    citations: [{ document_id: 4, source: 'handbook.md', passage: '25 days' }],
    latency_ms: 120,
    cost: null,
  };
  const score = (m: MetricDefinition, q = query, a = answer) => scoreWithoutModel(m, q, a, new Map());

  it('scores each kind', () => {
    expect(score(metric('contains'))).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('exact_match'))).toEqual({ status: 'ok', score: 0 });
    expect(score(metric('regex', { pattern: '\\b25 days\\b' }))).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('regex', { pattern: 'I don.t know', flags: 'i', must_match: false }))).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('latency'))).toEqual({ status: 'ok', score: 120 });
    expect(score(metric('hit_at_k', { k: 1 }))).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('citation_recall'))).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('faithfulness'))).toBeUndefined();
  });

  it('is undetermined without what it compares with', () => {
    expect(score(metric('cost'))?.status).toBe('undetermined');
    expect(score(metric('token_f1'), { ...query, expected_answer: null })?.status).toBe('undetermined');
    expect(score(metric('mrr'), { ...query, expected_sources: [] })?.status).toBe('undetermined');
    expect(score(metric('citation_precision'), query, { ...answer, citations: [] })?.status).toBe('undetermined');
    // contains with text of its own needs no expected answer
    expect(score(metric('contains', { text: 'leave' }), { ...query, expected_answer: null })).toEqual({ status: 'ok', score: 1 });
  });

  it('is an error where the agent failed, but retrieval metrics still read what retrieval found', () => {
    const failed: AnswerUnderTest = { ...answer, status: 'failed', answer: '', error: 'The model failed', citations: [] };
    expect(score(metric('token_f1'), query, failed)).toEqual({ status: 'error', reason: 'The agent failed: The model failed' });
    expect(score(metric('latency'), query, failed)?.status).toBe('error');
    expect(score(metric('hit_at_k'), query, failed)).toEqual({ status: 'ok', score: 1 });
    expect(score(metric('hit_at_k'), query, { ...failed, retrieved_ran: false, retrieved: [] })?.status).toBe('error');
  });

  it('a blocked answer scores its empty text; judges have nothing to judge', () => {
    const blocked: AnswerUnderTest = { ...answer, status: 'blocked', answer: '', citations: [] };
    expect(score(metric('contains'), query, blocked)).toEqual({ status: 'ok', score: 0 });
    expect(precondition(metric('answer_relevance'), query, blocked)?.status).toBe('undetermined');
  });
});
