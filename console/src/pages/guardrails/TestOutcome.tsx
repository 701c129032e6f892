// What a test found and did: the verdict in a sentence, the text sent with the findings marked, each
// finding listed with its rule, and the text as it leaves the guardrail.
import type { GuardrailTestResult } from './guardrail-api';
import { HighlightedText } from './HighlightedText';
import { findingName } from './pii-entities';

function verdictOf(result: GuardrailTestResult): { title: string; message: string; tone: 'success' | 'danger' | 'warning' } {
  const found = result.findings.length;
  const what = `${found} ${found === 1 ? 'finding' : 'findings'}`;
  if (result.blocked) return { title: 'Blocked', message: `The text would be refused (${what}).`, tone: 'danger' };
  switch (result.action) {
    case 'none':
      return { title: 'Passed', message: `Nothing found at the ${result.stage} stage: the text goes on as it is.`, tone: 'success' };
    case 'redact':
      return { title: 'Redacted', message: `What was found is replaced by its kind (${what}).`, tone: 'warning' };
    case 'mask':
      return { title: 'Masked', message: `What was found is masked with * (${what}).`, tone: 'warning' };
    case 'warn':
      return { title: 'Warned', message: `The text goes on as it is; the finding is reported (${what}).`, tone: 'warning' };
    case 'block':
      return { title: 'Blocked', message: `The text would be refused (${what}).`, tone: 'danger' };
  }
}

export function TestOutcome({ result, tested }: { result: GuardrailTestResult; tested: string }) {
  const verdict = verdictOf(result);
  return (
    <div className="test-outcome">
      {/* The verdict is read out; the marked text and the lists are there to be read. */}
      <p className="test-verdict" role="status">
        <span className={`badge badge-${verdict.tone}`}>{verdict.title}</span> {verdict.message} <span className="muted guardrail-small">{result.latency_ms} ms</span>
      </p>
      {result.findings.length > 0 && (
        <>
          <h3>What it found</h3>
          <HighlightedText text={tested} findings={result.findings} />
          <ul className="finding-list">
            {result.findings.map((finding, index) => (
              <li key={index}>
                <strong>{findingName(finding.entity_type)}</strong> <code>{finding.entity_type}</code>
                {finding.end > finding.start && <> “{tested.slice(finding.start, finding.end)}”</>} <span className="muted guardrail-small">(rule: {finding.rule})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>The text after it</h3>
      <p className="guardrail-output">{result.text === '' ? <span className="muted">(empty)</span> : result.text}</p>
    </div>
  );
}
