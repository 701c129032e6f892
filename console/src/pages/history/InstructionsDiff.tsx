// The two records' instructions line by line: side by side on a wide screen (rows aligned on one
// grid), one above the other on a phone. Removed lines carry "−" and <del>, added ones "+" and
// <ins>, each with words for screen readers, so the colours only repeat what is already said.
// jsdiff is loaded when a comparison is first shown, not with the console.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { countLines, sideBySideRows, type DiffLine, type DiffRow } from './diff-rows';

function useDiffModule() {
  return useQuery({ queryKey: ['history', 'diff-module'], queryFn: () => import('diff'), staleTime: Infinity, gcTime: Infinity });
}

/** jsdiff compares whole lines, newline included: a last line without one must not count as changed. */
function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

const SIGN = { same: ' ', removed: '−', added: '+' } as const;
const SPOKEN = { same: '', removed: 'Removed line: ', added: 'Added line: ' } as const;

function LineText({ line }: { line: DiffLine }) {
  const content = (
    <>
      {SPOKEN[line.kind] !== '' && <span className="visually-hidden">{SPOKEN[line.kind]}</span>}
      {line.text === '' ? '\u00a0' : line.text}
    </>
  );
  if (line.kind === 'removed') return <del>{content}</del>;
  if (line.kind === 'added') return <ins>{content}</ins>;
  return <span>{content}</span>;
}

function Side({ rows, side, column, title }: { rows: DiffRow[]; side: 'before' | 'after'; column: 1 | 2; title: string }) {
  const headingId = useId();
  return (
    <div className={`diff-pane diff-pane-${side}`} role="group" aria-labelledby={headingId}>
      <h3 id={headingId} className="diff-heading" style={{ gridRow: 1, gridColumn: column }}>
        {title}
      </h3>
      {rows.map((row, index) => {
        const line = row[side];
        const place = { gridRow: index + 2, gridColumn: column };
        // An empty slot faces a line of the other side; it says nothing and vanishes when stacked.
        if (line === undefined) return <div key={index} className="diff-line diff-filler" aria-hidden="true" style={place} />;
        return (
          <div key={index} className={`diff-line diff-${line.kind}`} style={place}>
            <span className="diff-number" aria-hidden="true">
              {line.number}
            </span>
            <span className="diff-sign" aria-hidden="true">
              {SIGN[line.kind]}
            </span>
            <LineText line={line} />
          </div>
        );
      })}
    </div>
  );
}

interface InstructionsDiffProps {
  before: string;
  after: string;
  beforeTitle: string;
  afterTitle: string;
}

export function InstructionsDiff({ before, after, beforeTitle, afterTitle }: InstructionsDiffProps) {
  const diff = useDiffModule();
  if (diff.isError) return <ErrorNote error={diff.error} title="The comparison could not be loaded." />;
  if (diff.data === undefined) return <Loading label="Comparing…" />;
  if (before === after) return <p className="muted">The instructions are the same in both.</p>;
  const rows = sideBySideRows(diff.data.diffLines(withFinalNewline(before), withFinalNewline(after)));
  const { added, removed } = countLines(rows);
  return (
    <>
      <p className="diff-summary">
        <span className="diff-count-added">+{added}</span> {added === 1 ? 'line' : 'lines'} added,{' '}
        <span className="diff-count-removed">−{removed}</span> {removed === 1 ? 'line' : 'lines'} removed.
      </p>
      <div className="diff-grid">
        <Side rows={rows} side="before" column={1} title={beforeTitle} />
        <Side rows={rows} side="after" column={2} title={afterTitle} />
      </div>
    </>
  );
}
