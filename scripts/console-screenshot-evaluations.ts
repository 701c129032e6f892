// Makes docs/images/console-evaluation-comparison.png: the console's comparison of two runs of an
// agent over one dataset, at 1280×800. The real server with the fake model of the tests; a corpus,
// an agent, a dataset and two runs arranged through the API (one query at a time, so that the fake
// model's queued answers go to the questions in order); the page opened as a person opens it.
// Run: npx tsx scripts/console-screenshot-evaluations.ts [output.png]   (Debian's chromium, or CHROMIUM_PATH)
import { resolve } from 'node:path';
import type { ConsoleServer } from '../test/browser/support/console-server.js';
import { agentWith } from '../test/support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from '../test/support/corpora.js';
import { builtinMetric, createDataset, waitForEvaluation } from '../test/support/evaluations.js';
import { runScreenshotScript, screenshotConsole } from './console-screenshot.js';

const OUTPUT = resolve(process.argv[2] ?? 'docs/images/console-evaluation-comparison.png');

const HANDBOOK =
  'Leave. Full-time staff have 25 days of paid leave a year, 27 after five years. Parental leave lasts sixteen weeks at full pay. ' +
  'Expenses. Your manager approves expenses up to 500 EUR; finance approves anything above. Claims are made in the expenses tool within 30 days. ' +
  'Travel. Trips are booked through the travel desk; trains are preferred for journeys under five hours. ' +
  'Equipment. A laptop and a headset are issued on the first day; report a broken device to the IT desk.';

/** Each question, what a good answer says, and the answers of the two checkpoints compared. */
const QUERIES = [
  { question: 'How many days of paid leave do we have?', expected: '25 days a year', before: 'You have 25 days a year of paid leave [1].', after: 'Paid leave is 25 days a year, 27 after five years [1].' },
  { question: 'How long is parental leave?', expected: 'sixteen weeks', before: 'Parental leave lasts sixteen weeks at full pay [1].', after: 'Parental leave is paid in full [1].' },
  { question: 'Who approves expenses above 500 EUR?', expected: 'finance', before: 'Your manager approves them [1].', after: 'Above 500 EUR, finance approves the claim [1].' },
  { question: 'How are trips booked?', expected: 'through the travel desk', before: 'Book trips yourself online.', after: 'Trips are booked through the travel desk [1].' },
  { question: 'When must expenses be claimed?', expected: 'within 30 days', before: 'Claim them within 30 days in the expenses tool [1].', after: 'Claims are made within 30 days in the expenses tool [1].' },
  { question: 'What equipment do new staff get?', expected: 'a laptop and a headset', before: 'A laptop and a headset, on the first day [1].', after: 'New staff get a laptop and a headset [1].' },
  { question: 'Where do I report a broken laptop?', expected: 'the IT desk', before: 'Report it to the IT desk [1].', after: 'Tell the IT desk [1].' },
  { question: 'Are trains or planes preferred?', expected: 'trains for journeys under five hours', before: 'Planes are preferred.', after: 'Trains, for journeys under five hours [1].' },
];

async function arrange(server: ConsoleServer): Promise<string> {
  const { admin, fake, modelConfigurationId, t } = server;
  const corpus = await createCorpus(admin, { name: 'Staff handbook' });
  const document = await uploadText(admin, corpus.id, HANDBOOK, { name: 'handbook.md' });
  await waitForProcessing(admin, corpus.id, [document.id]);
  const agent = await agentWith(admin, [corpus.id], { name: 'HR helper', status: 'active', llm_configuration_id: modelConfigurationId });
  const dataset = await createDataset(
    admin,
    QUERIES.map((query) => ({ question: query.question, expected_answer: query.expected, expected_sources: ['handbook.md'], tags: ['handbook'] })),
    { name: 'Handbook questions', description: 'What new staff ask in their first month' },
  );
  const metricIds = [await builtinMetric(admin, 'contains'), await builtinMetric(admin, 'token_f1'), await builtinMetric(admin, 'hit_at_k')];
  const ids: number[] = [];
  for (const [name, answers] of [
    ['HR helper, long instructions', QUERIES.map((query) => query.before)],
    ['HR helper, shorter instructions', QUERIES.map((query) => query.after)],
  ] as const) {
    for (const answer of answers) fake.answerNext(answer);
    const created = await admin.api.post('/api/v2/evaluations', { name, agent_id: agent.id, dataset_id: dataset.id, metric_ids: metricIds, concurrency: 1, tags: ['handbook'] });
    if (created.status !== 201) throw new Error(`createEvaluation: ${created.status} ${created.text}`);
    ids.push(created.body.data.id);
    await waitForEvaluation(t.app, admin, created.body.data.id);
  }
  return `/evaluations/compare?ids=${ids.join(',')}`;
}

runScreenshotScript('console-screenshot-evaluations', () =>
  screenshotConsole(OUTPUT, arrange, async (page) => {
    await page.getByText(/got worse, \d+ got better/).waitFor({ timeout: 30_000 });
    // From the page's title down: the metrics and the first queries, below the navigation.
    await page.getByRole('heading', { name: 'Compare runs', level: 1 }).evaluate((heading) => window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 16));
  }),
);
