// The text tested, with what the guardrail found marked in it and named beside each mark. Findings may
// overlap or cover nothing (a length over its limit starts where the limit is): each character is
// marked once, by the first finding that covers it.
import type { Finding } from './guardrail-api';
import { findingName } from './pii-entities';

interface Piece {
  text: string;
  finding?: Finding;
}

function piecesOf(text: string, findings: readonly Finding[]): Piece[] {
  const sorted = [...findings].filter((finding) => finding.end > finding.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const pieces: Piece[] = [];
  let at = 0;
  for (const finding of sorted) {
    const start = Math.max(finding.start, at);
    const end = Math.min(finding.end, text.length);
    if (end <= start) continue;
    if (start > at) pieces.push({ text: text.slice(at, start) });
    pieces.push({ text: text.slice(start, end), finding });
    at = end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

export function HighlightedText({ text, findings }: { text: string; findings: readonly Finding[] }) {
  return (
    <p className="highlighted-text">
      {piecesOf(text, findings).map((piece, index) =>
        piece.finding === undefined ? (
          <span key={index}>{piece.text}</span>
        ) : (
          <mark key={index} className="finding-mark">
            {piece.text}
            <span className="finding-label"> [{findingName(piece.finding.entity_type)}]</span>
          </mark>
        ),
      )}
    </p>
  );
}
