// Text shown as the machine has it (a request sent, an answer, settings as JSON): named, and reachable
// by keyboard, since a long one scrolls.
export function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <pre className="code-block" role="region" aria-label={label} tabIndex={0}>
      {children}
    </pre>
  );
}
