// What happened while an answer was written, shown where it happened: a tool call (its tool, its
// arguments, what came back) and a guardrail's action (its name and what it did), each a compact
// disclosure that opens for the details.
import { memo } from 'react';
import { Button as AriaButton, Disclosure, DisclosurePanel } from 'react-aria-components';
import type { GuardrailAction, ToolCall } from './responseTypes';

const TOOL_STATUS: Record<ToolCall['status'], { label: string; tone: string }> = {
  ok: { label: 'done', tone: 'badge-success' },
  error: { label: 'failed', tone: 'badge-danger' },
  invalid: { label: 'refused: wrong tool or arguments', tone: 'badge-danger' },
  repeated: { label: 'repeated, not run again', tone: 'badge-warning' },
  blocked: { label: 'result withheld by a guardrail', tone: 'badge-warning' },
  client: { label: 'returned to the client to run', tone: 'badge-warning' },
};

function argumentsText(input: unknown): string {
  if (input === undefined || input === null) return '(none)';
  return JSON.stringify(input, null, 2);
}

export const ToolCallMark = memo(function ToolCallMark({ call }: { call: ToolCall }) {
  const status = TOOL_STATUS[call.status];
  const failed = call.status !== 'ok';
  return (
    <Disclosure className="answer-mark">
      <AriaButton slot="trigger" className="answer-mark-trigger">
        <span aria-hidden="true" className="answer-mark-chevron">
          ›
        </span>
        Tool <strong>{call.name}</strong> <span className={`badge ${status.tone}`}>{status.label}</span>
        <span className="muted"> · {call.latency_ms} ms</span>
      </AriaButton>
      <DisclosurePanel className="answer-mark-panel">
        <p className="answer-mark-label">Arguments</p>
        <pre>{argumentsText(call.input)}</pre>
        <p className="answer-mark-label">{failed ? 'Error' : 'Result'}</p>
        <pre>{call.output === '' ? '(empty)' : call.output}</pre>
        {call.http_status !== null && <p className="muted">The service answered HTTP {call.http_status}.</p>}
      </DisclosurePanel>
    </Disclosure>
  );
});

const DID: Record<GuardrailAction['action'], string> = { block: 'blocked', redact: 'redacted', mask: 'masked', warn: 'warned' };

function whereOf(action: GuardrailAction): string {
  if (action.stage === 'input') return 'the question';
  if (action.stage === 'output') return 'the answer';
  return action.source ?? 'a passage or tool result';
}

export const GuardrailMark = memo(function GuardrailMark({ action }: { action: GuardrailAction }) {
  const findings = action.findings.length;
  const tone = action.action === 'block' ? 'badge-danger' : 'badge-warning';
  return (
    <Disclosure className="answer-mark">
      <AriaButton slot="trigger" className="answer-mark-trigger">
        <span aria-hidden="true" className="answer-mark-chevron">
          ›
        </span>
        Guardrail <strong>{action.name}</strong> <span className={`badge ${tone}`}>{DID[action.action]}</span>
        <span className="muted">
          {' '}
          · {findings} {findings === 1 ? 'finding' : 'findings'} in {whereOf(action)}
        </span>
      </AriaButton>
      <DisclosurePanel className="answer-mark-panel">
        {findings === 0 ? (
          <p className="muted">No details.</p>
        ) : (
          <ul className="answer-findings">
            {action.findings.map((finding, index) => (
              <li key={index}>
                {finding.entity_type} <span className="muted">(characters {finding.start}–{finding.end}, rule {finding.rule})</span>
              </li>
            ))}
          </ul>
        )}
      </DisclosurePanel>
    </Disclosure>
  );
});
