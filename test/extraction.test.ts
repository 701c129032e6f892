// Extraction on small real files of each type, made by the tests (test/support/documents.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_LIMITS, ExtractionFailed, type DocumentType } from '../src/ingest/document.js';
import { extractDocument } from '../src/ingest/extract.js';
import { BlockList } from '../src/ingest/block-list.js';
import { makeDocx, makePdf, makeZip } from './support/documents.js';
import { rejection } from './support/rejection.js';

const extract = (type: DocumentType, content: string | Buffer, limits = DEFAULT_EXTRACTION_LIMITS) =>
  extractDocument(type, typeof content === 'string' ? Buffer.from(content) : content, limits);

const failure = (promise: Promise<unknown>) => rejection(promise, ExtractionFailed);

describe('PDF', () => {
  it('keeps the page of every block, rebuilds paragraphs and finds headings by size', async () => {
    const pdf = makePdf(
      [
        [
          { text: 'Installation Guide', size: 24 },
          { text: 'The server runs on Node 20. It keeps its data in one', spaceBefore: 6 },
          'folder, which you choose at start-up.',
          { text: 'A second paragraph after a gap.', spaceBefore: 14 },
        ],
        ['Page two carries the configuration reference.', 'It continues here with more infor-', 'mation about limits.'],
      ],
      { title: 'Agent Platform Manual' },
    );
    const document = await extract('pdf', pdf);
    expect(document.title).toBe('Agent Platform Manual');
    expect(document.pageCount).toBe(2);
    expect(document.blocks).toEqual([
      { kind: 'heading', text: 'Installation Guide', level: 1, page: 1 },
      { kind: 'paragraph', text: 'The server runs on Node 20. It keeps its data in one folder, which you choose at start-up.', page: 1 },
      { kind: 'paragraph', text: 'A second paragraph after a gap.', page: 1 },
      {
        kind: 'paragraph',
        text: 'Page two carries the configuration reference. It continues here with more information about limits.',
        page: 2,
      },
    ]);
  });

  it('refuses a PDF over the page limit', async () => {
    const pdf = makePdf([['one'], ['two'], ['three']]);
    const error = await failure(extract('pdf', pdf, { ...DEFAULT_EXTRACTION_LIMITS, maxPdfPages: 2 }));
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe('The PDF has 3 pages; the limit is 2');
  });

  it('says a PDF without text needs text recognition', async () => {
    const error = await failure(extract('pdf', makePdf([[], []])));
    expect(error.kind).toBe('empty');
    expect(error.message).toContain('contains no text');
  });

  it('fails with a reason on a damaged PDF', async () => {
    const error = await failure(extract('pdf', Buffer.from('%PDF-1.7\nthis is not a PDF body at all')));
    expect(error.kind).toBe('unreadable');
    expect(error.message).toBe('The PDF could not be read: it is damaged or not a PDF');
  });
});

describe('DOCX', () => {
  it('keeps headings, paragraphs and tables', async () => {
    const docx = makeDocx([
      { heading: 'Quarterly report' },
      { paragraph: 'Revenue grew & costs fell.' },
      { heading: 'Figures', level: 2 },
      { table: [['Region', 'Revenue'], ['North', '120'], ['South', '95']] },
      { paragraph: 'End of report.' },
    ]);
    const document = await extract('docx', docx);
    expect(document.title).toBe('Quarterly report');
    expect(document.blocks).toEqual([
      { kind: 'heading', text: 'Quarterly report', level: 1 },
      { kind: 'paragraph', text: 'Revenue grew & costs fell.' },
      { kind: 'heading', text: 'Figures', level: 2 },
      { kind: 'table', text: 'Region | Revenue\nNorth | 120\nSouth | 95' },
      { kind: 'paragraph', text: 'End of report.' },
    ]);
  });

  it("takes Word's Title style for a top-level heading", async () => {
    const styles =
      '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>';
    const docx = makeDocx([{ paragraph: 'Annual review', style: 'Title' }, { paragraph: 'Body text.' }], { 'word/styles.xml': styles });
    const document = await extract('docx', docx);
    expect(document.title).toBe('Annual review');
    expect(document.blocks[0]).toEqual({ kind: 'heading', text: 'Annual review', level: 1 });
  });

  it('refuses a DOCX whose XML would unpack past the limit, before unpacking it', async () => {
    const docx = makeDocx([{ paragraph: 'x'.repeat(5000) }]);
    const error = await failure(extract('docx', docx, { ...DEFAULT_EXTRACTION_LIMITS, maxDocxXmlBytes: 1000 }));
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe("The DOCX file's text unpacks to more than 1000 bytes of XML, the limit");
  });

  it('fails with a reason on a damaged DOCX', async () => {
    const broken = makeZip({ 'word/document.xml': '<w:document><w:body><unclosed' });
    const error = await failure(extract('docx', broken));
    expect(error.kind).toBe('unreadable');
    expect(error.message).toBe('The DOCX file could not be read: it is damaged or not a DOCX file');
  });
});

describe('HTML', () => {
  it('keeps headings, lists, tables and code; drops scripts, styles, navigation and hidden parts', async () => {
    const html = `<!DOCTYPE html><html><head><title> Release &amp; notes </title><style>p { color: red }</style>
      <script>var secret = 1;</script></head><body>
      <nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
      <h1>Version 2</h1>
      <p>The <b>new</b> version<br>is out.</p>
      <div hidden>invisible</div><div aria-hidden="true">also invisible</div>
      <h2>Changes</h2>
      <ul><li>Faster <em>search</em><ol><li>BM25</li><li>vectors</li></ol></li><li>Smaller files</li></ul>
      <table><thead><tr><th>Area</th><th>Change</th></tr></thead>
        <tbody><tr><td>API</td><td>new routes</td></tr><tr><td>CLI</td><td></td></tr></tbody></table>
      <pre><code>npm install
  --save</code></pre>
      <footer>© Example</footer><form><input value="x"><button>Send</button></form>
      <noscript>enable JS</noscript></body></html>`;
    const document = await extract('html', html);
    expect(document.title).toBe('Release & notes');
    expect(document.blocks).toEqual([
      { kind: 'heading', text: 'Version 2', level: 1 },
      { kind: 'paragraph', text: 'The new version\nis out.' },
      { kind: 'heading', text: 'Changes', level: 2 },
      { kind: 'list', text: '- Faster search\n  1. BM25\n  2. vectors\n- Smaller files' },
      { kind: 'table', text: 'Area: API; Change: new routes\nArea: CLI' },
      { kind: 'code', text: 'npm install\n  --save' },
    ]);
  });

  it('reads structures inside structures, and unclosed tags', async () => {
    const html = `<ol start="3"><li>three<ul><li>inner</li></ul>more about three</li><li><h3>four</h3></ol>
      <table><tr><td>outer<table><tr><td>nested</td></tr></table></td><td>cell <p>two</p></td></tr></table>
      <h2>Title <span>with span</h2><p>unclosed <b>bold<p>next`;
    const document = await extract('html', html);
    expect(document.blocks).toEqual([
      { kind: 'list', text: '3. three\n  - inner\n   more about three\n4. four' },
      { kind: 'table', text: 'outer nested | cell two' },
      { kind: 'heading', text: 'Title with span', level: 2 },
      { kind: 'paragraph', text: 'unclosed bold' },
      { kind: 'paragraph', text: 'next' },
    ]);
  });

  it('takes a fragment without <html> or <body>', async () => {
    const document = await extract('html', 'Loose text <p>para</p> more');
    expect(document.blocks.map((block) => block.text)).toEqual(['Loose text', 'para', 'more']);
  });
});

describe('Markdown', () => {
  it('splits by headings, paragraphs, lists, tables and fences, reducing inline syntax to text', async () => {
    const markdown = [
      '# Guide',
      '',
      'Read **this** [first](https://example.com) and `npm test`.',
      '',
      '## Install',
      '',
      '1. Download',
      '2. Run',
      '   - with care',
      '',
      '- [x] done',
      '',
      '| Key | Value |',
      '|-----|-------|',
      '| port | 8080 |',
      '',
      '```sh',
      'npm start',
      '```',
      '',
      '> Quoted advice.',
      '',
      '<div><p>Raw HTML paragraph</p></div>',
    ].join('\n');
    const document = await extract('md', markdown);
    expect(document.title).toBe('Guide');
    expect(document.blocks).toEqual([
      { kind: 'heading', text: 'Guide', level: 1 },
      { kind: 'paragraph', text: 'Read this first and npm test.' },
      { kind: 'heading', text: 'Install', level: 2 },
      { kind: 'list', text: '1. Download\n2. Run\n  - with care' },
      { kind: 'list', text: '- [x] done' },
      { kind: 'table', text: 'Key: port; Value: 8080' },
      { kind: 'code', text: 'npm start' },
      { kind: 'paragraph', text: 'Quoted advice.' },
      { kind: 'paragraph', text: 'Raw HTML paragraph' },
    ]);
  });
});

describe('long Markdown', () => {
  it('is read in segments cut at blank lines, never inside fenced code', async () => {
    const filler = 'A paragraph that fills the first segment of the document.\n\n'.repeat(4000); // about 240 KB
    const code = `\`\`\`\n${'code line\n\n'.repeat(3000)}\`\`\``; // 33 KB with blank lines, across the 256 KB mark
    const document = await extract('md', `# Start\n\n${filler}${code}\n\n## After\n\nLast words.`);
    const blocks = document.blocks;
    expect(blocks).toHaveLength(1 + 4000 + 1 + 2);
    const codeBlocks = blocks.filter((block) => block.kind === 'code');
    expect(codeBlocks).toHaveLength(1);
    expect(codeBlocks[0]!.text.split('code line')).toHaveLength(3001);
    expect(blocks.slice(-2)).toEqual([
      { kind: 'heading', text: 'After', level: 2 },
      { kind: 'paragraph', text: 'Last words.' },
    ]);
  });
});

describe('CSV', () => {
  it('turns each row into a line that names its columns', async () => {
    const csv = 'name,role,city\nAda,engineer,"London, UK"\nAlan,,Wilmslow\n\n"Grace ""Amazing""",admiral,"New\nYork"\n';
    const document = await extract('csv', csv);
    expect(document.blocks).toEqual([
      {
        kind: 'table',
        text: 'name: Ada; role: engineer; city: London, UK\nname: Alan; city: Wilmslow\nname: Grace "Amazing"; role: admiral; city: New York',
      },
    ]);
  });

  it('reads semicolons and tabs, and a header alone', async () => {
    expect((await extract('csv', 'a;b\n1;2')).blocks[0]!.text).toBe('a: 1; b: 2');
    expect((await extract('csv', 'a\tb\n1\t2')).blocks[0]!.text).toBe('a: 1; b: 2');
    expect((await extract('csv', 'only,a,header')).blocks[0]!.text).toBe('only; a; header');
  });

  it('stops at the text limit while formatting rows', async () => {
    const csv = `${'h'.repeat(50)},${'k'.repeat(50)}\n${'1,2\n'.repeat(1000)}`;
    const error = await failure(extract('csv', csv, { ...DEFAULT_EXTRACTION_LIMITS, maxTextChars: 10_000 }));
    expect(error.kind).toBe('too_large');
  });
});

describe('JSON', () => {
  it('flattens values to path: value lines, one block per top-level entry', async () => {
    const json = JSON.stringify({ name: 'Agent', settings: { temperature: 0.2, tools: ['search', 'code'] }, 'odd key': null, empty: {} });
    const document = await extract('json', json);
    expect(document.blocks).toEqual([
      { kind: 'table', text: 'name: Agent' },
      { kind: 'table', text: 'settings.temperature: 0.2\nsettings.tools[0]: search\nsettings.tools[1]: code' },
      { kind: 'table', text: '"odd key": null' },
      { kind: 'table', text: 'empty: {}' },
    ]);
  });

  it('reads arrays of records', async () => {
    const document = await extract('json', '[{"id": 1, "tags": []}, {"id": 2}]');
    expect(document.blocks.map((block) => block.text)).toEqual(['[0].id: 1\n[0].tags: []', '[1].id: 2']);
  });

  it('refuses JSON nested absurdly deep', async () => {
    const deep = `${'['.repeat(500)}1${']'.repeat(500)}`;
    expect((await failure(extract('json', deep))).message).toBe('The JSON is nested more than 100 levels deep');
  });
});

describe('plain text', () => {
  it('splits paragraphs at blank lines and keeps lines inside them', async () => {
    const document = await extract('txt', 'First paragraph,\r\nsecond line.\r\n\r\n  \r\nSecond   paragraph.\n \nThird.');
    expect(document.blocks).toEqual([
      { kind: 'paragraph', text: 'First paragraph,\nsecond line.' },
      { kind: 'paragraph', text: 'Second paragraph.' },
      { kind: 'paragraph', text: 'Third.' },
    ]);
    expect(document.title).toBeUndefined();
  });

  it('fails on blank text, on bytes that are not text, and past the text limit', async () => {
    expect((await failure(extract('txt', '  \n\n '))).message).toBe('The text file contains no text');
    expect((await failure(extract('txt', Buffer.from([0xc3, 0x28])))).message).toBe('The text file is not UTF-8 or UTF-16 text');
    const limited = { ...DEFAULT_EXTRACTION_LIMITS, maxTextChars: 100 };
    expect((await failure(extract('txt', 'word '.repeat(100), limited))).message).toBe(
      'The document has more than 100 characters of text, the limit',
    );
  });
});

describe('BlockList', () => {
  it('drops NUL characters, which PDFs give for glyphs without a character and no database stores', () => {
    const out = new BlockList(1000);
    out.add('paragraph', 'Har\u0000bour\u0000 master');
    expect(out.blocks).toEqual([{ kind: 'paragraph', text: 'Harbour master' }]);
  });
});
