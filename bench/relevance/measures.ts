// The measures of a ranking, from the rank of the first passage of an answering page per question
// (1-based; undefined when none of the passages returned comes from an answering page).

export interface RelevanceScores {
  questions: number;
  /** Share of questions whose first passage is from an answering page. */
  hitAt1: number;
  /** Share of questions with a passage of an answering page among the first three. */
  hitAt3: number;
  /** Mean over the questions of 1/rank, 0 when no answering page is in the first ten. */
  mrrAt10: number;
}

export const MRR_DEPTH = 10;

export function scoreRanks(ranks: (number | undefined)[]): RelevanceScores {
  const share = (within: number) => ranks.filter((rank) => rank !== undefined && rank <= within).length / ranks.length;
  const reciprocal = ranks.reduce<number>((sum, rank) => sum + (rank !== undefined && rank <= MRR_DEPTH ? 1 / rank : 0), 0);
  return { questions: ranks.length, hitAt1: share(1), hitAt3: share(3), mrrAt10: reciprocal / ranks.length };
}

export interface RankedResult {
  page: string | undefined;
  score: number;
}

/**
 * The rank of the first result whose page is one of the answers. Results of equal score are in no
 * order the ranking chose (PostgreSQL returns ties in whatever order it met them, which differs
 * from run to run): the answer counts as ranked last among those it ties with.
 */
export function firstAnswerRank(results: RankedResult[], answers: Set<string>): number | undefined {
  const index = results.findIndex((result) => result.page !== undefined && answers.has(result.page));
  if (index === -1) return undefined;
  let last = index;
  while (last + 1 < results.length && results[last + 1]!.score === results[index]!.score) last++;
  return last + 1;
}
