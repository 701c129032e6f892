// The document pipeline: queued → extracting → chunking → (embedding) → indexed, run by a worker as
// one leased job per document. The document row is the truth: a job taken again after a crash
// resumes from the row's step, and every step can be repeated without harm (chunks are replaced,
// never added to, in the transaction that records the step; vectors are stored only for chunks
// that have none). `embedding` is passed through only where vectors are in use.
import { performance } from 'node:perf_hooks';
import type { DocumentRow, DocumentStep } from '../../../db/schema.js';
import { ExtractionFailed } from '../../../ingest/document.js';
import { chunkSearchColumns, type ChunkAnalysis, type Ingestion, type PreparedDocument } from '../../../ingest/ingestion.js';
import type { CompleteJob, JobHandler } from '../../../jobs/job-handler.js';
import type { Job } from '../../../jobs/job-types.js';
import { PermanentJobError } from '../../../jobs/worker.js';
import { EmbeddingError } from '../../../providers/embeddings/embedder.js';
import type { UnitOfWork } from '../../../repositories.js';
import type { DocumentToProcess } from '../documents.repo.js';
import { storedSearchLanguage, type SearchLanguage } from '../../../search/languages.js';
import type { BlobStore } from '../../../storage/blob-store.js';
import { logSteps, moveThroughSteps, recordStep, type StepChange } from './document-steps.js';
import { GroupCommit } from './group-commit.js';
import { StepProgress } from './step-progress.js';

/** Vectors of chunks, as the pipeline uses them (src/modules/retrieval/vector-index.ts implements them). */
export interface ChunkVectors {
  /** An embedder is configured and the database holds vectors: documents pass through `embedding`. */
  readonly active: boolean;
  /** Stores a vector for each chunk of the document that has none; throws EmbeddingError. */
  embedDocument(document: DocumentRow): Promise<void>;
}

const NO_VECTORS: ChunkVectors = { active: false, embedDocument: async () => undefined };

/** Called when a document has failed for good (to tell the people concerned). */
export type DocumentFailureListener = (document: DocumentRow, reason: string) => Promise<void>;

const elapsed = (since: number) => Math.round((performance.now() - since) * 100) / 100;

/** The document was deleted while it was being processed: its job ends quietly. */
class DocumentGone extends Error {}

export class DocumentProcessor implements JobHandler<'document.process'> {
  /** Chunks of documents prepared at about the same time are stored in one transaction. */
  private readonly chunkStore: GroupCommit;

  constructor(
    private readonly store: UnitOfWork,
    private readonly blobs: BlobStore,
    private readonly ingestion: Ingestion,
    private readonly vectors: ChunkVectors = NO_VECTORS,
    private readonly onFailure: DocumentFailureListener = async () => undefined,
  ) {
    this.chunkStore = new GroupCommit(store);
  }

  async run(job: Job<'document.process'>, complete: CompleteJob): Promise<void> {
    const document = await this.store.repos.documents.findForProcessing(job.payload.organizationId, job.payload.documentId);
    if (!document || document.deleted_on !== null || document.failed_on !== null || document.step === 'indexed') return;
    try {
      await this.process(document, complete);
    } catch (error) {
      if (error instanceof DocumentGone) return;
      // A file that cannot be read (damaged, too large, no text) will not mend by trying again,
      // nor will a provider's refusal (a wrong key, an unknown model).
      if (error instanceof ExtractionFailed) throw new PermanentJobError(error.message);
      if (error instanceof EmbeddingError && error.permanent) throw new PermanentJobError(error.message);
      throw error;
    }
  }

  /** The job is marked done (`complete`) in the transaction that indexes the document. */
  private async process(document: DocumentToProcess, complete: CompleteJob): Promise<void> {
    const timings = JSON.parse(document.step_timings) as Record<string, number>;
    // Chunks are stored in the transaction that enters `embedding`: a retry there needs only the vectors.
    if (document.step !== 'embedding' || !this.vectors.active) await this.extractAndChunk(document, timings, complete);
    if (this.vectors.active) await this.embed(document, timings, complete);
  }

  private async extractAndChunk(document: DocumentToProcess, timings: Record<string, number>, complete: CompleteJob): Promise<void> {
    const bytes = document.file_key === null ? undefined : await this.blobs.get(document.file_key);
    if (!bytes) throw new PermanentJobError('The stored file of this document is missing');

    // Extraction and chunking run together in an extraction thread; their steps are written with
    // the step that follows them, or on their own when they take long or fail (step-progress.ts).
    const progress = new StepProgress(this.store);
    progress.enter(this.change(document, 'extracting', new Date().toISOString()));
    // The chunks' search columns are made in the thread too, in the corpus's language as the job read
    // it: not on the event loop, which every document's transaction needs (docs/performance.md).
    const analysis: ChunkAnalysis = { source: document.source, language: storedSearchLanguage(document.corpus_language), columns: this.store.repos.passages.searchColumnsKind };
    let prepared: PreparedDocument;
    try {
      prepared = await this.ingestion.prepare(document.type, bytes, analysis);
    } catch (error) {
      await progress.flush().catch(() => undefined);
      if (progress.gone) throw new DocumentGone();
      throw error;
    }
    const { document: extracted, text, chunks } = prepared;
    timings.extracting = prepared.timings.extracting;
    timings.chunking = prepared.timings.chunking;
    const chunkingBegan = new Date(Date.now() - prepared.timings.chunking).toISOString();
    progress.enter(this.change(document, 'chunking', chunkingBegan), { text });
    await progress.settled();

    const next = this.vectors.active ? 'embedding' : 'indexed';
    const columnsIn = (language: SearchLanguage) => chunkSearchColumns(extracted.title, chunks, { ...analysis, language });
    const analysed = prepared.searchColumns ?? columnsIn(analysis.language);
    await this.chunkStore.run(async (repos) => {
      const at = new Date().toISOString();
      const steps = progress.through(this.change(document, next, at));
      // The row's update reads the language again: a language change reanalyses what is stored, and
      // waits for what this transaction stores (the read keeps the corpus's row from changing until it
      // commits), so terms made in another language are made again. Read before any chunk is touched,
      // in the order the change takes its locks (the corpus, then its chunks), so that neither waits
      // for the other in a cycle.
      const stored = await moveThroughSteps(repos, steps, {
        ...progress.fields,
        title: extracted.title ?? null,
        chunk_count: chunks.length,
        step_timings: JSON.stringify(timings),
        ...(next === 'indexed' ? { indexed_on: at } : {}),
      });
      if (stored === undefined) throw new DocumentGone();
      const language = storedSearchLanguage(stored);
      const columns = language === analysis.language ? analysed : columnsIn(language);
      // Chunks are only ever stored with their count, by this transaction: a document read with none
      // has none to delete (one stored meanwhile by another worker makes the insert fail, and the job
      // is tried again).
      if (document.chunk_count > 0) await repos.documents.deleteChunks(document);
      await repos.documents.insertChunks(
        chunks.map((chunk, index) => ({
          organization_id: document.organization_id,
          corpus_id: document.corpus_id,
          document_id: document.id,
          position: chunk.position,
          text: chunk.text,
          token_count: chunk.tokenCount,
          page: chunk.page ?? null,
          heading: chunk.heading ?? null,
          ...columns[index]!,
        })),
      );
      await logSteps(repos, steps);
      if (next === 'indexed') await complete(repos);
    }, document.corpus_id);
    progress.written();
  }

  /** Embeds the chunks that have no vector yet, then the document is indexed. */
  private async embed(document: DocumentRow, timings: Record<string, number>, complete: CompleteJob): Promise<void> {
    const started = performance.now();
    await this.vectors.embedDocument(document);
    timings.embedding = elapsed(started);
    await this.store.transaction(async (repos) => {
      const at = new Date().toISOString();
      if (!(await recordStep(repos, this.change(document, 'indexed', at), { step_timings: JSON.stringify(timings), indexed_on: at }))) throw new DocumentGone();
      await complete(repos);
    });
  }

  private change(document: DocumentRow, step: DocumentStep, at: string): StepChange {
    return { organizationId: document.organization_id, corpusId: document.corpus_id, documentId: document.id, step, failed: false, error: null, at };
  }

  /** The job failed for good: the document keeps the step that failed, with the reason. */
  async onFailed(job: Job<'document.process'>, reason: string): Promise<void> {
    const document = await this.store.repos.documents.findForProcessing(job.payload.organizationId, job.payload.documentId);
    if (!document || document.deleted_on !== null) return;
    const failure = { ...this.change(document, document.step, new Date().toISOString()), failed: true, error: reason };
    await this.store.transaction((repos) => recordStep(repos, failure));
    await this.onFailure(document, reason);
  }
}
