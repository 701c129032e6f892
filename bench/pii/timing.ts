// The time detectPii takes on 10 KB of text made of the data set's sentences (PII in most of them),
// after a warm-up, as the guardrail meets it on a long answer or a big tool output.
import { detectPii } from '../../src/guardrails/pii/detect.js';

const TEXT_BYTES = 10 * 1024;
const WARMUP_RUNS = 20;
const MEASURED_RUNS = 200;

export interface DetectionTime {
  kilobytes: number;
  medianMs: number;
  p95Ms: number;
  perKilobyteMs: number;
}

/** Sentences joined by blank lines, cut to 10 KB, a different starting sentence for each text. */
function sampleTexts(sentences: readonly string[], count: number): string[] {
  const texts: string[] = [];
  for (let offset = 0; offset < count; offset++) {
    let text = '';
    for (let index = offset; text.length < TEXT_BYTES; index++) text += `${sentences[index % sentences.length]!}\n\n`;
    texts.push(text.slice(0, TEXT_BYTES));
  }
  return texts;
}

export function measureDetectionTime(sentences: readonly string[]): DetectionTime {
  const texts = sampleTexts(sentences, 16);
  for (let run = 0; run < WARMUP_RUNS; run++) detectPii(texts[run % texts.length]!);
  const times: number[] = [];
  for (let run = 0; run < MEASURED_RUNS; run++) {
    const started = performance.now();
    detectPii(texts[run % texts.length]!);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)]!;
  return { kilobytes: TEXT_BYTES / 1024, medianMs, p95Ms: times[Math.floor(times.length * 0.95)]!, perKilobyteMs: medianMs / (TEXT_BYTES / 1024) };
}
