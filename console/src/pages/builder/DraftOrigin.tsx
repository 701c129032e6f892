// Who wrote the draft and at what cost: the organization's model (its tokens and cost), or the
// rule-based drafter when no model is configured; and whether references were left out.
import type { BuilderResult } from './builder-api';

function costOf(cost: number | null): string {
  return cost === null ? 'cost unknown (the configuration has no prices)' : `$${cost.toFixed(4)}`;
}

export function DraftOrigin({ result }: { result: BuilderResult }) {
  const { usage } = result;
  return (
    <div className="note note-info builder-origin" role="status">
      {result.drafted_by === 'model' && usage !== null ? (
        <p>
          Drafted by {usage.model}: {usage.prompt_tokens + usage.completion_tokens} tokens{usage.tokens_estimated ? ' (estimated)' : ''}, {costOf(usage.cost)}
          {usage.model_calls > 1 ? `, in ${usage.model_calls} calls` : ''}.
        </p>
      ) : (
        <p>Drafted by the built-in rules: no model is configured for the organization, so the draft is plainer. Check each field.</p>
      )}
      {result.dropped_references > 0 && (
        <p>
          {result.dropped_references} {result.dropped_references === 1 ? 'corpus, tool or guardrail' : 'corpora, tools or guardrails'} the model named {result.dropped_references === 1 ? 'was' : 'were'} left
          out: you may not use {result.dropped_references === 1 ? 'it' : 'them'}.
        </p>
      )}
      <p>Nothing is created yet: review every field below, change what you like, then create the agent.</p>
    </div>
  );
}
