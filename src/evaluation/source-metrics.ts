// Metrics of what an answer drew on against the sources the query expects: retrieval (the
// documents the search ranked, best first) and citations (the documents the answer cites).
// An expected source is a document id (a number) or a source name (a string: the document's file
// name or address, or its last path segment, case ignored). Each expected source counts once;
// a document counts once, at its best rank, however many of its passages came back.

export interface SourceDocument {
  document_id: number;
  source: string;
}

export type ExpectedSource = number | string;

const lastSegment = (source: string) => source.replace(/[/\\]+$/, '').split(/[/\\]/).pop() ?? source;

export function matchesSource(expected: ExpectedSource, document: SourceDocument): boolean {
  if (typeof expected === 'number') return document.document_id === expected;
  const name = expected.trim().toLowerCase();
  return document.source.toLowerCase() === name || lastSegment(document.source).toLowerCase() === name;
}

/** Each document once, in the order of its first appearance (its best rank). */
export function distinctDocuments<D extends SourceDocument>(documents: readonly D[]): D[] {
  const seen = new Set<number>();
  return documents.filter((document) => !seen.has(document.document_id) && (seen.add(document.document_id), true));
}

const isRelevant = (expected: readonly ExpectedSource[], document: SourceDocument) => expected.some((source) => matchesSource(source, document));

/** How many expected sources some document of the list matches. */
function expectedFound(expected: readonly ExpectedSource[], documents: readonly SourceDocument[]): number {
  return expected.filter((source) => documents.some((document) => matchesSource(source, document))).length;
}

/** 1 when one of the first k documents is expected. */
export function hitAtK(expected: readonly ExpectedSource[], ranked: readonly SourceDocument[], k: number): number {
  return Number(distinctDocuments(ranked).slice(0, k).some((document) => isRelevant(expected, document)));
}

/** The share of expected sources found among the first k documents. */
export function recallAtK(expected: readonly ExpectedSource[], ranked: readonly SourceDocument[], k: number): number {
  return expectedFound(expected, distinctDocuments(ranked).slice(0, k)) / expected.length;
}

/** The share of the k places that hold an expected document (a list shorter than k counts its empty places as misses). */
export function precisionAtK(expected: readonly ExpectedSource[], ranked: readonly SourceDocument[], k: number): number {
  return distinctDocuments(ranked).slice(0, k).filter((document) => isRelevant(expected, document)).length / k;
}

/** 1 / the rank of the first expected document; 0 when none came back. Averaged over queries: MRR. */
export function reciprocalRank(expected: readonly ExpectedSource[], ranked: readonly SourceDocument[]): number {
  const index = distinctDocuments(ranked).findIndex((document) => isRelevant(expected, document));
  return index === -1 ? 0 : 1 / (index + 1);
}

/** The share of cited documents that are expected; undefined when the answer cites nothing. */
export function citationPrecision(expected: readonly ExpectedSource[], cited: readonly SourceDocument[]): number | undefined {
  const documents = distinctDocuments(cited);
  if (documents.length === 0) return undefined;
  return documents.filter((document) => isRelevant(expected, document)).length / documents.length;
}

/** The share of expected sources the answer cites. */
export function citationRecall(expected: readonly ExpectedSource[], cited: readonly SourceDocument[]): number {
  return expectedFound(expected, distinctDocuments(cited)) / expected.length;
}
