// The time detectPii takes on 10 KB of text made of the data set's sentences (PII in most of them),
// after a warm-up, as the guardrail meets it on a long answer or a big tool output. Wall time and the
// process's CPU time are both given: on a machine whose cores are shared, wall time also counts the
// time the process waited for a core, which the load average beside it tells.
import { loadavg } from 'node:os';
import { detectPii } from '../../src/guardrails/pii/detect.js';
import { percentile } from '../lib/percentiles.js';

const TEXT_CHARACTERS = 10 * 1024;
const WARMUP_RUNS = 300;
const MEASURED_RUNS = 300;

export interface DetectionTime {
  kilobytes: number;
  medianMs: number;
  p95Ms: number;
  /** CPU time of the process (user and system) per call, averaged over the measured calls. */
  cpuMs: number;
  /** The machine's load average over the last minute when measured. */
  loadAverage: number;
}

/** Sentences joined by blank lines, cut to 10 KB, a different starting sentence for each text. */
function sampleTexts(sentences: readonly string[], count: number): string[] {
  const texts: string[] = [];
  for (let offset = 0; offset < count; offset++) {
    let text = '';
    for (let index = offset; text.length < TEXT_CHARACTERS; index++) text += `${sentences[index % sentences.length]!}\n\n`;
    texts.push(text.slice(0, TEXT_CHARACTERS));
  }
  return texts;
}

export function measureDetectionTime(sentences: readonly string[]): DetectionTime {
  const texts = sampleTexts(sentences, 16);
  for (let run = 0; run < WARMUP_RUNS; run++) detectPii(texts[run % texts.length]!);
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let run = 0; run < MEASURED_RUNS; run++) {
    const started = performance.now();
    detectPii(texts[run % texts.length]!);
    times.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  return {
    kilobytes: TEXT_CHARACTERS / 1024,
    medianMs: percentile(times, 50),
    p95Ms: percentile(times, 95),
    cpuMs: (cpu.user + cpu.system) / 1000 / MEASURED_RUNS,
    loadAverage: loadavg()[0]!,
  };
}
