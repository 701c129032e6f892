// An answer's text with its citation markers ([1], [1, 3]) as buttons that open their passage.
//
// Made for an answer that grows 60 times a second: the text is cut into paragraphs, and a long
// paragraph into runs of a few thousand characters, each a memoized component. The cuts depend only
// on the text before them, so as the answer grows every paragraph and run but the last keeps the
// same string and is not rendered again. Runs are blocks (chat.css): the browser then lays out only
// the last one as it grows, where one inline paragraph of 100,000 characters costs a layout of all
// of it every frame (measured: about ten times the layout time). A run ends at a sentence's end, so
// the line break it makes reads as natural; text without one is cut at a space.
import { memo, type ReactNode } from 'react';
import { CitationButton } from './CitationButton';
import type { Citation } from './responseTypes';

export type CitationsByNumber = ReadonlyMap<number, Citation>;

const MARKER = /\[\s*\d+(?:\s*,\s*\d+)*\s*\]/g;
const SENTENCE_END = /[.!?:;]\s/g;
/** A run ends at the first sentence's end past this many characters… */
const RUN_CHARACTERS = 2000;
/** …or, with none before this many, at the first space past them. */
const LONGEST_RUN = 4000;
/** Longer than any marker: an unclosed "[" further back than this is plain text, not a marker being cut. */
const LONGEST_MARKER = 40;

/** Where the run starting at `start` ends (exclusive), once the text says; undefined while it cannot yet. */
function runEnd(text: string, start: number): number | undefined {
  SENTENCE_END.lastIndex = start + RUN_CHARACTERS;
  const sentence = SENTENCE_END.exec(text);
  if (sentence !== null && sentence.index < start + LONGEST_RUN) return sentence.index + sentence[0].length;
  let space = text.indexOf(' ', start + LONGEST_RUN);
  // Never inside a marker such as [1, 3].
  while (space !== -1) {
    const open = text.lastIndexOf('[', space);
    if (open <= text.lastIndexOf(']', space) || space - open > LONGEST_MARKER) return space + 1;
    space = text.indexOf(' ', space + 1);
  }
  return undefined;
}

/** The paragraph cut into runs; earlier runs never change as it grows. */
function runsOf(text: string): string[] {
  const runs: string[] = [];
  let start = 0;
  for (let end = runEnd(text, start); end !== undefined; end = runEnd(text, start)) {
    runs.push(text.slice(start, end));
    start = end;
  }
  runs.push(text.slice(start));
  return runs;
}

const Run = memo(function Run({ text, citations }: { text: string; citations: CitationsByNumber }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    const index = match.index;
    if (index > last) parts.push(text.slice(last, index));
    const numbers = (match[0].match(/\d+/g) ?? []).map(Number);
    for (const number of numbers) {
      const citation = citations.get(number);
      parts.push(citation === undefined ? `[${number}]` : <CitationButton key={`${index}-${number}`} citation={citation} />);
    }
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <span className="answer-run">{parts}</span>;
});

const Paragraph = memo(function Paragraph({ text, citations }: { text: string; citations: CitationsByNumber }) {
  return (
    <p className="answer-paragraph">
      {runsOf(text).map((run, index) => (
        <Run key={index} text={run} citations={citations} />
      ))}
    </p>
  );
});

export const AnswerText = memo(function AnswerText({ text, citations }: { text: string; citations: CitationsByNumber }) {
  if (text === '') return null;
  return (
    <>
      {text.split(/\n{2,}/).map((paragraph, index) => (
        <Paragraph key={index} text={paragraph} citations={citations} />
      ))}
    </>
  );
});

export function citationsByNumber(citations: readonly Citation[]): CitationsByNumber {
  return new Map(citations.map((citation) => [citation.number, citation]));
}
