// Topics by keywords: each allowed or denied topic is a word or a phrase, folded like blocked terms and
// stemmed with the search analyser's rules for the chosen language (src/search/languages.ts), stop words
// left out; "medical advice" then matches "Medical advices" and "MEDICAL ADVICE". Denied topics are found
// where they are mentioned (spans). Allowed topics judge the whole text at its end: a text with words
// that mentions none of them is off topic. Embedding similarity, where an embedder is configured, is
// added by topic-embeddings.ts for whole texts.
import { languageRules, type SearchLanguage } from '../search/languages.js';
import type { DetectorRun, Detection, TextDetector } from './detector.js';
import { FoldedText } from './folded-text.js';
import { foldForTerms, foldString } from './text-folding.js';

export const DENIED_TOPIC = 'DENIED_TOPIC';
export const OFF_TOPIC = 'OFF_TOPIC';

/** Longer runs of letters are not words anyone names a topic by; they are cut into pieces of this size. */
const MAX_WORD = 64;

export interface TopicKeywords {
  /** Stemmed phrases, words joined by one space. */
  denied: Set<string>;
  allowed: Set<string>;
  /** Words of the longest phrase. */
  longest: number;
  language: SearchLanguage;
}

function stemsOf(text: string, language: SearchLanguage, keepStopWords = false): string[] {
  const rules = languageRules(language);
  const words = foldString(text, foldForTerms).match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return words.map((word) => word.slice(0, MAX_WORD)).filter((word) => keepStopWords || !rules.stopWords.has(word)).map((word) => rules.stem(word));
}

/** A topic's stemmed phrase; a topic made only of stop words keeps them. */
export function topicPhrase(topic: string, language: SearchLanguage): string {
  const stems = stemsOf(topic, language);
  return (stems.length > 0 ? stems : stemsOf(topic, language, true)).join(' ');
}

export function topicKeywords(denied: readonly string[], allowed: readonly string[], language: SearchLanguage): TopicKeywords {
  const phrases = (topics: readonly string[]) => new Set(topics.map((topic) => topicPhrase(topic, language)).filter((phrase) => phrase !== ''));
  const deniedPhrases = phrases(denied);
  const allowedPhrases = phrases(allowed);
  const longest = Math.max(1, ...[...deniedPhrases, ...allowedPhrases].map((phrase) => phrase.split(' ').length));
  return { denied: deniedPhrases, allowed: allowedPhrases, longest, language };
}

interface Word {
  stem: string;
  /** Folded offsets. */
  start: number;
  end: number;
}

class TopicRun implements DetectorRun {
  private readonly folded = new FoldedText(foldForTerms);
  private readonly rules;
  /** Folded units read into words so far. */
  private read = 0;
  private wordStart = -1;
  /** The last words (stop words left out), as many as the longest phrase has. */
  private readonly recent: Word[] = [];
  private wordsSeen = 0;
  private mentionsAllowed = false;
  /** Denied phrases found, not yet decided, and where the last one kept ends. */
  private candidates: Array<{ start: number; end: number; firstWord: number }> = [];
  private keptEnd = 0;

  constructor(private readonly keywords: TopicKeywords) {
    this.rules = languageRules(keywords.language);
  }

  append(piece: string): void {
    this.folded.append(piece);
  }

  private addWord(start: number, end: number): void {
    const text = this.folded.slice(start, end);
    for (let at = 0; at < text.length; at += MAX_WORD) {
      const word = text.slice(at, at + MAX_WORD);
      if (this.rules.stopWords.has(word)) continue;
      this.recent.push({ stem: this.rules.stem(word), start: start + at, end: Math.min(end, start + at + MAX_WORD) });
      if (this.recent.length > this.keywords.longest) this.recent.shift();
      this.wordsSeen++;
      this.matchPhrasesEndingHere();
    }
  }

  private matchPhrasesEndingHere(): void {
    let phrase = '';
    for (let count = 1; count <= this.recent.length; count++) {
      const first = this.recent[this.recent.length - count]!;
      phrase = count === 1 ? first.stem : `${first.stem} ${phrase}`;
      if (this.keywords.allowed.has(phrase)) this.mentionsAllowed = true;
      if (this.keywords.denied.has(phrase)) this.candidates.push({ start: first.start, end: this.recent.at(-1)!.end, firstWord: this.wordsSeen - count });
    }
  }

  collect(final: boolean) {
    const { folded } = this;
    if (final) folded.finish();
    const length = folded.length;
    for (; this.read < length; this.read++) {
      const isWord = folded.isWordAt(this.read);
      if (isWord && this.wordStart < 0) this.wordStart = this.read;
      if (!isWord && this.wordStart >= 0) {
        this.addWord(this.wordStart, this.read);
        this.wordStart = -1;
      }
    }
    if (final && this.wordStart >= 0) {
      this.addWord(this.wordStart, length);
      this.wordStart = -1;
    }
    // A phrase starting at word i is decided once the words after it that a longer phrase needs are in.
    const decidedWords = final ? Number.POSITIVE_INFINITY : this.wordsSeen - this.keywords.longest + 1;
    const decided = this.candidates.filter((candidate) => candidate.firstWord < decidedWords);
    this.candidates = this.candidates.filter((candidate) => candidate.firstWord >= decidedWords);
    decided.sort((a, b) => a.start - b.start || b.end - a.end);
    const detections: Detection[] = [];
    for (const candidate of decided) {
      if (candidate.start < this.keptEnd) continue;
      this.keptEnd = candidate.end;
      detections.push({ finding: { entity_type: DENIED_TOPIC, start: folded.originalStart(candidate.start), end: folded.originalEnd(candidate.end - 1), rule: 'keyword' }, scope: 'span' });
    }
    if (final && this.keywords.allowed.size > 0 && this.wordsSeen > 0 && !this.mentionsAllowed) {
      detections.push({ finding: { entity_type: OFF_TOPIC, start: 0, end: folded.consumed, rule: 'keyword' }, scope: 'whole' });
    }
    const safe = final ? folded.consumed : this.safePoint();
    // What is still needed: the words a phrase may yet begin with, the word being read, the phrases held.
    folded.discardBefore(Math.min(this.recent[0]?.start ?? this.read, this.wordStart >= 0 ? this.wordStart : this.read, ...this.candidates.map((candidate) => candidate.start)));
    return { detections, safe };
  }

  /** Where the first word that could still begin a denied phrase starts (or the word being read). */
  private safePoint(): number {
    if (this.keywords.denied.size === 0) return this.folded.consumed;
    const firstUndecided = Math.max(0, this.wordsSeen - this.keywords.longest + 1);
    const word = this.recent[firstUndecided - (this.wordsSeen - this.recent.length)];
    if (word !== undefined) return this.folded.originalStart(word.start);
    return this.folded.originalStart(this.wordStart >= 0 ? this.wordStart : this.read);
  }
}

export function topicDetector(keywords: TopicKeywords): TextDetector {
  return { holdBack: keywords.longest * MAX_WORD, start: () => new TopicRun(keywords) };
}
