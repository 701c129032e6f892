// `node --import tsx bench/ingest-text-speed.ts`: time detection, extraction, chunking and analysis of 200
// plain-text documents of 1.2 KB (the pipeline's reference load), in rounds so that the first,
// cold round (JIT, tokenizer tables) shows apart from the warm ones. The documents differ from one
// another and from round to round (words drawn from a 20,000-word Zipf vocabulary, as in
// bench/ingestion.bench.ts): the same text again would find every word already counted.
// `MANUAL=git` (or `python`) times the pages of that HTML manual instead (bench/relevance/sets.ts).
// Environment: MAX_TOKENS, OVERLAP_TOKENS.
import { performance } from 'node:perf_hooks';
import { chunkDocument } from '../src/ingest/chunking.js';
import { detectDocumentType } from '../src/ingest/detect-type.js';
import { extractDocument } from '../src/ingest/extract.js';
import { documentSearchTerms, fieldsOfTerms } from '../src/search/analyzer.js';
import { ZipfVocabulary, seededRandom } from './lib/text-corpus.js';
import { findSets, loadSet } from './relevance/sets.js';

const maxTokens = Number(process.env.MAX_TOKENS ?? 512);
const overlapTokens = Number(process.env.OVERLAP_TOKENS ?? 64);
const ROUNDS = 5;
const DOCUMENTS = 200;

const vocabulary = new ZipfVocabulary(20_000);
const textRound = (round: number) => {
  const random = seededRandom(round);
  return Array.from({ length: DOCUMENTS }, () => Buffer.from(vocabulary.text(random, 1_200)));
};

const manual = process.env.MANUAL ? await loadSet(findSets([process.env.MANUAL])[0]!, console.log) : undefined;
const documentsOf = (round: number) => (manual ? manual.pages.map((page) => page.bytes) : textRound(round));

for (let round = 1; round <= ROUNDS; round++) {
  const documents = documentsOf(round);
  const perDocument = (ms: number) => `${((ms / documents.length) * 1000).toFixed(0)} µs`;
  const spent = { detect: 0, extract: 0, chunk: 0, analyse: 0 };
  let chunks = 0;
  for (const bytes of documents) {
    let started = performance.now();
    const type = detectDocumentType(bytes)!;
    spent.detect += performance.now() - started;
    started = performance.now();
    const document = await extractDocument(type, bytes);
    spent.extract += performance.now() - started;
    started = performance.now();
    const documentChunks = chunkDocument(document, { maxTokens, overlapTokens });
    chunks += documentChunks.length;
    spent.chunk += performance.now() - started;
    started = performance.now();
    // The terms, then the columns SQLite stores (the server makes them so: FullTextIndex.searchColumns).
    documentSearchTerms(document.title ?? 'untitled', documentChunks, 'english').map(fieldsOfTerms);
    spent.analyse += performance.now() - started;
  }
  console.log(
    `round ${round}: ${documents.length} documents, per document detect ${perDocument(spent.detect)}, extract ${perDocument(spent.extract)}, ` +
      `chunk ${perDocument(spent.chunk)}, analyse ${perDocument(spent.analyse)} (${chunks} chunks of ≤ ${maxTokens} tokens)`,
  );
}
