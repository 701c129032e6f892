// The files a person is uploading to a corpus, one request each (so that each has its own progress,
// and one file the server refuses does not take the others down with it: the API takes a request
// all or nothing), a few at a time. A file the corpus already holds waits for the person's choice
// (skip, replace, keep both) and is then sent again with it.
import { messageOf, ApiError } from '../../../api/errors';
import { uploadFile, type OnDuplicate, type UploadResult } from './upload-file';

const AT_ONCE = 3;

export type UploadState =
  | { kind: 'waiting' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'duplicate' }
  /** `stored`: false when the corpus kept what it had (skipped as a duplicate). */
  | { kind: 'done'; summary: string; stored: boolean }
  | { kind: 'failed'; message: string };

export interface UploadItem {
  key: string;
  file: File;
  /** What the person recognises: the path inside a chosen or dropped folder, else the file name. */
  name: string;
  onDuplicate: OnDuplicate;
  state: UploadState;
}

export interface PickedFile {
  file: File;
  name: string;
}

const ACTION: Record<string, string> = {
  skipped: 'Skipped: already in the corpus',
  replaced: 'Uploaded; the earlier copy was deleted',
  kept_both: 'Uploaded as another copy',
};

function outcomeOf(result: UploadResult): { summary: string; stored: boolean } {
  const action = result.duplicates[0]?.action;
  return { summary: (action === undefined ? undefined : ACTION[action]) ?? 'Uploaded', stored: action !== 'skipped' };
}

let sequence = 0;

export class UploadQueue {
  private items: UploadItem[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly running = new Set<string>();
  private paused = false;

  constructor(
    private readonly corpusId: number,
    /** Called after each file the server accepted (to show the new documents). */
    private readonly onUploaded: (result: UploadResult) => void,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): readonly UploadItem[] => this.items;

  add(files: PickedFile[]): void {
    const added = files.map(({ file, name }) => ({ key: `upload-${++sequence}`, file, name, onDuplicate: 'reject' as const, state: { kind: 'waiting' as const } }));
    this.set([...this.items, ...added]);
    this.pump();
  }

  /** Whether files are still being sent or wait to be (a duplicate question waits for them). */
  busy(): boolean {
    return this.items.some((item) => item.state.kind === 'waiting' || item.state.kind === 'uploading');
  }

  /** Sends every file waiting on a duplicate again, with the person's choice. */
  resolveDuplicates(choice: Exclude<OnDuplicate, 'reject'>): void {
    this.set(this.items.map((item) => (item.state.kind === 'duplicate' ? { ...item, onDuplicate: choice, state: { kind: 'waiting' } } : item)));
    this.pump();
  }

  /** The person chose not to upload the duplicates after all. */
  dropDuplicates(): void {
    this.set(this.items.map((item) => (item.state.kind === 'duplicate' ? { ...item, state: { kind: 'failed', message: 'Not uploaded: the corpus already holds this content' } } : item)));
  }

  /** Sends a file that failed again, as it was first sent. */
  retry(key: string): void {
    this.set(this.items.map((item) => (item.key === key && item.state.kind === 'failed' ? { ...item, onDuplicate: 'reject', state: { kind: 'waiting' } } : item)));
    this.pump();
  }

  clearFinished(): void {
    this.set(this.items.filter((item) => item.state.kind !== 'done' && item.state.kind !== 'failed'));
  }

  /** While the page is away no new file is started; those being sent finish (the server keeps them). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  private set(items: UploadItem[]): void {
    this.items = items;
    for (const listener of this.listeners) listener();
  }

  private update(key: string, state: UploadState): void {
    this.set(this.items.map((item) => (item.key === key ? { ...item, state } : item)));
  }

  private pump(): void {
    if (this.paused) return;
    for (const item of this.items) {
      if (this.running.size >= AT_ONCE) return;
      if (item.state.kind === 'waiting' && !this.running.has(item.key)) this.start(item);
    }
  }

  private start(item: UploadItem): void {
    this.update(item.key, { kind: 'uploading', fraction: 0 });
    this.running.add(item.key);
    uploadFile(this.corpusId, item.file, item.onDuplicate, (fraction) => this.update(item.key, { kind: 'uploading', fraction }))
      .then((result) => {
        this.update(item.key, { kind: 'done', ...outcomeOf(result) });
        this.onUploaded(result);
      })
      .catch((error: unknown) => {
        // 409 is the API's answer for content the corpus already holds (docs/api.md, Duplicates).
        if (error instanceof ApiError && error.status === 409) this.update(item.key, { kind: 'duplicate' });
        else this.update(item.key, { kind: 'failed', message: messageOf(error) });
      })
      .finally(() => {
        this.running.delete(item.key);
        this.pump();
      });
  }
}
