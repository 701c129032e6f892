// What an answer took: its tokens, its cost and the model that wrote it (from the stored response).
import type { AgentResponse } from './responseTypes';

const OFFLINE_MODEL = 'offline';
const integer = new Intl.NumberFormat('en-GB');

/** USD with enough digits that a fraction of a cent does not read as zero. */
export function formatCost(cost: number | null): string {
  if (cost === null) return 'cost unknown';
  if (cost === 0) return '$0';
  return `$${cost < 0.01 ? cost.toPrecision(2) : cost.toFixed(cost < 1 ? 4 : 2)}`;
}

export function AnswerMeta({ response }: { response: AgentResponse }) {
  const { tokens } = response;
  const about = tokens.estimated ? 'about ' : '';
  return (
    <p className="answer-meta">
      <span title={tokens.estimated ? 'Counted here: the provider gave no usage' : undefined}>
        {about}
        {integer.format(tokens.total)} tokens ({integer.format(tokens.prompt)} in, {integer.format(tokens.completion)} out)
      </span>
      <span>{formatCost(response.cost)}</span>
      <span>{response.model === OFFLINE_MODEL ? 'offline answerer (no model configured)' : `model ${response.model}`}</span>
      <span>{(response.latency_ms / 1000).toFixed(1)} s</span>
      {response.finish_reason === 'length' && <span className="badge badge-warning">cut at its most tokens</span>}
    </p>
  );
}
