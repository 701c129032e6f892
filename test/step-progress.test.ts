import { describe, expect, it, vi } from 'vitest';
import type { DocumentStep } from '../src/db/schema.js';
import type { StepChange } from '../src/modules/documents/pipeline/document-steps.js';
import { StepProgress } from '../src/modules/documents/pipeline/step-progress.js';
import type { Repositories, UnitOfWork } from '../src/repositories.js';

/** A unit of work that records what each transaction wrote: the row's step and fields, the events. */
function recordingStore(present = true) {
  const transactions: { step: unknown; fields: Record<string, unknown>; events: string[] }[] = [];
  const store = {
    transaction: async <T>(work: (repos: Repositories) => Promise<T>) => {
      const written = { step: undefined as unknown, fields: {} as Record<string, unknown>, events: [] as string[] };
      const repos = {
        documents: {
          updateIfPresent: async (_organization: number, _document: number, fields: Record<string, unknown>) => {
            written.step = fields.step;
            written.fields = fields;
            return present;
          },
          appendEvents: async (events: { step: string }[]) => void written.events.push(...events.map((event) => event.step)),
        },
      } as unknown as Repositories;
      const result = await work(repos);
      transactions.push(written);
      return result;
    },
  } as unknown as UnitOfWork;
  return { store, transactions };
}

const change = (step: DocumentStep): StepChange => ({ organizationId: 1, corpusId: 2, documentId: 3, step, failed: false, error: null, at: new Date().toISOString() });

describe('step progress', () => {
  it('writes nothing of steps that end before the delay: the caller writes them with the next one', async () => {
    const { store, transactions } = recordingStore();
    const progress = new StepProgress(store, 60_000);
    progress.enter(change('extracting'));
    progress.enter(change('chunking'), { text: 'the text' });
    await progress.settled();
    expect(transactions).toEqual([]);
    expect(progress.through(change('indexed')).map((c) => c.step)).toEqual(['extracting', 'chunking', 'indexed']);
    expect(progress.fields).toEqual({ text: 'the text' });
    progress.written();
    expect(progress.through(change('indexed')).map((c) => c.step)).toEqual(['indexed']);
  });

  it('writes a step that lasts past the delay on its own, and leaves the rest to the caller', async () => {
    const { store, transactions } = recordingStore();
    const progress = new StepProgress(store, 0);
    progress.enter(change('extracting'));
    await vi.waitFor(() => expect(transactions).toHaveLength(1));
    expect(transactions[0]).toMatchObject({ step: 'extracting', events: ['extracting'] });
    progress.enter(change('chunking'));
    await progress.settled();
    expect(progress.through(change('indexed')).map((c) => c.step)).toEqual(['chunking', 'indexed']);
  });

  it('writes the pending steps at once before a failure, and tells when the document was deleted', async () => {
    const { store, transactions } = recordingStore(false);
    const progress = new StepProgress(store, 60_000);
    progress.enter(change('extracting'));
    await progress.flush();
    expect(transactions).toEqual([{ step: 'extracting', fields: expect.objectContaining({ step: 'extracting' }), events: [] }]);
    expect(progress.gone).toBe(true);
  });
});
