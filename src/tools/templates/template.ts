// What an API tool template is: a public API described as data (a JSON file beside this one), with
// the settings of the tool it makes. Every template is checked when the server starts, by this
// schema and by the rules an API tool's settings follow when saved: a template that would make an
// invalid tool stops the server rather than failing the user who picks it.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AllowList } from '../../net/allowed-hosts.js';
import { ApiToolConfig } from '../api/config.js';
import { apiConfigProblems } from '../api/config-check.js';

export const ToolTemplate = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'Stable identifier of the template, e.g. open-meteo-forecast' }),
  title: Type.String({ minLength: 1, maxLength: 200, description: 'What the template calls, for people' }),
  name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'The tool name a tool made from it gets unless another is given' }),
  description: Type.String({ minLength: 1, maxLength: 2000, description: 'What the tool does, as the model reads it' }),
  documentation_url: Type.String({ pattern: '^https://\\S+$', description: 'The API’s documentation' }),
  secret: Type.Union(
    [
      Type.Object({
        required: Type.Boolean({ description: 'Whether a tool made from the template needs a secret' }),
        description: Type.String({ description: 'What the secret is and how it is sent' }),
      }),
      Type.Null(),
    ],
    { description: 'The secret the API takes (an API key or token); null: none' },
  ),
  config: ApiToolConfig,
});
export type ToolTemplate = Static<typeof ToolTemplate>;

/** Throws, naming every problem, unless each template is valid and ids are unique. */
export function checkTemplates(templates: unknown[]): ToolTemplate[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const noHostAllowed = new AllowList([]);
  for (const [index, template] of templates.entries()) {
    const label = (template as { id?: unknown })?.id ?? `#${index}`;
    const shapeErrors = [...Value.Errors(ToolTemplate, template)];
    for (const error of shapeErrors) problems.push(`template ${String(label)}: ${error.path} ${error.message}`);
    if (shapeErrors.length > 0) continue;
    const valid = template as ToolTemplate;
    if (ids.has(valid.id)) problems.push(`template ${valid.id}: the id is used twice`);
    ids.add(valid.id);
    for (const problem of apiConfigProblems(valid.config, noHostAllowed, '/config')) problems.push(`template ${valid.id}: ${problem.pointer} ${problem.message}`);
  }
  if (problems.length > 0) throw new Error(`Invalid API tool templates:\n${problems.join('\n')}`);
  return templates as ToolTemplate[];
}
