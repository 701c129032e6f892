// `npm run bench:guardrails`: what guardrails cost an answer. A PII guardrail (every entity type), a
// blocked-terms guardrail of 10,000 terms and a length rule (tokens) applied together to 10 KB of text
// with PII in it: p50, p95 and p99 of whole-text application, each guardrail alone, and the output
// stream filter fed the same text in pieces of 4 characters (as a model streams tokens), with how much
// it held back at most. Texts differ from run to run (names, numbers and filler drawn afresh), so
// nothing is measured on a text already seen. Environment: RUNS (default 1,000; after 300 of warm-up, so that the p95 is read from 50 runs above it), PIECE (default 4).
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { agentGuardrails } from '../src/guardrails/agent-guardrails.js';
import { compileGuardrail } from '../src/guardrails/compile.js';
import { GuardedStream } from '../src/guardrails/streaming-guard.js';
import { percentile } from './lib/percentiles.js';
import { seededRandom } from './lib/text-corpus.js';

const RUNS = Number(process.env.RUNS ?? 1000);
const WARMUP = 300;
const PIECE = Number(process.env.PIECE ?? 4);
const TEXT_BYTES = 10 * 1024;

const FIRST = ['Maria', 'John', 'Aiko', 'Peter', 'Fatima', 'Lucas', 'Ingrid', 'Omar'];
const LAST = ['Schmidt', 'Okafor', 'Tanaka', 'Garcia', 'Novak', 'Lindqvist', 'Haddad', 'Brown'];
const FILLER = [
  'The quarterly report shows steady growth across every region we serve.',
  'Please review the attached figures before the meeting on Thursday.',
  'Our support team answered most questions within the first hour.',
  'The migration to the new warehouse system finished without incident.',
  'Customers asked again for clearer invoices and fewer emails.',
];
// Phone numbers from 45,000 (five area codes): the detector remembers its last 2,000 verdicts, and a run
// should seldom meet a number it has already judged.
const AREAS = ['415', '212', '312', '617', '303'];
const CARDS = ['4111 1111 1111 1111', '5555 5555 5555 4444', '3782 822463 10005'];
const IBANS = ['DE89 3704 0044 0532 0130 00', 'GB82 WEST 1234 5698 7654 32', 'FR14 2004 1010 0505 0001 3M02 606'];

function textWithPii(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const parts = [];
  let length = 0;
  while (length < TEXT_BYTES) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const sentence = [
      pick(FILLER),
      `${first} ${last} wrote from ${first.toLowerCase()}.${last.toLowerCase()}@example.com and asked us to call +1 ${pick(AREAS)}-555-${String(1000 + Math.floor(random() * 8999))}.`,
      pick(FILLER),
      `The refund goes to card ${pick(CARDS)} or to IBAN ${pick(IBANS)}, server 10.${Math.floor(random() * 255)}.4.${Math.floor(random() * 255)}.`,
      pick(FILLER),
    ].join(' ');
    parts.push(sentence);
    length += sentence.length + 1;
  }
  return parts.join('\n').slice(0, TEXT_BYTES);
}

/** 10,000 blocked terms: made-up words and a few phrases, none of which the texts contain. */
function blockedTerms() {
  const random = seededRandom(42);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () => Array.from({ length: 5 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * 26)]).join('');
  return Array.from({ length: 10_000 }, (_, i) => (i % 10 === 0 ? `${word()} ${word()}` : word()));
}

let id = 0;
const define = (type, action, config) => ({ id: ++id, name: `${type} guardrail`, type, stages: ['output'], action, config });

let started = performance.now();
const pii = compileGuardrail(define('pii', 'redact', {}));
const terms = compileGuardrail(define('blocked_terms', 'redact', { terms: blockedTerms() }));
const length = compileGuardrail(define('length', 'redact', { max_tokens: 4_000 }));
const compileMs = performance.now() - started;

const sets = { 'pii + 10,000 terms + length': [pii, terms, length], 'pii alone': [pii], '10,000 terms alone': [terms], 'length (tokens) alone': [length] };

async function measure(run) {
  const times = [];
  for (let round = 0; round < WARMUP + RUNS; round++) {
    const text = textWithPii(seededRandom(1_000 + round));
    const cpu = process.cpuUsage();
    const begun = performance.now();
    const extra = await run(text);
    const spent = performance.now() - begun;
    const used = process.cpuUsage(cpu);
    if (round >= WARMUP) times.push({ spent, cpu: (used.user + used.system) / 1000, extra });
  }
  const sorted = times.map((time) => time.spent).sort((a, b) => a - b);
  const cpu = times.map((time) => time.cpu).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), cpu50: percentile(cpu, 50), cpu95: percentile(cpu, 95), extras: times.map((time) => time.extra) };
}

const rows = [];
for (const [name, guardrails] of Object.entries(sets)) {
  const agent = agentGuardrails(guardrails);
  const whole = await measure(async (text) => {
    const result = await agent.apply('output', text);
    return result.verdicts.reduce((sum, verdict) => sum + verdict.findings.length, 0);
  });
  rows.push({ name, way: 'whole text', ...whole, findings: Math.round(whole.extras.reduce((sum, count) => sum + count, 0) / whole.extras.length) });
}

const all = sets['pii + 10,000 terms + length'];
let heldMost = 0;
const streamed = await measure(async (text) => {
  const guard = new GuardedStream(all);
  for (let at = 0; at < text.length; at += PIECE) {
    guard.push(text.slice(at, at + PIECE));
    // Characters of the answer not yet released (released text is shorter where it was redacted).
    heldMost = Math.max(heldMost, Math.min(text.length, at + PIECE) - guard.released);
  }
  guard.flush();
  return Math.ceil(text.length / PIECE);
});
const pushes = streamed.extras[0];
rows.push({ name: 'pii + 10,000 terms + length', way: `stream, ${PIECE}-character pieces`, ...streamed, findings: undefined });

const ms = (value) => `${value.toFixed(2)} ms`;
console.log(`Guardrails on ${TEXT_BYTES} characters of text with PII, ${RUNS} runs after ${WARMUP} of warm-up (Node ${process.version}, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
console.log('Times are wall clock; CPU is the user and system time of the process over the same run (GC threads included).');
console.log(`Compiling the three guardrails (10,000 terms into one automaton): ${ms(compileMs)}\n`);
console.log('| guardrails | applied to | p50 | p95 | p99 | CPU p50 | CPU p95 | findings (mean) |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(`| ${row.name} | ${row.way} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${ms(row.cpu50)} | ${ms(row.cpu95)} | ${row.findings ?? '–'} |`);
}
const wholeP95 = rows[0].p95;
console.log(`\nStream: ${pushes} pieces an answer; p95 ${ms(streamed.p95)} an answer, ${((streamed.p95 / pushes) * 1000).toFixed(1)} µs a piece; ` +
  `overhead over applying to the whole text at once ${ms(streamed.p95 - wholeP95)} (p95 against p95); held back at most ${heldMost} characters ` +
  `(PII: a window of ${pii.detector.holdBack}; longest term ${terms.detector.holdBack - 1}).`);
