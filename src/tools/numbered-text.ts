// Text a model reads and cites by number: "[1] label" then the passage, blocks apart, under a head
// line, the whole within the output cap. Passages share the room evenly (a long first passage does
// not push the others out); each is cut with a mark rather than dropped.

/** The text cut to `limit` characters, an ellipsis marking the cut. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return limit <= 1 ? '' : `${text.slice(0, limit - 1)}…`;
}

export interface LabelledPassage {
  /** What the passage is: its source, page, score. */
  label: string;
  text: string;
}

/** The passages under the head, numbered from `first`. */
export function numberedPassagesText(head: string, passages: readonly LabelledPassage[], limit: number, first = 1): string {
  const labels = passages.map((passage, index) => `[${first + index}] ${passage.label}`);
  const fixed = head.length + labels.reduce((sum, label) => sum + label.length + 3, 0);
  const share = passages.length === 0 ? 0 : Math.floor((limit - fixed) / passages.length);
  const blocks = passages.map((passage, index) => `${labels[index]}\n${cutText(passage.text, Math.max(share, 0))}`);
  return cutText([head, ...blocks].join('\n\n'), limit);
}
