// Precision and recall per entity type of found spans against labelled ones. A found span is a true
// positive when it has the same type as a labelled span it overlaps (each labelled span matched at
// most once); the exact figures count only spans with the same start and end as well.
import type { Finding } from '../../src/guardrails/guardrail.js';

export interface LabelledSpan {
  entity_type: string;
  entity_value: string;
  start_position: number;
  end_position: number;
}

export interface LabelledItem {
  full_text: string;
  spans: LabelledSpan[];
  template_id?: number;
}

export interface Counts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface TypeScore {
  overlap: Counts;
  exact: Counts;
}

export interface Miss {
  kind: 'missed' | 'spurious';
  entityType: string;
  value: string;
  text: string;
}

export class Scoreboard {
  readonly byType = new Map<string, TypeScore>();
  readonly misses: Miss[] = [];

  add(item: LabelledItem, findings: readonly Finding[]): void {
    this.count(item, findings, (found, span) => found.start < span.end_position && span.start_position < found.end, 'overlap', true);
    this.count(item, findings, (found, span) => found.start === span.start_position && found.end === span.end_position, 'exact', false);
  }

  private count(item: LabelledItem, findings: readonly Finding[], matches: (found: Finding, span: LabelledSpan) => boolean, kind: keyof TypeScore, recordMisses: boolean): void {
    const matched = new Set<number>();
    for (const found of findings) {
      const index = item.spans.findIndex((span, position) => !matched.has(position) && span.entity_type === found.entity_type && matches(found, span));
      const counts = this.scoreOf(found.entity_type)[kind];
      if (index >= 0) {
        matched.add(index);
        counts.truePositives++;
      } else {
        counts.falsePositives++;
        if (recordMisses) this.misses.push({ kind: 'spurious', entityType: found.entity_type, value: item.full_text.slice(found.start, found.end), text: item.full_text });
      }
    }
    item.spans.forEach((span, position) => {
      if (matched.has(position)) return;
      this.scoreOf(span.entity_type)[kind].falseNegatives++;
      if (recordMisses) this.misses.push({ kind: 'missed', entityType: span.entity_type, value: span.entity_value, text: item.full_text });
    });
  }

  private scoreOf(entityType: string): TypeScore {
    let score = this.byType.get(entityType);
    if (score === undefined) {
      const zero = (): Counts => ({ truePositives: 0, falsePositives: 0, falseNegatives: 0 });
      score = { overlap: zero(), exact: zero() };
      this.byType.set(entityType, score);
    }
    return score;
  }
}

export function precision(counts: Counts): number {
  const found = counts.truePositives + counts.falsePositives;
  return found === 0 ? Number.NaN : counts.truePositives / found;
}

export function recall(counts: Counts): number {
  const labelled = counts.truePositives + counts.falseNegatives;
  return labelled === 0 ? Number.NaN : counts.truePositives / labelled;
}
