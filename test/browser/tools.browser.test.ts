// Tools in a real browser, as an owner uses them: API tools behind their flag (turned on from the
// page), an API tool written by hand and test-run against a loopback service (the request sent, the
// answer, the secret kept when left unchanged), switched off and on; an OpenAPI document's operations
// listed by the server (from an address, then a file), imported with one refused, and the report; an
// MCP server added and its tools chosen; a web search tool run against a loopback SearXNG; 390 px.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { startStreamableMcpServer, type FakeMcpServer } from '../support/fake-mcp.js';
import { startListener, type Listener } from '../support/listeners.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, PROCESSING_MS, signIn, useConsoleBrowser } from './support/console-browser.js';

const API_KEY = 'shop-key-0123456789abcdef';
const MEMBER_PASSWORD = 'member-password-0123';

const folder = mkdtempSync(join(tmpdir(), 'tools-browser-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A small document: two operations that make tools, and one whose form body cannot be sent. */
function shopDocument(serverUrl: string): string {
  return [
    'openapi: 3.0.3',
    'info: { title: Shop, version: "1" }',
    `servers: [{ url: "${serverUrl}" }]`,
    'paths:',
    '  /orders:',
    '    get:',
    '      operationId: listOrders',
    '      summary: All orders',
    '      responses: {}',
    '  /orders/{id}:',
    '    get:',
    '      operationId: getOrder',
    '      summary: One order',
    '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
    '      responses: {}',
    '  /orders/{id}/invoice:',
    '    post:',
    '      operationId: uploadInvoice',
    '      summary: Attach an invoice',
    '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
    '      requestBody: { content: { multipart/form-data: { schema: { type: object } } } }',
    '      responses: {}',
    '',
  ].join('\n');
}

/** Clicks a checkbox, a switch or a radio button as a person does: on its label (React Aria's input is visually hidden). */
async function toggle(page: Page, name: RegExp | string, role: 'checkbox' | 'switch' | 'radio' = 'checkbox'): Promise<void> {
  await page.locator('label').filter({ has: page.getByRole(role, { name }) }).click();
}

interface Received {
  url: string;
  apiKey: string | undefined;
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: tools', BROWSER_TEST, () => {
  let upstream: Listener;
  let mcp: FakeMcpServer;
  const received: Received[] = [];
  beforeAll(async () => {
    // One loopback service: the shop's API (an echo of what arrived) and a SearXNG instance.
    upstream = await startListener((request, response) => {
      const url = request.url ?? '/';
      received.push({ url, apiKey: request.headers['x-api-key'] as string | undefined });
      response.writeHead(200, { 'content-type': 'application/json' });
      if (url === '/shop.yaml') {
        response.end(shopDocument(upstream.origin));
      } else if (url.startsWith('/search')) {
        response.end(JSON.stringify({ results: [{ title: 'Lighthouses of the north', url: 'https://example.com/lighthouses', content: 'A guide to the lighthouses.' }] }));
      } else {
        response.end(JSON.stringify({ order: url.split('/').pop(), status: 'shipped' }));
      }
    });
    mcp = await startStreamableMcpServer();
  });
  afterAll(async () => {
    await upstream?.close();
    await mcp?.close();
  });
  // Loopback on any port: the fakes above and the fake model.
  const browser = useConsoleBrowser({ EGRESS_ALLOWED_HOSTS: '127.0.0.1' });

  async function openTools(page: Page): Promise<void> {
    const server = browser.server();
    await signIn(page, server.email, server.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
  }

  async function setFlag(enabled: boolean): Promise<void> {
    expect((await browser.server().admin.api.put('/api/v2/feature-flags/api-tools', { enabled })).status).toBe(200);
  }

  it('turns API tools on, writes an API tool by hand, test-runs it, keeps its secret, switches it off and on', async () => {
    await setFlag(false);
    const { page } = await browser.open();
    await openTools(page);
    await page.getByRole('heading', { name: 'API and MCP server tools are off' }).waitFor();
    await expect(page.getByRole('link', { name: 'API tool', exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page, 'the tools page with API tools off');
    await page.getByRole('button', { name: 'Turn on API tools' }).click();
    await page.getByRole('link', { name: 'API tool', exact: true }).click();

    await page.getByRole('heading', { name: 'New API tool', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('order_status');
    await page.getByRole('textbox', { name: 'Description' }).fill('The delivery status of an order, by its number.');
    await page.getByRole('textbox', { name: 'URL' }).fill(`${upstream.origin}/orders/{order_number}`);
    await page
      .getByRole('textbox', { name: 'Parameters (JSON Schema)' })
      .fill(JSON.stringify({ type: 'object', properties: { order_number: { type: 'string' } }, required: ['order_number'] }));
    await page.getByRole('button', { name: /Authentication/ }).click();
    await page.getByRole('option', { name: /^API key/ }).click();
    await page.getByRole('textbox', { name: 'Header or parameter name' }).fill('X-Api-Key');
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(API_KEY);
    await expectAccessible(page, 'the new API tool form');
    await page.getByRole('button', { name: 'Add API tool' }).click();

    await page.getByRole('heading', { name: 'order_status', level: 1 }).waitFor();
    const args = page.getByRole('textbox', { name: 'Arguments (JSON)' });
    await poll(() => args.inputValue()).toContain('order_number');
    await args.fill('{ "order_number": "1042" }');
    await page.getByRole('button', { name: 'Run test' }).click();
    const result = page.getByRole('region', { name: 'Test result' });
    await result.getByText('Worked').waitFor();
    await poll(() => result.getByLabel('Request sent').textContent()).toContain(`GET ${upstream.origin}/orders/1042`);
    await poll(() => result.getByLabel('Request sent').textContent()).toMatch(/x-api-key: \*\*\*\*/i);
    await poll(() => result.getByLabel('Answer').textContent()).toContain('shipped');
    expect(received.at(-1)).toEqual({ url: '/orders/1042', apiKey: API_KEY });
    await expectAccessible(page, 'a tool with its test result');

    // A change that leaves the secret empty keeps it.
    await page.getByRole('button', { name: 'Edit settings' }).click();
    await page.getByRole('textbox', { name: 'Description' }).fill('The delivery status of an order and where it is.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByText('The delivery status of an order and where it is.').waitFor();
    await page.getByRole('button', { name: 'Run test' }).click();
    await poll(() => received.length).toBeGreaterThan(1);
    expect(received.at(-1)).toEqual({ url: '/orders/1042', apiKey: API_KEY });

    // Off for the organization, then on again.
    await toggle(page, 'Enabled for the organization', 'switch');
    await page.getByText('Agents that name it keep it but do not call it.').waitFor();
    await page.getByRole('link', { name: 'Tools' }).first().click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'order_status' }) });
    await row.getByText('Disabled').waitFor();
    await row.getByRole('link', { name: 'order_status' }).click();
    await toggle(page, 'Enabled for the organization', 'switch');
    await page.getByText('Agents that name it may call it.').waitFor();
    const tools = (await browser.server().admin.api.get(`/api/v2/organizations/${browser.server().admin.organizationId}/tools?kind=api`)).body.data.items;
    expect(tools.find((tool: { name: string }) => tool.name === 'order_status')).toMatchObject({ enabled: true, secret_hint: expect.stringContaining('…') });
  });

  it('imports an OpenAPI document from a file, chosen operations, one refused, and reads the report', async () => {
    await setFlag(true);
    const documentPath = join(folder, 'shop.yaml');
    writeFileSync(documentPath, shopDocument(upstream.origin));
    const { page } = await browser.open();
    await openTools(page);
    await page.getByRole('link', { name: 'Import an OpenAPI document' }).click();
    await page.getByRole('heading', { name: 'Import an OpenAPI document', level: 1 }).waitFor();
    // The server lists a document's operations, fetched from an address or given as a file.
    await toggle(page, 'An address', 'radio');
    await page.getByRole('textbox', { name: 'Document address' }).fill(`${upstream.origin}/shop.yaml`);
    await page.getByRole('button', { name: 'List its operations' }).click();
    await page.getByText(`${upstream.origin}/shop.yaml: Shop, 3 operations.`).waitFor();
    await toggle(page, 'A file', 'radio');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a file…' }).click();
    await (await chooser).setFiles(documentPath);
    await page.getByText('shop.yaml: Shop, 3 operations.').waitFor();
    // Every operation is chosen at first; listOrders is left out, found through the filter, which keeps
    // the choice of the operations it hides.
    await page.getByRole('searchbox', { name: 'Filter the operations' }).fill('GET order');
    await page.getByText('2 of 3 operations shown.').waitFor();
    await expect(page.getByRole('checkbox', { name: /^uploadInvoice/ }).count()).resolves.toBe(0);
    await toggle(page, /^listOrders/);
    await page.getByText('2 of 3 chosen').waitFor();
    await page.getByRole('searchbox', { name: 'Filter the operations' }).fill('nothing like it');
    await page.getByText('No operation matches the filter.').waitFor();
    await page.getByRole('searchbox', { name: 'Filter the operations' }).fill('');
    await expect(page.getByRole('checkbox', { name: /^uploadInvoice/ }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /^listOrders/ }).isChecked()).resolves.toBe(false);
    await page.getByRole('textbox', { name: 'Name prefix' }).fill('shop_');
    await expectAccessible(page, 'the import form with its operations');
    await page.getByRole('button', { name: 'Import', exact: true }).click();

    await page.getByRole('heading', { name: /^Import #\d+/, level: 1 }).waitFor();
    await page.getByText('Finished').waitFor({ timeout: PROCESSING_MS });
    await page.getByText('1 imported').waitFor();
    await page.getByText('1 skipped').waitFor();
    const skipped = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /uploadInvoice/ }) });
    await skipped.getByText('Skipped').waitFor();
    await poll(() => skipped.textContent()).toMatch(/multipart|form/i);
    const imported = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /getOrder/ }) });
    await imported.getByRole('link', { name: 'shop_getOrder' }).waitFor();
    await expect(page.getByRole('rowheader', { name: /listOrders/ }).count()).resolves.toBe(0);
    await expectAccessible(page, 'the import report');
    await imported.getByRole('link', { name: 'shop_getOrder' }).click();
    await page.getByRole('heading', { name: 'shop_getOrder', level: 1 }).waitFor();
  });

  it('adds an MCP server and chooses its tools, then a web search tool, each test-run', async () => {
    await setFlag(true);
    const server = browser.server();
    const { page } = await browser.open();
    await openTools(page);
    await page.getByRole('link', { name: 'MCP server' }).click();
    await page.getByRole('heading', { name: 'New MCP server', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('tracker');
    await page.getByRole('textbox', { name: 'Server URL' }).fill(mcp.url);
    await page.getByRole('textbox', { name: 'Headers' }).fill('X-Workspace: support');
    await expectAccessible(page, 'the new MCP server form');
    await page.getByRole('button', { name: 'Add MCP server' }).click();

    await page.getByRole('heading', { name: 'tracker', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'The server’s tools' }).waitFor();
    // A tool whose schema the platform cannot run is listed with why, and cannot be chosen.
    await expect(page.getByRole('checkbox', { name: /^strict/ }).isDisabled()).resolves.toBe(true);
    for (const name of ['picture', 'failing', 'hang', 'large', 'request_headers']) await toggle(page, new RegExp(`^${name}`));
    await page.getByRole('button', { name: 'Save the choice' }).click();
    await page.getByText('The choice of tools is saved.').waitFor();
    const saved = (await server.admin.api.get(`/api/v2/organizations/${server.admin.organizationId}/tools?kind=mcp`)).body.data.items[0];
    expect(saved.config).toMatchObject({ tools: ['echo', 'forecast'], headers: { 'X-Workspace': '****' } });
    await expectAccessible(page, 'an MCP server tool');

    await page.getByRole('button', { name: /Tool of the server/ }).click();
    await page.getByRole('option', { name: /^forecast/ }).click();
    await page.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{ "city": "Oslo" }');
    await page.getByRole('button', { name: 'Run test' }).click();
    await poll(() => page.getByRole('region', { name: 'Test result' }).getByLabel('Answer').textContent()).toContain('Sunny in Oslo');
    expect(mcp.requests.at(-1)?.['x-workspace']).toBe('support');

    await page.getByRole('link', { name: 'Tools' }).first().click();
    await page.getByRole('link', { name: 'Web search' }).click();
    await page.getByRole('heading', { name: 'New web search tool', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('web_search');
    await page.getByRole('textbox', { name: 'Instance address' }).fill(upstream.origin);
    await expectAccessible(page, 'the new web search tool form');
    await page.getByRole('button', { name: 'Add web search tool' }).click();
    await page.getByRole('heading', { name: 'web_search', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{ "query": "lighthouses" }');
    await page.getByRole('button', { name: 'Run test' }).click();
    const result = page.getByRole('region', { name: 'Test result' });
    await poll(() => result.getByLabel('Request sent').textContent()).toContain('/search?q=lighthouses');
    await poll(() => result.getByLabel('Answer').textContent()).toContain('Lighthouses of the north');
  });

  it('fits a phone: the tools and a tool', async () => {
    await setFlag(true);
    const { page } = await browser.open({ viewport: PHONE });
    await openTools(page);
    await page.getByRole('heading', { name: 'API tools', level: 2 }).waitFor();
    await page.getByRole('link', { name: /^Import #\d+/ }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the tools page at 390 px');
    await page.getByRole('link', { name: 'order_status' }).click();
    await page.getByRole('heading', { name: 'order_status', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run test' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'a tool at 390 px');
  });

  it('shows a member the tools and whether they are on, without the means to change them', async () => {
    const server = browser.server();
    await createUser(server.t.app, { role: 'member', email: 'member@example.com', password: MEMBER_PASSWORD });
    const { page } = await browser.open();
    await signIn(page, 'member@example.com', MEMBER_PASSWORD);
    await page.goto('/tools');
    await page.getByText('Only owners and admins add, change, test and remove tools.').waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'order_status' }) });
    await row.getByText('Enabled').waitFor();
    await expect(page.getByRole('link', { name: 'Web search', exact: true }).count()).resolves.toBe(0);
    await row.getByRole('link', { name: 'order_status' }).click();
    await page.getByRole('heading', { name: 'order_status', level: 1 }).waitFor();
    await page.getByText('Only owners and admins add, change, test and remove tools.').waitFor();
    await expect(page.getByRole('switch').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Run test' }).count()).resolves.toBe(0);
    await expectAccessible(page, 'a tool as a member sees it');
  });
});
