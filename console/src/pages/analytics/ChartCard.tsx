// One chart as a card: its heading and headline figure, the drawing (an image to assistive technology,
// named by a sentence that says what it shows), the table of its figures behind a disclosure, and
// "Download CSV" of the same figures. While its route answers it says so; a refusal is said plainly.
import { useId, type ReactNode } from 'react';
import { Button as AriaButton, Disclosure, DisclosurePanel } from 'react-aria-components';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';

export interface FigureTable {
  columns: string[];
  rows: (string | number)[][];
  /** The totals row, when the figures add up. */
  footer?: (string | number)[];
}

interface ChartCardProps {
  title: string;
  /** The headline under the title ("42 queries"). */
  headline?: string;
  /** What the drawing shows, in a sentence: its accessible name. */
  description?: string;
  isPending: boolean;
  error: unknown;
  /** Nothing to draw: said instead of an empty chart. */
  isEmpty?: boolean;
  emptyText?: string;
  chart?: ReactNode;
  table?: FigureTable;
  onDownload?: () => void;
  /** Controls of the card (what a ranking ranks). */
  controls?: ReactNode;
  className?: string;
}

export function ChartCard(props: ChartCardProps) {
  const { title, headline, description, isPending, error, isEmpty = false, emptyText = 'Nothing in this period.', chart, table, onDownload, controls, className } = props;
  const headingId = useId();
  const ready = !isPending && error === null && chart !== undefined;
  return (
    <section className={['card', 'chart-card', className].filter(Boolean).join(' ')} aria-labelledby={headingId} data-ready={ready ? 'true' : undefined}>
      <div className="chart-card-head">
        <div>
          <h2 id={headingId}>{title}</h2>
          {headline !== undefined && <p className="chart-headline">{headline}</p>}
        </div>
        <div className="chart-card-actions">
          {controls}
          {ready && onDownload !== undefined && (
            <Button className="chart-download" onPress={onDownload} aria-label={`Download CSV of ${title.toLowerCase()}`}>
              Download CSV
            </Button>
          )}
        </div>
      </div>
      {isPending && <Loading label={`Loading ${title.toLowerCase()}…`} />}
      <ErrorNote error={error} />
      {ready && isEmpty && <p className="empty">{emptyText}</p>}
      {ready && !isEmpty && (
        <div className="chart-drawing" role="img" aria-label={description}>
          {chart}
        </div>
      )}
      {ready && table !== undefined && (
        <div>
          <Disclosure className="chart-table-disclosure">
            <AriaButton slot="trigger" className="button button-quiet">
              <span aria-hidden="true" className="chart-chevron">
                ›
              </span>
              Table of figures
            </AriaButton>
            <DisclosurePanel>
              <div className="table-wrap">
                <table className="plain chart-table">
                  <caption className="visually-hidden">{title}: the figures</caption>
                  <thead>
                    <tr>
                      {table.columns.map((column) => (
                        <th key={column} scope="col">
                          {column}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {table.rows.map((row, index) => (
                      <tr key={index}>
                        {row.map((cell, column) => (column === 0 ? <th key={column} scope="row">{cell}</th> : <td key={column}>{cell}</td>))}
                      </tr>
                    ))}
                  </tbody>
                  {table.footer !== undefined && (
                    <tfoot>
                      <tr>
                        {table.footer.map((cell, column) => (column === 0 ? <th key={column} scope="row">{cell}</th> : <td key={column}>{cell}</td>))}
                      </tr>
                    </tfoot>
                  )}
                </table>
              </div>
            </DisclosurePanel>
          </Disclosure>
        </div>
      )}
    </section>
  );
}
