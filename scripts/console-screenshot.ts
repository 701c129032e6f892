// Makes the README's picture of the console: docs/images/console-chat.png, the chat page at 1280×800
// with an answered, cited question. Starts the real server (scratch SQLite, the console of
// dist/console, or of CONSOLE_DIR) with the fake model of the tests, arranges a corpus and an agent
// through the API, asks through the page as a person does, and saves what Chromium shows.
// Run: npx tsx scripts/console-screenshot.ts [output.png]   (Debian's chromium, or CHROMIUM_PATH)
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/browser/support/chromium.js';
import { startConsoleServer, type ConsoleServer } from '../test/browser/support/console-server.js';
import { agentWith, createModelConfiguration } from '../test/support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from '../test/support/corpora.js';

const DOCUMENTS = [
  {
    name: 'returns-policy.md',
    text: 'Returns. Customers may return an item within 30 days of purchase, with the receipt, at any store or by post. Items must be unused and in their packaging.',
  },
  {
    name: 'refunds.md',
    text: 'Refunds. A refund goes back to the original payment method within 5 business days of the return being received. Gift cards are refunded as store credit.',
  },
];
const QUESTION = 'How long do customers have to return an item, and when do they get their money back?';
const ANSWER =
  'Customers can return an item within 30 days of purchase, with the receipt, at any store or by post; it must be unused and in its packaging [1].\n\n' +
  'The refund goes back to the original payment method within 5 business days of the return being received; gift cards are refunded as store credit [2].';

async function arrange(server: ConsoleServer): Promise<number> {
  const { admin, fake } = server;
  // The signed-in owner's name, shown in the header.
  const owners = await admin.api.get(`/api/v2/users?q=${encodeURIComponent(server.email)}`);
  await admin.api.put(`/api/v2/users/${owners.body.data.items[0].id}`, { first_name: 'Ada', last_name: 'Lovelace' });
  const corpus = await createCorpus(admin, { name: 'Customer service handbook' });
  const ids = [];
  for (const document of DOCUMENTS) ids.push((await uploadText(admin, corpus.id, document.text, { name: document.name })).id);
  await waitForProcessing(admin, corpus.id, ids);
  // A model with prices, so that the answer says what it cost.
  const model = await createModelConfiguration(admin, fake, { name: 'Fake model (priced)', input_price_per_million: 0.15, output_price_per_million: 0.6 });
  const agent = await agentWith(admin, [corpus.id], {
    name: 'Store helper',
    description: 'Answers customer-service questions from the handbook.',
    status: 'active',
    llm_configuration_id: model.id,
    conversation_starters: ['How do returns work?', 'Can I exchange a gift?'],
  });
  fake.answer = ANSWER;
  fake.tokens = { prompt: 412, completion: 61 };
  return agent.id;
}

/**
 * Starts the server and Chromium, lets `arrange` prepare the data through the API (it answers the
 * page to open), signs in as the first owner, opens the page, lets `show` bring it to the state
 * pictured, and saves a 1280×800 picture at `output`. Used by the other console-screenshot scripts.
 */
export async function screenshotConsole(output: string, arrange: (server: ConsoleServer) => Promise<string>, show: (page: Page) => Promise<void>): Promise<void> {
  if (CHROMIUM_PATH === undefined) throw new Error('No Chromium: install it with `apt-get install chromium`, or set CHROMIUM_PATH');
  const server = await startConsoleServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const path = await arrange(server);
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(server.email);
    await page.getByLabel('Password').fill(server.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.goto(path);
    await show(page);
    // The picture shows the page, not where the pointer or the focus happened to be.
    await page.mouse.move(0, 0);
    await page.evaluate('document.activeElement?.blur()');
    mkdirSync(dirname(output), { recursive: true });
    await page.screenshot({ path: output });
    process.stdout.write(`Saved ${output}\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Runs `make` as a script's whole work, its failure said on stderr with a failing exit code. */
export function runScreenshotScript(name: string, make: () => Promise<void>): void {
  make().catch((error: unknown) => {
    process.stderr.write(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}

async function showAnsweredQuestion(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /question|message/i }).fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  // Answered: the sources are listed and the answer is no longer being written.
  await page.getByRole('button', { name: /^Source 2/ }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
}

// Run as a script (not when another screenshot script imports its helpers).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const output = resolve(process.argv[2] ?? 'docs/images/console-chat.png');
  runScreenshotScript('console-screenshot', () => screenshotConsole(output, async (server) => `/agents/${await arrange(server)}/chat`, showAnsweredQuestion));
}
