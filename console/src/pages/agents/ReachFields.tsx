// What the agent draws on and answers under: the corpora it answers from, the tools it may call and
// the guardrails it answers under, each chosen among the organization's.
import type { Schemas } from '../../api/client';
import { ErrorNote } from '../../ui/Feedback';
import type { AgentDraft, FieldErrors } from './agentDraft';
import { ChoiceGroup, type ChoiceItem } from './ChoiceGroup';
import { useCorpora, useGuardrails, useTools } from './useAgentChoices';

interface ReachFieldsProps {
  draft: AgentDraft;
  onChange: (change: Partial<AgentDraft>) => void;
  errors: FieldErrors['byField'];
  isReadOnly: boolean;
}

/**
 * The items to choose among, and any the agent already has that the list does not hold (a corpus not
 * shared with this person): kept, so that saving does not take it away unseen.
 */
function withUnlisted(items: ChoiceItem[], selected: number[], unlistedLabel: (id: number) => string): ChoiceItem[] {
  const listed = new Set(items.map((item) => item.id));
  return [...items, ...selected.filter((id) => !listed.has(id)).map((id) => ({ id, label: unlistedLabel(id) }))];
}

const toolItem = (tool: Schemas['Tool']): ChoiceItem => ({
  id: tool.id,
  label: tool.enabled ? tool.name : `${tool.name} (turned off)`,
  detail: tool.description === '' ? undefined : tool.description,
});

const guardrailItem = (guardrail: Schemas['Guardrail']): ChoiceItem => ({
  id: guardrail.id,
  label: guardrail.name,
  detail: `${guardrail.type.replace('_', ' ')}: ${guardrail.action} at ${guardrail.stages.join(', ')}`,
});

export function ReachFields({ draft, onChange, errors, isReadOnly }: ReachFieldsProps) {
  const corpora = useCorpora();
  const tools = useTools();
  const guardrails = useGuardrails();
  const corpusItems = (corpora.data ?? []).map((corpus) => ({ id: corpus.id, label: corpus.name, detail: corpus.description === '' ? undefined : corpus.description }));
  return (
    <>
      <ChoiceGroup
        label="Corpora"
        description="The documents the agent answers from."
        items={withUnlisted(corpusItems, draft.corpusIds, (id) => `Corpus ${id} (not shared with you)`)}
        selected={draft.corpusIds}
        onChange={(corpusIds) => onChange({ corpusIds })}
        emptyText="No corpus is shared with you yet."
        errorMessage={errors.corpus_ids}
        isReadOnly={isReadOnly}
      />
      <ErrorNote error={corpora.error} title="The corpora could not be read." />
      <ChoiceGroup
        label="Tools"
        description="What the agent may call while answering."
        items={withUnlisted((tools.data ?? []).map(toolItem), draft.toolIds, (id) => `Tool ${id} (removed)`)}
        selected={draft.toolIds}
        onChange={(toolIds) => onChange({ toolIds })}
        emptyText="The organization has no tools yet."
        errorMessage={errors.tool_ids}
        isReadOnly={isReadOnly}
      />
      <ErrorNote error={tools.error} title="The tools could not be read." />
      <ChoiceGroup
        label="Guardrails"
        description="Checks on what is asked and answered."
        items={withUnlisted((guardrails.data ?? []).map(guardrailItem), draft.guardrailIds, (id) => `Guardrail ${id} (removed)`)}
        selected={draft.guardrailIds}
        onChange={(guardrailIds) => onChange({ guardrailIds })}
        emptyText="The organization has no guardrails yet."
        errorMessage={errors.guardrail_ids}
        isReadOnly={isReadOnly}
      />
      <ErrorNote error={guardrails.error} title="The guardrails could not be read." />
    </>
  );
}
