// Blocked terms found in one pass over the folded text, whatever their number: an Aho–Corasick
// automaton over the folded terms (one trie, failure links, output links), so that the work per
// character does not grow with the list. Transitions live in one Map keyed by node and UTF-16 unit,
// which keeps ten thousand terms in a few megabytes.
import { isWordCharacter } from './text-folding.js';

const ROOT = 0;
const UNITS = 0x10000;

export interface TermAutomaton {
  /** Folded length of the longest term. */
  readonly longest: number;
  /** Folded length of each term. */
  readonly lengths: readonly number[];
  /** Whether each term starts and ends with a word character (then a match needs a word boundary there). */
  readonly wordStart: readonly boolean[];
  readonly wordEnd: readonly boolean[];
  /** Node reached from `node` by `unit`, following failure links. */
  step(node: number, unit: number): number;
  /** Calls `visit` with each term that ends at `node`, longest first. */
  forEachTerm(node: number, visit: (term: number) => void): void;
}

/** Builds the automaton of folded terms (empty ones and repeats left out). */
export function buildTermAutomaton(foldedTerms: readonly string[]): TermAutomaton {
  const terms = [...new Set(foldedTerms.filter((term) => term !== ''))];
  const edges = new Map<number, number>();
  const depth: number[] = [0];
  const terminal: number[] = [-1];
  for (const [index, term] of terms.entries()) {
    let node = ROOT;
    for (let i = 0; i < term.length; i++) {
      const key = node * UNITS + term.charCodeAt(i);
      let next = edges.get(key);
      if (next === undefined) {
        next = depth.length;
        depth.push(depth[node]! + 1);
        terminal.push(-1);
        edges.set(key, next);
      }
      node = next;
    }
    terminal[node] = index;
  }

  // Failure links breadth first: a node's failure is the longest proper suffix that is also a prefix.
  const nodes = depth.length;
  const fail = new Int32Array(nodes);
  const outputLink = new Int32Array(nodes).fill(-1);
  const children: number[][] = Array.from({ length: nodes }, () => []);
  for (const [key, child] of edges) children[Math.floor(key / UNITS)]!.push(key % UNITS, child);
  const queue: number[] = [];
  for (let i = 0; i < children[ROOT]!.length; i += 2) queue.push(children[ROOT]![i + 1]!);
  const step = (node: number, unit: number): number => {
    for (;;) {
      const next = edges.get(node * UNITS + unit);
      if (next !== undefined) return next;
      if (node === ROOT) return ROOT;
      node = fail[node]!;
    }
  };
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    const list = children[node]!;
    for (let i = 0; i < list.length; i += 2) {
      const unit = list[i]!;
      const child = list[i + 1]!;
      const target = node === ROOT ? ROOT : step(fail[node]!, unit);
      fail[child] = target;
      outputLink[child] = terminal[target]! >= 0 ? target : outputLink[target]!;
      queue.push(child);
    }
  }

  const firstChar = (term: string) => String.fromCodePoint(term.codePointAt(0)!);
  const lastChar = (term: string) => {
    const low = term.charCodeAt(term.length - 1);
    return low >= 0xdc00 && low <= 0xdfff && term.length >= 2 ? term.slice(-2) : term.slice(-1);
  };
  return {
    longest: terms.reduce((most, term) => Math.max(most, term.length), 0),
    lengths: terms.map((term) => term.length),
    wordStart: terms.map((term) => isWordCharacter(firstChar(term))),
    wordEnd: terms.map((term) => isWordCharacter(lastChar(term))),
    step,
    forEachTerm: (node, visit) => {
      if (terminal[node]! >= 0) visit(terminal[node]!);
      for (let link = outputLink[node]!; link >= 0; link = outputLink[link]!) visit(terminal[link]!);
    },
  };
}
