// Byte-pair merging, counted: the pieces of a pre-token (its bytes at first) merge, the pair of lowest
// rank first and the leftmost of equal ranks, until no two neighbours form a token, as tiktoken does.
// Finding that pair by scanning all pairs at each merge costs O(n²) on a long word (28 s for 80,000
// letters); here the pieces form a linked list and the candidate pairs a min-heap keyed by
// (rank, position), so a pre-token of n bytes takes O(n log n). A merge changes the pairs on either
// side of it: their new candidates are pushed, and the old entries, left in the heap, are skipped when
// they come out (a pair's rank is stored with its left piece; a stale entry's rank no longer matches,
// as a piece only grows and distinct byte sequences have distinct ranks).

/** The rank of a byte sequence (one character per byte), or undefined when it is no token. */
export type RankOf = (bytes: string) => number | undefined;

/** Units of work a merge did (rank lookups, heap entries pushed and popped, heap levels moved): tests check it grows as n log n. */
export interface MergeWork {
  steps: number;
}

const NO_PAIR = -1;
/** A heap key is rank × 2³² + position: the lowest rank first, then the leftmost (ranks are under 2¹⁷, so keys are exact doubles). */
const POSITION_SPAN = 0x1_0000_0000;

/** A binary min-heap of numbers in a typed array that grows by doubling. */
class KeyHeap {
  keys: Float64Array;
  size = 0;
  moves = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(capacity, 4));
  }

  /** Orders keys already placed in `keys[0..size)` (Floyd's construction, O(size)). */
  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  push(key: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const keys = this.keys;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      i = parent;
      this.moves++;
    }
    keys[i] = key;
  }

  pop(): number {
    const keys = this.keys;
    const top = keys[0]!;
    const last = keys[--this.size]!;
    if (this.size > 0) {
      keys[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(from: number): void {
    const keys = this.keys;
    const size = this.size;
    const key = keys[from]!;
    let i = from;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      i = child;
      this.moves++;
    }
    keys[i] = key;
  }
}

/** The linked pieces and the heap of one merge. */
class MergeState {
  /** next[i]: where the piece after piece i starts (n after the last). */
  readonly next: Int32Array;
  /** previous[i]: where the piece before piece i starts (-1 before the first). */
  readonly previous: Int32Array;
  /** pairRank[i]: the rank of piece i merged with the next one; NO_PAIR when they form no token or piece i is merged away. */
  readonly pairRank: Int32Array;
  readonly heap: KeyHeap;
  lookups = 0;

  constructor(readonly capacity: number) {
    this.next = new Int32Array(capacity);
    this.previous = new Int32Array(capacity);
    this.pairRank = new Int32Array(capacity);
    this.heap = new KeyHeap(capacity);
  }

  /** Records the pair of the piece starting at `start` with the one after it, ending at `end`, as a candidate. */
  offer(bytes: string, rankOf: RankOf, start: number, end: number): void {
    this.lookups++;
    const rank = rankOf(bytes.slice(start, end)) ?? NO_PAIR;
    this.pairRank[start] = rank;
    if (rank !== NO_PAIR) this.heap.push(rank * POSITION_SPAN + start);
  }
}

/** Most pre-tokens are words of a few bytes: they share one state instead of allocating their own. */
const SHARED_CAPACITY = 256;
const shared = new MergeState(SHARED_CAPACITY);

/** How many tokens `bytes` (one character per byte, every byte a token) merges into. */
export function countMergedTokens(bytes: string, rankOf: RankOf, work?: MergeWork): number {
  const n = bytes.length;
  if (n < 2) return n;
  const state = n <= SHARED_CAPACITY ? shared : new MergeState(n);
  const { next, previous, pairRank, heap } = state;
  state.lookups = 0;
  heap.size = 0;
  heap.moves = 0;
  let pushed = 0;
  let popped = 0;
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
    const rank = i + 1 < n ? (rankOf(bytes.slice(i, i + 2)) ?? NO_PAIR) : NO_PAIR;
    pairRank[i] = rank;
    if (rank !== NO_PAIR) heap.keys[heap.size++] = rank * POSITION_SPAN + i;
  }
  state.lookups += n - 1;
  heap.heapify();
  let tokens = n;
  while (heap.size > 0) {
    const key = heap.pop();
    popped++;
    const rank = Math.floor(key / POSITION_SPAN);
    const left = key - rank * POSITION_SPAN;
    // A stale entry: its pair was changed by a merge beside it.
    if (pairRank[left] !== rank) continue;
    // Piece `left` takes in the piece after it.
    const right = next[left]!;
    const after = next[right]!;
    next[left] = after;
    pairRank[right] = NO_PAIR;
    tokens--;
    if (after < n) {
      previous[after] = left;
      state.offer(bytes, rankOf, left, next[after]!);
      pushed++;
    } else {
      pairRank[left] = NO_PAIR;
    }
    const before = previous[left]!;
    if (before >= 0) {
      state.offer(bytes, rankOf, before, after);
      pushed++;
    }
  }
  if (work !== undefined) work.steps += state.lookups + popped + pushed + heap.moves;
  return tokens;
}
