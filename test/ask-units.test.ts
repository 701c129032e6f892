// The pure parts of asking: citation markers as they stream, fitting a conversation into a context
// window, cost arithmetic, and the offline answerer's text.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../src/ingest/tokens.js';
import { offlineAnswerText, piecesOf } from '../src/providers/chat/offline-answerer.js';
import { CitationMarkers } from '../src/modules/runtime/citation-markers.js';
import { costOf, tokensOf } from '../src/modules/runtime/cost.js';
import { buildConversation, conversationTokens, conversationTokensAtMost, type PromptPassage } from '../src/modules/runtime/prompt.js';
import { threadTitle } from '../src/modules/runtime/ask.service.js';

function filtered(passages: number, pieces: string[]) {
  const markers = new CitationMarkers(passages);
  const out = pieces.map((piece) => markers.push(piece));
  out.push(markers.flush());
  return { text: out.join(''), out, used: markers.used() };
}

describe('citation markers', () => {
  it('keeps markers naming a passage, drops the others, and lists first uses in order', () => {
    expect(filtered(3, ['A [2] b [1] c [2] d [9] e [1, 4, 3].'])).toMatchObject({ text: 'A [2] b [1] c [2] d  e [1, 3].', used: [2, 1, 3] });
    expect(filtered(0, ['Nothing [1] to cite.']).text).toBe('Nothing  to cite.');
  });

  it('holds back a marker cut across pieces, so that every piece sent is final', () => {
    const { out, text, used } = filtered(2, ['See [', '1', '] and [', '7', ']', ' end']);
    expect(text).toBe('See [1] and  end');
    expect(out).toEqual(['See ', '', '[1] and ', '', '', ' end', '']);
    expect(used).toEqual([1]);
  });

  it('lets through brackets that are not markers, and an unclosed one at the end', () => {
    expect(filtered(2, ['array[index] and [note] and [', 'x] and [3']).text).toBe('array[index] and [note] and [x] and [3');
  });
});

describe('fitting the conversation into the context window', () => {
  const passages: PromptPassage[] = [1, 2, 3].map((number) => ({ number, source: `doc${number}.txt`, page: number === 2 ? 4 : null, text: `Passage ${number}. ${'word '.repeat(80)}` }));
  const turns = [1, 2, 3, 4].map((n) => ({ query: `Question ${n}`, answer: `Answer ${n}. ${'more '.repeat(60)}` }));

  it('keeps everything when it fits, passages numbered with their source and page', () => {
    const fitted = buildConversation({ instructions: 'Be brief.', passages, turns, query: 'Now?', contextWindow: 100_000, maxTokens: 500 });
    expect(fitted.turnsDropped).toBe(0);
    expect(fitted.passages).toHaveLength(3);
    expect(fitted.messages).toHaveLength(1 + 8 + 1);
    expect(fitted.messages[0]!.content).toContain('Be brief.');
    expect(fitted.messages[0]!.content).toContain('[2] (doc2.txt, page 4)');
  });

  it('drops the oldest turns first, whole, then the lowest ranked passages; the total stays within the window', () => {
    const full = buildConversation({ instructions: 'Be brief.', passages, turns, query: 'Now?', contextWindow: 100_000, maxTokens: 500 });
    const window = conversationTokens(full.messages) + 500 - 150;
    const fitted = buildConversation({ instructions: 'Be brief.', passages, turns, query: 'Now?', contextWindow: window, maxTokens: 500 });
    expect(fitted.passages).toHaveLength(3);
    expect(fitted.turnsDropped).toBeGreaterThan(0);
    expect(fitted.messages[1]!.content).toBe(`Question ${1 + fitted.turnsDropped}`);
    expect(conversationTokens(fitted.messages) + 500).toBeLessThanOrEqual(window);

    const tight = buildConversation({ instructions: 'Be brief.', passages, turns, query: 'Now?', contextWindow: 500 + 200, maxTokens: 500 });
    expect(tight.turnsDropped).toBe(4);
    expect(tight.passages.map((p) => p.number)).toEqual([1]);
    expect(conversationTokens(tight.messages) + 500).toBeLessThanOrEqual(700);
  });

  it('bounds the count by the bytes, never below it, on any text', () => {
    const pieces = ['word ', ' ', '\n\n', 'é', '日本語', '🙂', '\uD800', '\uDC00x', 'ab12', '!!!', "'s", 'Ωμέγα ', 'aaaaaaaa'];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 300; i++) {
      const content = Array.from({ length: 1 + Math.floor(random() * 60) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const messages = [{ role: 'user' as const, content }];
      expect(conversationTokens(messages)).toBeLessThanOrEqual(conversationTokensAtMost(messages));
    }
  });

  it('decides as the exact count does at windows around the count and around the bound', () => {
    // Words of several bytes a token: the bound is well above the count, and windows between the two are counted.
    const wide = passages.map((passage) => ({ ...passage, text: `${passage.text} ${'日本 '.repeat(40)}` }));
    const input = { instructions: 'Be brief.', passages: wide, turns, query: 'Now?', maxTokens: 500 };
    const full = buildConversation({ ...input, contextWindow: 100_000 });
    const exact = conversationTokens(full.messages);
    const bound = conversationTokensAtMost(full.messages);
    expect(bound).toBeGreaterThan(exact + 10);
    for (const prompt of [exact - 1, exact, exact + 1, bound - 1, bound, bound + 1]) {
      const fitted = buildConversation({ ...input, contextWindow: prompt + 500 });
      if (prompt >= exact) expect(fitted).toEqual(full);
      else {
        expect(fitted.turnsDropped).toBe(1);
        expect(fitted.passages).toHaveLength(3);
        expect(conversationTokens(fitted.messages)).toBeLessThanOrEqual(prompt);
      }
    }
  });

  it('refuses a question that does not fit even alone', () => {
    expect(() => buildConversation({ instructions: '', passages: [], turns: [], query: 'word '.repeat(300), contextWindow: 400, maxTokens: 200 })).toThrow(/context window/);
  });
});

describe('tokens and cost', () => {
  it('takes the provider usage, or counts and marks the figures estimated', () => {
    expect(tokensOf({ prompt: 10, completion: 3 }, 99, 'ignored')).toEqual({ prompt: 10, completion: 3, estimated: false });
    expect(tokensOf(undefined, 42, 'Hello world')).toEqual({ prompt: 42, completion: countTokens('Hello world'), estimated: true });
    expect(tokensOf(undefined, 42, '')).toEqual({ prompt: 42, completion: 0, estimated: true });
  });

  it('applies USD-per-million prices, and is null when either is unknown', () => {
    expect(costOf({ prompt: 1_000_000, completion: 500_000 }, { inputPerMillion: 3, outputPerMillion: 15 })).toBe(10.5);
    expect(costOf({ prompt: 1_234, completion: 567 }, { inputPerMillion: 2.5, outputPerMillion: 10 })).toBe(0.008755);
    expect(costOf({ prompt: 1, completion: 1 }, { inputPerMillion: 0.1, outputPerMillion: 0.2 })).toBe(0.0000003);
    expect(costOf({ prompt: 5, completion: 5 }, { inputPerMillion: null, outputPerMillion: 2 })).toBeNull();
    expect(costOf({ prompt: 5, completion: 5 }, { inputPerMillion: 2, outputPerMillion: null })).toBeNull();
    expect(costOf({ prompt: 5, completion: 5 }, { inputPerMillion: 0, outputPerMillion: 0 })).toBe(0);
  });
});

describe('the offline answerer', () => {
  it('quotes the best passages with their markers and says that no model is configured', () => {
    const text = offlineAnswerText([
      { number: 1, source: 'a.txt', page: null, text: 'First [3] passage.' },
      { number: 2, source: 'b.pdf', page: 2, text: 'Second passage.' },
    ]);
    expect(text).toContain('No language model is configured');
    expect(text).toContain('From a.txt: "First (3) passage." [1]');
    expect(text).toContain('From b.pdf, page 2: "Second passage." [2]');
    expect(text).toContain('llm-configurations');
    expect(offlineAnswerText([])).toContain("nothing in the agent's corpora matches");
  });

  it('streams pieces that join to the whole text', () => {
    const text = offlineAnswerText([{ number: 1, source: 'a.txt', page: null, text: 'word '.repeat(100) }]);
    const pieces = piecesOf(text);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(text);
  });
});

describe('thread titles', () => {
  it('are the question, cut at a word near 80 characters', () => {
    expect(threadTitle('  When are\n tickets refunded?  ')).toBe('When are tickets refunded?');
    const title = threadTitle('word '.repeat(40));
    expect(title.length).toBeLessThanOrEqual(81);
    expect(title.endsWith('word…')).toBe(true);
  });
});
