// An import's progress and report (/tools/imports/:importId): read every second while the job runs
// (its progress bar and counts), then each operation imported (a link to its tool) or skipped with why
// and where in the document.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Label, ProgressBar } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { Pager } from '../../ui/Pager';
import { NotFoundPage } from '../NotFoundPage';
import { importQuery, isRunning, REPORT_PAGE_SIZE, reportQuery, type ImportedOperation, type ToolImport } from './tools-api';

const STATUS_WORDS: Record<ToolImport['status'], string> = { queued: 'Waiting to start', running: 'Importing', completed: 'Finished', failed: 'Failed' };

export default function ImportReportPage() {
  const importId = Number(useParams().importId);
  const user = useUser();
  const valid = Number.isInteger(importId) && importId > 0;
  const toolImport = useQuery({ ...importQuery(user.organization_id, importId), enabled: valid });
  if (!valid) return <NotFoundPage />;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/tools">Tools</Link>
      </p>
      <PageHeader title={`Import #${importId}`} description={toolImport.data?.url ?? 'A document given as a file.'} />
      <ErrorNote error={toolImport.error} title="The import could not be loaded." />
      {toolImport.isPending && !toolImport.isError && <Loading label="Loading the import…" />}
      {toolImport.data !== undefined && <ImportReport organizationId={user.organization_id} toolImport={toolImport.data} />}
    </>
  );
}

function ImportReport({ organizationId, toolImport }: { organizationId: number; toolImport: ToolImport }) {
  const running = isRunning(toolImport);
  const [page, setPage] = useState(1);
  const report = useQuery(reportQuery(organizationId, toolImport, page));
  const total = toolImport.operations_total;
  return (
    <>
      <ProgressBar className="import-progress" value={Math.round(toolImport.progress * 100)} aria-describedby="import-counts">
        {({ valueText }) => (
          <>
            <div className="import-progress-head">
              <Label>{STATUS_WORDS[toolImport.status]}</Label>
              <span>{valueText}</span>
            </div>
            <div className="progress-track">
              <div className="progress-fill" style={{ width: `${Math.round(toolImport.progress * 100)}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      <p id="import-counts" role="status" className="import-counts">
        {total === null ? 'Reading the document…' : `${toolImport.operations_done} of ${total} operations done: `}
        <strong>{toolImport.imported} imported</strong>, <strong>{toolImport.skipped} skipped</strong>.
      </p>
      {toolImport.error !== null && <p className="note note-error">{toolImport.error}</p>}
      <h2>Report</h2>
      <ErrorNote error={report.error} title="The report could not be loaded." />
      {report.data !== undefined &&
        (report.data.items.length === 0 ? (
          <p className="muted">{running ? 'No operation done yet.' : 'No operation was met.'}</p>
        ) : (
          <>
            <OperationsTable operations={report.data.items} />
            <Pager page={page} pageSize={REPORT_PAGE_SIZE} total={report.data.total} nouns={['operation', 'operations']} onPage={setPage} />
          </>
        ))}
    </>
  );
}

function OperationsTable({ operations }: { operations: ImportedOperation[] }) {
  return (
    <div className="table-wrap">
      <table className="plain report-table">
        <thead>
          <tr>
            <th scope="col">Operation</th>
            <th scope="col">Outcome</th>
            <th scope="col">Tool or reason</th>
          </tr>
        </thead>
        <tbody>
          {operations.map((operation) => (
            <tr key={operation.position}>
              <th scope="row" data-label="Operation">
                {operation.operation}
                <span className="muted text-small text-block break-anywhere">
                  {operation.method.toUpperCase()} {operation.path}
                </span>
              </th>
              <td data-label="Outcome">
                <span className={operation.status === 'imported' ? 'badge badge-success' : 'badge badge-warning'}>{operation.status === 'imported' ? 'Imported' : 'Skipped'}</span>
              </td>
              <td data-label="Tool or reason" className="break-anywhere">
                {operation.status === 'imported' && operation.tool_id !== null ? (
                  <Link to={`/tools/${operation.tool_id}`}>{operation.tool_name}</Link>
                ) : (
                  <>
                    {operation.reason}
                    <span className="muted text-small text-block">
                      At <code>{operation.pointer}</code>
                    </span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
