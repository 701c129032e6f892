// A test run (POST …/tools/{id}/test): the tool run once, as the signed-in person, with the arguments
// typed as JSON; the answer shows whether it worked, the HTTP request as sent (credentials masked by
// the server) and what the model would read.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { ErrorNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { CodeBlock } from './CodeBlock';
import { testTool } from './tool-changes';
import type { Tool, ToolTestResult } from './tools-api';

interface ToolTestPanelProps {
  tool: Tool;
  ids: { org_id: number; tool_id: number };
}

/** Arguments to start from: each property of the schema, with its default or an empty value. */
function sampleInput(schema: unknown): string {
  const properties = (schema as { properties?: Record<string, { type?: string; default?: unknown }> } | undefined)?.properties ?? {};
  const sample = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, property.default ?? (property.type === 'integer' || property.type === 'number' ? 0 : property.type === 'boolean' ? false : '')]),
  );
  return JSON.stringify(sample, null, 2);
}

const SEARCH_INPUT = JSON.stringify({ query: '' }, null, 2);

export function ToolTestPanel({ tool, ids }: ToolTestPanelProps) {
  const offered = (tool.remote_tools?.tools ?? []).filter((remote) => remote.function_name !== null);
  const [remoteTool, setRemoteTool] = useState<string | null>(offered[0]?.name ?? null);
  const schemaOf = (name: string | null) => offered.find((remote) => remote.name === name)?.input_schema;
  const initial = tool.kind === 'api' ? sampleInput(tool.config?.parameters) : tool.kind === 'mcp' ? sampleInput(schemaOf(remoteTool)) : tool.kind === 'attachment' ? '{}' : SEARCH_INPUT;
  const [input, setInput] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useMutation({ mutationFn: ({ args, remote }: { args: Record<string, unknown>; remote?: string }) => testTool(ids, args, remote) });

  return (
    <section aria-labelledby="test-heading" className="tool-panel">
      <h2 id="test-heading">Test run</h2>
      <Form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          let args: unknown;
          try {
            args = JSON.parse(input);
          } catch {
            return setProblem('The arguments are not valid JSON');
          }
          if (args === null || typeof args !== 'object' || Array.isArray(args)) return setProblem('The arguments must be a JSON object');
          setProblem(null);
          run.mutate({ args: args as Record<string, unknown>, ...(tool.kind === 'mcp' && remoteTool !== null ? { remote: remoteTool } : {}) });
        }}
      >
        {tool.kind === 'mcp' && (
          <SelectField
            label="Tool of the server"
            options={offered.map((remote) => ({ id: remote.name, label: remote.name, detail: remote.description }))}
            value={remoteTool}
            onChange={(name) => {
              setRemoteTool(name);
              setInput(sampleInput(schemaOf(name)));
            }}
          />
        )}
        <TextField label="Arguments (JSON)" value={input} onChange={setInput} multiline rows={4} className="mono-field" description="As the model would give them." />
        {problem !== null && (
          <p className="note note-error" role="alert">
            {problem}
          </p>
        )}
        <ErrorNote error={run.error} title="The test could not run." />
        <div className="actions">
          <Button type="submit" variant="primary" isDisabled={run.isPending || (tool.kind === 'mcp' && remoteTool === null)}>
            {run.isPending ? 'Running…' : 'Run test'}
          </Button>
        </div>
      </Form>
      {run.data !== undefined && <TestOutcome result={run.data} />}
    </section>
  );
}

function TestOutcome({ result }: { result: ToolTestResult }) {
  return (
    <div className="test-outcome" role="region" aria-label="Test result">
      <p>
        <span className={result.status === 'ok' ? 'badge badge-success' : 'badge badge-danger'}>{result.status === 'ok' ? 'Worked' : 'Failed'}</span>{' '}
        {result.http_status !== null && <span>HTTP {result.http_status} · </span>}
        <span className="muted">{result.latency_ms} ms</span>
      </p>
      {result.error !== null && <p className="note note-error">{result.error}</p>}
      <h3>Request sent</h3>
      {result.request === null ? (
        <p className="muted">No HTTP request was made.</p>
      ) : (
        <CodeBlock label="Request sent">
          {`${result.request.method} ${result.request.url}\n${Object.entries(result.request.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n')}${result.request.body === null ? '' : `\n\n${result.request.body}`}`}
        </CodeBlock>
      )}
      <h3>Answer</h3>
      <CodeBlock label="Answer">{result.output}</CodeBlock>
    </div>
  );
}
