// Blocked terms found in one pass over the folded text, whatever their number: an Aho–Corasick
// automaton over the folded terms (one trie, failure links, output links), so that the work per
// character does not grow with the list. Transitions live in one open-addressing hash table of typed
// arrays keyed by node and UTF-16 unit: ten thousand terms take a few megabytes and tens of
// milliseconds to build, and a lookup allocates nothing.
import { isWordCharacter } from './text-folding.js';

const ROOT = 0;

/** Transitions (node, unit) → node, with linear probing; grows at half full. */
class EdgeTable {
  private keys: Int32Array;
  private units: Uint16Array;
  private targets: Int32Array;
  private mask: number;
  size = 0;

  /** Sized for `expected` transitions at most half full. */
  constructor(expected: number) {
    let capacity = 1024;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Int32Array(capacity).fill(-1);
    this.units = new Uint16Array(capacity);
    this.targets = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  private slot(node: number, unit: number): number {
    let hash = Math.imul(node, 0x9e3779b1) + unit;
    hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
    let slot = (hash ^ (hash >>> 12)) & this.mask;
    while (this.keys[slot] !== -1 && (this.keys[slot] !== node || this.units[slot] !== unit)) slot = (slot + 1) & this.mask;
    return slot;
  }

  get(node: number, unit: number): number {
    const slot = this.slot(node, unit);
    return this.keys[slot] === -1 ? -1 : this.targets[slot]!;
  }

  set(node: number, unit: number, target: number): void {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const slot = this.slot(node, unit);
    if (this.keys[slot] === -1) this.size++;
    this.keys[slot] = node;
    this.units[slot] = unit;
    this.targets[slot] = target;
  }

  /** Calls `visit` with every transition. */
  forEach(visit: (node: number, unit: number, target: number) => void): void {
    for (let slot = 0; slot < this.keys.length; slot++) if (this.keys[slot] !== -1) visit(this.keys[slot]!, this.units[slot]!, this.targets[slot]!);
  }

  private grow(): void {
    const { keys, units, targets } = this;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.units = new Uint16Array(keys.length * 2);
    this.targets = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.size = 0;
    for (let slot = 0; slot < keys.length; slot++) if (keys[slot] !== -1) this.set(keys[slot]!, units[slot]!, targets[slot]!);
  }
}

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
  const edges = new EdgeTable(terms.reduce((sum, term) => sum + term.length, 0));
  const terminal: number[] = [-1];
  for (const [index, term] of terms.entries()) {
    let node = ROOT;
    for (let i = 0; i < term.length; i++) {
      let next = edges.get(node, term.charCodeAt(i));
      if (next === -1) {
        next = terminal.length;
        terminal.push(-1);
        edges.set(node, term.charCodeAt(i), next);
      }
      node = next;
    }
    terminal[node] = index;
  }

  // Failure links breadth first: a node's failure is the longest proper suffix that is also a prefix.
  const nodes = terminal.length;
  const fail = new Int32Array(nodes);
  const outputLink = new Int32Array(nodes).fill(-1);
  // Children of each node, for the breadth-first walk: node n's are at firstChild[n] .. firstChild[n + 1].
  const firstChild = new Int32Array(nodes + 1);
  edges.forEach((node) => firstChild[node + 1]!++);
  for (let node = 0; node < nodes; node++) firstChild[node + 1]! += firstChild[node]!;
  const childUnits = new Uint16Array(edges.size);
  const childNodes = new Int32Array(edges.size);
  const filled = firstChild.slice(0, nodes);
  edges.forEach((node, unit, child) => {
    const at = filled[node]!++;
    childUnits[at] = unit;
    childNodes[at] = child;
  });
  const queue = new Int32Array(nodes);
  let queued = 0;
  for (let at = firstChild[ROOT]!; at < firstChild[ROOT + 1]!; at++) queue[queued++] = childNodes[at]!;
  const step = (node: number, unit: number): number => {
    for (;;) {
      const next = edges.get(node, unit);
      if (next !== -1) return next;
      if (node === ROOT) return ROOT;
      node = fail[node]!;
    }
  };
  for (let head = 0; head < queued; head++) {
    const node = queue[head]!;
    for (let at = firstChild[node]!; at < firstChild[node + 1]!; at++) {
      const child = childNodes[at]!;
      const target = node === ROOT ? ROOT : step(fail[node]!, childUnits[at]!);
      fail[child] = target;
      outputLink[child] = terminal[target]! >= 0 ? target : outputLink[target]!;
      queue[queued++] = child;
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
