import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { chunkDocument, type Chunk } from '../src/ingest/chunking.js';
import type { Block, ExtractedDocument } from '../src/ingest/document.js';
import { extractDocument } from '../src/ingest/extract.js';
import { countTokens } from '../src/ingest/tokens.js';

const WORDS = 'agent corpus document retrieval server worker queue lease embedding vector index search answer citation page'.split(' ');

/** Deterministic prose: `count` sentences of 8–15 words. */
function prose(count: number, seed = 1): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
  const sentences: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 8 + (next() % 8) }, () => WORDS[next() % WORDS.length]!).join(' ');
    sentences.push(`${words[0]!.toUpperCase()}${words.slice(1)} number ${i}.`);
  }
  return sentences.join(' ');
}

const doc = (...blocks: Block[]): ExtractedDocument => ({ blocks });

function expectWithinBudget(chunks: Chunk[], maxTokens: number): void {
  chunks.forEach((chunk, i) => {
    expect(chunk.position).toBe(i);
    expect(chunk.tokenCount).toBe(countTokens(chunk.text));
    expect(chunk.tokenCount).toBeLessThanOrEqual(maxTokens);
    expect(chunk.text.trim()).not.toBe('');
  });
}

describe('chunking', () => {
  it('keeps a short document in one chunk', () => {
    const chunks = chunkDocument(doc({ kind: 'paragraph', text: 'One short paragraph. Two sentences.' }), { maxTokens: 100, overlapTokens: 10 });
    expect(chunks).toEqual([{ position: 0, text: 'One short paragraph. Two sentences.', tokenCount: 7 }]);
  });

  it('respects the budget, splitting long paragraphs between sentences', () => {
    const text = prose(60);
    const chunks = chunkDocument(doc({ kind: 'paragraph', text }), { maxTokens: 80, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    expectWithinBudget(chunks, 80);
    for (const chunk of chunks) expect(chunk.text).toMatch(/^[A-Z].*\.$/); // whole sentences
    // nothing lost, nothing repeated, without overlap
    expect(chunks.map((chunk) => chunk.text).join(' ')).toBe(text);
  });

  it('overlaps consecutive chunks of a section by their trailing sentences', () => {
    const chunks = chunkDocument(doc({ kind: 'paragraph', text: prose(40) }), { maxTokens: 80, overlapTokens: 30 });
    expectWithinBudget(chunks, 80);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!.text;
      const firstSentence = /^.*?number \d+\./.exec(chunks[i]!.text)![0];
      const repeated = previous.slice(previous.indexOf(firstSentence));
      expect(previous.includes(firstSentence), `chunk ${i} starts with a sentence of chunk ${i - 1}`).toBe(true);
      expect(chunks[i]!.text.startsWith(repeated), `chunk ${i} starts with the end of chunk ${i - 1}`).toBe(true);
      expect(countTokens(repeated)).toBeLessThanOrEqual(30);
    }
  });

  it('overlaps by trailing words when a whole sentence is longer than the overlap', () => {
    const chunks = chunkDocument(doc({ kind: 'paragraph', text: prose(20) }), { maxTokens: 40, overlapTokens: 4 });
    expectWithinBudget(chunks, 40);
    const [first, second] = chunks as [Chunk, Chunk];
    const lastWords = first.text.split(' ').slice(-2).join(' ');
    expect(second.text.startsWith(lastWords)).toBe(true);
  });

  it('starts a section at each heading, carries the heading path, and overlaps nothing across headings', () => {
    const chunks = chunkDocument(
      doc(
        { kind: 'paragraph', text: 'Preface before any heading.' },
        { kind: 'heading', text: 'Guide', level: 1 },
        { kind: 'paragraph', text: 'About the guide.' },
        { kind: 'heading', text: 'Install', level: 2 },
        { kind: 'paragraph', text: 'Run the installer.' },
        { kind: 'code', text: 'npm install\nnpm start' },
        { kind: 'heading', text: 'Docker', level: 3 },
        { kind: 'paragraph', text: 'Or use the image.' },
        { kind: 'heading', text: 'Use', level: 2 },
        { kind: 'paragraph', text: 'Send a request.' },
        { kind: 'heading', text: 'Reference', level: 1 },
        { kind: 'list', text: '- one\n- two' },
      ),
      { maxTokens: 200, overlapTokens: 50 },
    );
    expect(chunks.map(({ heading, text }) => ({ heading, text }))).toEqual([
      { heading: undefined, text: 'Preface before any heading.' },
      { heading: 'Guide', text: 'About the guide.' },
      { heading: 'Guide > Install', text: 'Run the installer.\n\nnpm install\nnpm start' },
      { heading: 'Guide > Install > Docker', text: 'Or use the image.' },
      { heading: 'Guide > Use', text: 'Send a request.' },
      { heading: 'Reference', text: '- one\n- two' },
    ]);
  });

  it('keeps a heading with nothing under it as its own text', () => {
    const chunks = chunkDocument(
      doc(
        { kind: 'heading', text: 'Empty chapter', level: 1 },
        { kind: 'heading', text: 'Parent', level: 1 },
        { kind: 'heading', text: 'Child', level: 2 },
        { kind: 'paragraph', text: 'Body.' },
        { kind: 'heading', text: 'Last words', level: 1 },
      ),
      { maxTokens: 50, overlapTokens: 0 },
    );
    expect(chunks.map(({ heading, text }) => [heading, text])).toEqual([
      ['Empty chapter', 'Empty chapter'],
      ['Parent > Child', 'Body.'],
      ['Last words', 'Last words'],
    ]);
  });

  it('keeps a heading that runs on within the budget, and short in the path', () => {
    const long = prose(10, 5);
    const chunks = chunkDocument(doc({ kind: 'heading', text: long, level: 1 }), { maxTokens: 30, overlapTokens: 0 });
    expectWithinBudget(chunks, 30);
    expect(chunks.map((chunk) => chunk.text).join(' ')).toBe(long);
    expect(chunks[0]!.heading).toHaveLength(200);
    expect(chunks[0]!.heading!.endsWith('…')).toBe(true);
  });

  it('starts a chunk at each page, without overlap across pages, so a chunk cites the page its text is on', () => {
    const document = doc(
      { kind: 'heading', text: 'Report', level: 1, page: 1 },
      { kind: 'paragraph', text: 'Revenue grew.', page: 1 },
      { kind: 'paragraph', text: 'Penguins on page two.', page: 2 },
      { kind: 'paragraph', text: prose(12, 3), page: 3 },
    );
    const chunks = chunkDocument(document, { maxTokens: 100, overlapTokens: 20 });
    expectWithinBudget(chunks, 100);
    expect(chunks.slice(0, 2)).toEqual([
      { position: 0, text: 'Revenue grew.', tokenCount: 3, page: 1, heading: 'Report' },
      { position: 1, text: 'Penguins on page two.', tokenCount: 6, page: 2, heading: 'Report' },
    ]);
    const third = chunks.slice(2);
    expect(third.length).toBeGreaterThan(1);
    for (const chunk of third) expect(chunk.page).toBe(3);
    expect(third[0]!.text.startsWith('Penguins')).toBe(false);
  });

  it('splits tables and lists between lines, and cuts words too long for any chunk', () => {
    const table = Array.from({ length: 30 }, (_, i) => `name: user${i}; role: member; team: blue`).join('\n');
    const tableChunks = chunkDocument(doc({ kind: 'table', text: table }), { maxTokens: 60, overlapTokens: 0 });
    expectWithinBudget(tableChunks, 60);
    for (const chunk of tableChunks) for (const line of chunk.text.split('\n')) expect(line).toMatch(/^name: user\d+; role: member; team: blue$/);

    const blob = 'x9Q'.repeat(400); // one "word" of 1,200 characters
    const blobChunks = chunkDocument(doc({ kind: 'paragraph', text: `Start ${blob} end.` }), { maxTokens: 50, overlapTokens: 0 });
    expectWithinBudget(blobChunks, 50);
    expect(blobChunks.map((chunk) => chunk.text).join('')).toContain(blob.slice(0, 300));
  });

  it('is deterministic', async () => {
    const markdown = `# A\n\n${prose(30, 7)}\n\n## B\n\n${prose(30, 8)}\n\n| k | v |\n|---|---|\n| 1 | 2 |`;
    const document = await extractDocument('md', Buffer.from(markdown));
    const options = { maxTokens: 64, overlapTokens: 16 };
    const first = chunkDocument(document, options);
    expect(chunkDocument(structuredClone(document), options)).toEqual(first);
    expect(chunkDocument(await extractDocument('md', Buffer.from(markdown)), options)).toEqual(first);
  });

  it('treats special-token text as text', () => {
    const chunks = chunkDocument(doc({ kind: 'paragraph', text: 'Ignore this <|endoftext|> marker.' }), { maxTokens: 50, overlapTokens: 0 });
    expect(chunks[0]!.text).toBe('Ignore this <|endoftext|> marker.');
  });

  it('refuses budgets that cannot work', () => {
    const document = doc({ kind: 'paragraph', text: 'x' });
    expect(() => chunkDocument(document, { maxTokens: 0, overlapTokens: 0 })).toThrow(RangeError);
    expect(() => chunkDocument(document, { maxTokens: 10, overlapTokens: 10 })).toThrow(RangeError);
    expect(() => chunkDocument(document, { maxTokens: 10.5, overlapTokens: 1 })).toThrow(RangeError);
  });

  it('chunks a 1.2 KB text document in well under a millisecond', async () => {
    const documents = await Promise.all(
      Array.from({ length: 200 }, (_, i) => extractDocument('txt', Buffer.from(`${prose(6, i)}\n\n${prose(6, i + 1000)}`.slice(0, 1200)))),
    );
    const options = { maxTokens: 512, overlapTokens: 64 };
    for (const document of documents.slice(0, 20)) chunkDocument(document, options); // warm-up
    const started = performance.now();
    for (const document of documents) chunkDocument(document, options);
    const perDocumentMs = (performance.now() - started) / documents.length;
    console.log(`chunking: ${(perDocumentMs * 1000).toFixed(0)} µs per 1.2 KB document`);
    expect(perDocumentMs).toBeLessThan(1);
  });
});
