// Each file being uploaded: its progress, then what the server made of it (or its message).
import { Label, ProgressBar } from 'react-aria-components';
import { Button } from '../../../ui/Fields';
import type { UploadItem, UploadState } from './upload-queue';

function fractionOf(state: UploadState): number {
  if (state.kind === 'uploading') return state.fraction;
  return state.kind === 'done' ? 1 : 0;
}

function statusOf(state: UploadState): string {
  switch (state.kind) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return state.fraction < 1 ? `Uploading ${Math.round(state.fraction * 100)}%` : 'Saving…';
    case 'duplicate':
      return 'Already in the corpus: waiting for your choice';
    case 'done':
      return state.summary;
    case 'failed':
      return state.message;
  }
}

interface UploadListProps {
  items: readonly UploadItem[];
  onRetry: (key: string) => void;
  onClear: () => void;
}

export function UploadList({ items, onRetry, onClear }: UploadListProps) {
  if (items.length === 0) return null;
  const finished = items.filter((item) => item.state.kind === 'done' || item.state.kind === 'failed').length;
  // A file skipped as a duplicate is done, but not uploaded.
  const uploaded = items.filter((item) => item.state.kind === 'done' && item.state.stored).length;
  return (
    <div className="upload-list">
      <div className="upload-list-head">
        <p role="status" className="muted text-small">
          {uploaded} of {items.length} {items.length === 1 ? 'file' : 'files'} uploaded
        </p>
        {finished > 0 && (
          <Button variant="quiet" onPress={onClear}>
            Clear finished
          </Button>
        )}
      </div>
      <ul className="list">
        {items.map((item) => (
          <li key={item.key} className={`upload-item upload-${item.state.kind}`}>
            {item.state.kind === 'failed' ? (
              <div className="upload-failed">
                <span className="upload-name">{item.name}</span>
                <span className="upload-status">{statusOf(item.state)}</span>
                <Button variant="quiet" onPress={() => onRetry(item.key)} aria-label={`Try again to upload ${item.name}`}>
                  Try again
                </Button>
              </div>
            ) : (
              <ProgressBar value={fractionOf(item.state) * 100} valueLabel={statusOf(item.state)} className="upload-progress">
                {({ percentage, valueText }) => (
                  <>
                    <div className="upload-progress-text">
                      <Label className="upload-name">{item.name}</Label>
                      <span className="upload-status">{valueText}</span>
                    </div>
                    <div className="progress-track">
                      <div className="progress-fill" style={{ width: `${percentage ?? 0}%` }} />
                    </div>
                  </>
                )}
              </ProgressBar>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
