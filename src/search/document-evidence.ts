// Page evidence beside passage evidence. A reader (and hit@k) judges an answer by its page: a page
// several of whose passages match the query is more likely about it than a page with one lucky
// passage, and a long guide that mentions everything once in some passage is less likely the page
// to read than the reference page of the same words. So each candidate passage's score is blended
// with its document's evidence, then weighed by the document's length:
//
//   score = ((1 - share) × passage + share × document) × 1 / (1 + lengthPenalty × ln(chunks))
//
// where `document` is the noisy-OR of the document's candidate passages' scores, each counted at
// passageWeight: 1 - Π(1 - passageWeight × sᵢ). Both stay within 0–1, so the score does too. The
// document's chunk count is its length as BM25 would normalise a whole page (a one-chunk page is not
// weighed down at all). The evidence is read from the candidates only: it asks the database nothing.

export const DOCUMENT_EVIDENCE = {
  /** The document's part of a passage's score. */
  share: 0.2,
  /** How much each matching passage adds to its document's evidence. */
  passageWeight: 0.3,
  /** How much a document's length (its chunks, logarithmically) weighs its passages down. */
  lengthPenalty: 0.05,
};

/** A scored candidate: its document, and that document's number of chunks. */
export interface DocumentPassage {
  document_id: number;
  chunk_count: number;
}

/** Noisy-OR of a document's passage scores: from 0 (none) towards 1 the more and better they are. */
export function documentEvidence(scores: readonly number[], passageWeight = DOCUMENT_EVIDENCE.passageWeight): number {
  return 1 - scores.reduce((none, score) => none * (1 - passageWeight * score), 1);
}

/** 1 for a document of one chunk, a little less the longer it is: 0.81 at 100 chunks, 0.74 at 1,000. */
export function lengthFactor(chunkCount: number, lengthPenalty = DOCUMENT_EVIDENCE.lengthPenalty): number {
  return 1 / (1 + lengthPenalty * Math.log(Math.max(1, chunkCount)));
}

/** The passages' scores with their documents' evidence and length folded in, in the order given. */
export function withDocumentEvidence<T extends DocumentPassage>(scored: readonly { row: T; score: number }[]): { row: T; score: number }[] {
  const byDocument = new Map<number, number[]>();
  for (const { row, score } of scored) {
    const scores = byDocument.get(row.document_id);
    if (scores) scores.push(score);
    else byDocument.set(row.document_id, [score]);
  }
  const evidence = new Map([...byDocument].map(([documentId, scores]) => [documentId, documentEvidence(scores)]));
  const { share } = DOCUMENT_EVIDENCE;
  return scored.map(({ row, score }) => ({
    row,
    score: ((1 - share) * score + share * evidence.get(row.document_id)!) * lengthFactor(row.chunk_count),
  }));
}
