// The pure parts of MCP server tools: the names the model calls a server's tools by, which tools are
// offered, the choice checked against a listing, and an answer's content as the model reads it.
import { describe, expect, it } from 'vitest';
import { callResultText } from '../src/tools/mcp/call-result.js';
import { chosenToolProblems, functionNameOf, offeredTools, remoteToolList } from '../src/tools/mcp/remote-tools.js';

const listing = (names: string[]) => remoteToolList(names.map((name) => ({ name, description: `The ${name} tool`, inputSchema: { type: 'object' } })), 'streamable_http', '2026-11-28T12:00:00.000Z');

describe('MCP server tools', () => {
  it('names each remote tool after its tool, within 64 characters, the same at every answer, and apart when names read alike', () => {
    expect(functionNameOf('tickets', 'search')).toBe('tickets__search');
    const dotted = functionNameOf('tickets', 'search.all');
    const underscored = functionNameOf('tickets', 'search_all');
    expect(underscored).toBe('tickets__search_all');
    expect(dotted).toMatch(/^tickets__search_all_[0-9a-f]{8}$/);
    expect(functionNameOf('tickets', 'search.all')).toBe(dotted);
    const long = 'a'.repeat(60);
    const forOrg = functionNameOf(long, 'list_repository_webhooks_for_org');
    const forRepo = functionNameOf(long, 'list_repository_webhooks_for_repo');
    expect(forOrg).not.toBe(forRepo);
    for (const name of [dotted, forOrg, forRepo]) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('offers the chosen tools in the order chosen, leaves out those it cannot give, and checks the choice', () => {
    const list = remoteToolList(
      [
        { name: 'a', inputSchema: { type: 'object' } },
        { name: 'b', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(?!x)' } } } },
        { name: 'c', inputSchema: { type: 'string' } },
        { name: 'd', inputSchema: { type: 'object', $schema: 'https://json-schema.org/draft/2020-12/schema' } },
      ],
      'sse',
      '2026-11-28T12:00:00.000Z',
    );
    expect(list.tools.map((tool) => [tool.name, tool.problem === null])).toEqual([['a', true], ['b', false], ['c', false], ['d', true]]);
    expect(list.tools[0]!.description).toBe('The a tool of an MCP server');
    expect(list.tools[3]!.input_schema).toEqual({ type: 'object' });
    expect(offeredTools('t', { tools: ['d', 'b', 'a'] }, list).map((tool) => tool.functionName)).toEqual(['t__d', 't__a']);
    expect(offeredTools('t', {}, list).map((tool) => tool.remote.name)).toEqual(['a', 'd']);
    expect(chosenToolProblems({ tools: ['a', 'b', 'z'] }, list, '/body/config').map((problem) => problem.pointer)).toEqual(['/body/config/tools/1', '/body/config/tools/2']);
    const many = listing(Array.from({ length: 51 }, (_, i) => `tool_${i}`));
    expect(chosenToolProblems({}, many, '/body/config')).toEqual([expect.objectContaining({ pointer: '/body/config/tools' })]);
    expect(offeredTools('t', {}, many)).toHaveLength(50);
  });

  it('reads an answer: text joined, other content described, structured content when there is no text', () => {
    expect(callResultText({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] })).toBe('one\ntwo');
    expect(callResultText({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).toBe('(audio content of type audio/wav, 3 bytes, not shown)');
    expect(callResultText({ content: [{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } }] })).toBe('inside');
    expect(callResultText({ content: [{ type: 'resource_link', uri: 'file:///b.pdf', name: 'b' }] })).toBe('(a link to the resource file:///b.pdf "b")');
    expect(callResultText({ content: [], structuredContent: { celsius: 21 } })).toBe('{"celsius":21}');
    expect(callResultText({ content: [] })).toBe('(no content)');
  });
});
