// `node --import tsx bench/ingest-text-speed.ts`: time detection, extraction and chunking of 200
// plain-text documents of 1.2 KB (the pipeline's reference load), in rounds so that the first,
// cold round (JIT, tokenizer tables) shows apart from the warm ones. Environment: MAX_TOKENS,
// OVERLAP_TOKENS, and WORDS=random for made-up words (the tokenizer's slow case).
import { performance } from 'node:perf_hooks';
import { chunkDocument } from '../src/ingest/chunking.js';
import { detectDocumentType } from '../src/ingest/detect-type.js';
import { extractDocument } from '../src/ingest/extract.js';

const VOCABULARY = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no will can more about than out what up other into time'
).split(' ');
const maxTokens = Number(process.env.MAX_TOKENS ?? 512);
const overlapTokens = Number(process.env.OVERLAP_TOKENS ?? 64);

let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
const word = () =>
  process.env.WORDS === 'random'
    ? Array.from({ length: 2 + (random() % 8) }, () => String.fromCharCode(97 + (random() % 26))).join('')
    : VOCABULARY[random() % VOCABULARY.length]!;

function documentText(): string {
  const paragraphs: string[] = [];
  let paragraph = '';
  while (paragraphs.join('\n\n').length < 1200) {
    const words = Array.from({ length: 8 + (random() % 14) }, word).join(' ');
    paragraph += `${words[0]!.toUpperCase()}${words.slice(1)}. `;
    if (random() % 4 === 0) {
      paragraphs.push(paragraph.trim());
      paragraph = '';
    }
  }
  return paragraphs.join('\n\n').slice(0, 1200);
}

const documents = Array.from({ length: 200 }, () => Buffer.from(documentText()));
const perDocument = (ms: number) => `${((ms / documents.length) * 1000).toFixed(0)} µs`;
for (let round = 1; round <= 5; round++) {
  const spent = { detect: 0, extract: 0, chunk: 0 };
  let chunks = 0;
  for (const bytes of documents) {
    let started = performance.now();
    const type = detectDocumentType(bytes)!;
    spent.detect += performance.now() - started;
    started = performance.now();
    const document = await extractDocument(type, bytes);
    spent.extract += performance.now() - started;
    started = performance.now();
    chunks += chunkDocument(document, { maxTokens, overlapTokens }).length;
    spent.chunk += performance.now() - started;
  }
  console.log(
    `round ${round}: per document detect ${perDocument(spent.detect)}, extract ${perDocument(spent.extract)}, ` +
      `chunk ${perDocument(spent.chunk)} (${chunks} chunks of ≤ ${maxTokens} tokens)`,
  );
}
