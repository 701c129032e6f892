// The table of figures per entity type, printed by bench/pii.ts and copied into docs/pii.md.
import { precision, recall, type Counts, type Scoreboard } from './score.js';

const figure = (value: number) => (Number.isNaN(value) ? '  -  ' : value.toFixed(2).padStart(5));
const f1 = (counts: Counts) => {
  const p = precision(counts);
  const r = recall(counts);
  return p + r === 0 || Number.isNaN(p) || Number.isNaN(r) ? Number.NaN : (2 * p * r) / (p + r);
};

/** Markdown table: labelled spans, found spans, precision, recall and F1 by overlap, then exact. */
export function formatScoreTable(scoreboard: Scoreboard, order: readonly string[]): string {
  const types = [...new Set([...order, ...scoreboard.byType.keys()])].filter((type) => scoreboard.byType.has(type));
  const lines = [
    '| entity type        | labelled | found | precision | recall |   F1  | exact P | exact R |',
    '|--------------------|---------:|------:|----------:|-------:|------:|--------:|--------:|',
  ];
  const total: Counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (const type of types) {
    const { overlap, exact } = scoreboard.byType.get(type)!;
    total.truePositives += overlap.truePositives;
    total.falsePositives += overlap.falsePositives;
    total.falseNegatives += overlap.falseNegatives;
    const labelled = overlap.truePositives + overlap.falseNegatives;
    const found = overlap.truePositives + overlap.falsePositives;
    lines.push(`| ${type.padEnd(18)} | ${String(labelled).padStart(8)} | ${String(found).padStart(5)} | ${figure(precision(overlap)).padStart(9)} | ${figure(recall(overlap)).padStart(6)} | ${figure(f1(overlap))} | ${figure(precision(exact)).padStart(7)} | ${figure(recall(exact)).padStart(7)} |`);
  }
  lines.push(`| ${'all'.padEnd(18)} | ${String(total.truePositives + total.falseNegatives).padStart(8)} | ${String(total.truePositives + total.falsePositives).padStart(5)} | ${figure(precision(total)).padStart(9)} | ${figure(recall(total)).padStart(6)} | ${figure(f1(total))} |         |         |`);
  return lines.join('\n');
}
