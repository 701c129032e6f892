// Made-up but plausible text for seeding: words drawn from a vocabulary with a Zipf-like
// distribution (the frequency of the word of rank r is proportional to 1/r), as in natural text,
// so that full text meets very common terms (in nearly every chunk) and rare ones (in a few
// dozen). Deterministic: the same seed gives the same text, so runs are comparable.

/** A small fast PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The most frequent English words, most frequent first: the head of the distribution. */
const ENGLISH = (
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by not word but what ' +
  'some we can out other were all there when up use your how said an each she which do their time if will way about many then ' +
  'them write would like so these her long make thing see him two has look more day could go come did number sound no most ' +
  'people my over know water than call first who may down side been now find any new work part take get place made live where ' +
  'after back little only round man year came show every good me give our under name very through just form sentence great ' +
  'think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well'
).split(' ');

/** Words of a business help centre: the middle of the distribution. */
const DOMAIN = (
  'account invoice payment customer order refund shipping delivery password login email report export import setting user ' +
  'team project document file upload download storage backup server network error message support ticket contract price plan ' +
  'subscription billing tax receipt balance transfer bank card credit debit currency payroll employee salary holiday schedule ' +
  'calendar meeting agenda policy security privacy permission role admin owner member guest access token key integration api ' +
  'webhook sync database query index search filter sort page table column field value record history audit log version update ' +
  'install configure enable disable reset restore archive delete remove create edit save share print scan sign approve reject ' +
  'review comment note task deadline reminder notification alert dashboard chart metric goal budget forecast expense vendor ' +
  'supplier product catalogue stock warehouse inventory quote proposal lead opportunity campaign newsletter survey feedback'
).split(' ');

const CONSONANTS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'gr', 'tr', 'st', 'pl', 'kr'];
// No "e" or "y": the Porter stemmer strips or rewrites them, which would merge made-up words.
const VOWELS = ['a', 'i', 'o', 'u', 'ai', 'ou'];

/** Made-up words of 2 to 4 syllables, all distinct and not English: the long tail. */
function madeUpWords(count: number, exclude: Set<string>): string[] {
  const random = seededRandom(7);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const words: string[] = [];
  const seen = new Set(exclude);
  while (words.length < count) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) word += pick(CONSONANTS) + pick(VOWELS);
    if (random() < 0.3) word += pick(['n', 'r', 'l', 'm', 'k', 't']);
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

export class ZipfVocabulary {
  /** Words by rank: index 0 is rank 1, the most frequent. */
  readonly words: string[];
  private readonly cumulative: Float64Array;

  constructor(size: number, exponent = 1) {
    const known = [...new Set([...ENGLISH, ...DOMAIN])];
    this.words = [...known, ...madeUpWords(Math.max(0, size - known.length), new Set(known))].slice(0, size);
    this.cumulative = new Float64Array(this.words.length);
    let total = 0;
    for (let rank = 1; rank <= this.words.length; rank++) {
      total += 1 / rank ** exponent;
      this.cumulative[rank - 1] = total;
    }
    for (let i = 0; i < this.cumulative.length; i++) this.cumulative[i]! /= total;
  }

  get size(): number {
    return this.words.length;
  }

  /** The 1-based rank of a word drawn from the distribution. */
  sampleRank(random: () => number): number {
    const target = random();
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  }

  word(rank: number): string {
    return this.words[rank - 1]!;
  }

  /** About `wordCount` words in sentences of 6 to 20 words, capitalised and ended with a full stop. */
  sentences(random: () => number, wordCount: number): string {
    const sentences: string[] = [];
    let written = 0;
    while (written < wordCount) {
      const length = Math.min(wordCount - written, 6 + Math.floor(random() * 15));
      const words = Array.from({ length }, () => this.word(this.sampleRank(random)));
      const text = words.join(' ');
      sentences.push(`${text[0]!.toUpperCase()}${text.slice(1)}${random() < 0.1 ? '?' : '.'}`);
      written += length;
    }
    return sentences.join(' ');
  }

  /**
   * Text of about `chars` characters (never more), in paragraphs separated by blank lines, with now
   * and then a quoted phrase: the newlines and quotes are what a JSON serialiser must escape.
   */
  text(random: () => number, chars: number): string {
    let text = '';
    while (text.length < chars) {
      let paragraph = this.sentences(random, 30 + Math.floor(random() * 40));
      if (random() < 0.3) paragraph += ` See "${this.sentences(random, 3).slice(0, -1)}".`;
      text += (text === '' ? '' : '\n\n') + paragraph;
    }
    return text.slice(0, chars).trimEnd();
  }
}
