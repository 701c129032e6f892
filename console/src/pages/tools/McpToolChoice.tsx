// The tools an MCP server lists, as last asked (when it was added, or refreshed), and which of them
// agents are given: the choice is saved as the tool's config.tools (header values go back as ****,
// which keeps them). A tool the platform cannot offer (its schema) says why and cannot be chosen.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNote, SuccessNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { CheckList } from './CheckList';
import { refreshTool, updateTool } from './tool-changes';
import type { Tool } from './tools-api';

interface McpToolChoiceProps {
  tool: Tool;
  ids: { org_id: number; tool_id: number };
  onChanged: (tool: Tool) => Promise<void>;
  /** The api-tools flag is off: nothing can be asked of the server. */
  held: boolean;
}

function offeredNames(tool: Tool): string[] {
  return (tool.remote_tools?.tools ?? []).filter((remote) => remote.function_name !== null).map((remote) => remote.name);
}

export function McpToolChoice({ tool, ids, onChanged, held }: McpToolChoiceProps) {
  const [chosen, setChosen] = useState<string[]>(() => offeredNames(tool));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => updateTool(ids, { config: { ...tool.config, tools: chosen } }),
    onSuccess: async (changed) => {
      await onChanged(changed);
      setChosen(offeredNames(changed));
      setSaved(true);
    },
  });
  const refresh = useMutation({
    mutationFn: () => refreshTool(ids),
    onSuccess: async (changed) => {
      await onChanged(changed);
      setChosen(offeredNames(changed));
    },
  });
  const remote = tool.remote_tools;
  return (
    <section aria-labelledby="mcp-tools-heading" className="tool-panel">
      <h2 id="mcp-tools-heading">The server’s tools</h2>
      {remote === null || remote === undefined ? (
        <p className="muted">The server has not been asked for its tools yet.</p>
      ) : (
        <>
          <p className="muted text-small">
            Listed {new Date(remote.listed_on).toLocaleString()} over {remote.transport.replace('_', ' ')}
            {remote.left_out > 0 ? `; ${remote.left_out} more were left out` : ''}.
          </p>
          {remote.unlisted.length > 0 && <p className="note note-error">No longer listed by the server, so not offered: {remote.unlisted.join(', ')}.</p>}
          <CheckList
            label="Tools agents are given"
            items={remote.tools.map((entry) => ({
              id: entry.name,
              label: entry.name,
              detail: entry.description,
              ...(entry.problem === null ? {} : { refusal: `Cannot be offered: ${entry.problem}` }),
            }))}
            selected={chosen}
            onChange={(value) => {
              setSaved(false);
              setChosen(value);
            }}
          />
        </>
      )}
      {saved && <SuccessNote>The choice of tools is saved.</SuccessNote>}
      <ErrorNote error={save.error ?? refresh.error} title={save.error ? 'The choice was not saved.' : 'The server could not be asked.'} />
      <div className="actions">
        {remote !== null && remote !== undefined && (
          <Button variant="primary" onPress={() => save.mutate()} isDisabled={held || chosen.length === 0 || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save the choice'}
          </Button>
        )}
        <Button onPress={() => refresh.mutate()} isDisabled={held || refresh.isPending}>
          {refresh.isPending ? 'Asking the server…' : 'Ask the server again'}
        </Button>
        {chosen.length === 0 && remote && <span className="muted text-small">Choose at least one tool.</span>}
      </div>
    </section>
  );
}
