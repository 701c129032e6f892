// The retrieval tool: the model decides when to search, and searches the tool's corpora with the
// permissions of the person asking. A corpus that person may not read (or that is gone, or of
// another organization) is left out without a word, as if the tool did not have it: nothing of it
// reaches the model. Local: no request leaves the server.
import { AppError } from '../../errors.js';
import type { Actor } from '../../modules/auth/actor.js';
import { numberedPassagesText } from '../numbered-text.js';
import type { RunnableTool, StoredTool, ToolOutcome, ToolRunContext } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';
import { RETRIEVAL_DEFAULT_PASSAGES, type RetrievalConfig } from './config.js';

const QUERY_CHARACTERS = 1_000;

const PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1, maxLength: QUERY_CHARACTERS, description: 'What to look for in the documents' } },
  required: ['query'],
  additionalProperties: false,
};

type RetrievalDeps = Pick<ToolDeps, 'search' | 'corpora' | 'maxOutputCharacters'>;

/** The corpora of the list the actor may read; a refusal (404, 403) leaves the corpus out, any other failure is thrown. */
async function readableCorpora(deps: RetrievalDeps, actor: Actor, corpusIds: readonly number[]): Promise<number[]> {
  const checked = await Promise.all(
    corpusIds.map((corpusId) =>
      deps.corpora.requireCorpus(actor, corpusId, 'read').then(
        () => corpusId,
        (error: unknown) => {
          if (error instanceof AppError && (error.status === 404 || error.status === 403)) return undefined;
          throw error;
        },
      ),
    ),
  );
  return checked.filter((corpusId): corpusId is number => corpusId !== undefined);
}

const pageOf = (page: number | null) => (page === null ? '' : `, page ${page}`);

export function createRetrievalTool(tool: StoredTool, deps: RetrievalDeps): RunnableTool {
  const config = tool.config as RetrievalConfig;
  const limit = config.passages ?? RETRIEVAL_DEFAULT_PASSAGES;

  async function run(input: Record<string, unknown>, { actor, numberPassages }: ToolRunContext): Promise<ToolOutcome> {
    const query = typeof input?.query === 'string' ? input.query.trim() : '';
    if (query === '') return { status: 'error', output: 'The search needs a query: a non-empty string' };
    if (query.length > QUERY_CHARACTERS) return { status: 'error', output: `The query is longer than ${QUERY_CHARACTERS} characters` };
    const corpusIds = await readableCorpora(deps, actor, config.corpus_ids ?? []);
    const found = corpusIds.length === 0 ? [] : (await deps.search.searchCorpora(corpusIds, query, limit)).items;
    if (found.length === 0) return { status: 'ok', output: `No passages found for "${query}".` };
    // Numbered after the passages the answer already has: cited with the same marks, they become its citations.
    const first = numberPassages?.(found.length) ?? 1;
    const head = `Passages for "${query}", best first (${found.length}). Cite a passage by its number in square brackets, like [${first}].`;
    const passages = found.map((passage) => ({ label: `${passage.source}${pageOf(passage.page)} (score ${passage.score.toFixed(2)})`, text: passage.text }));
    const numbered = found.map((passage, index) => ({
      number: first + index,
      document_id: passage.document_id,
      corpus_id: passage.corpus_id,
      source: passage.source,
      text: passage.text,
      page: passage.page,
      score: passage.score,
    }));
    return { status: 'ok', output: numberedPassagesText(head, passages, deps.maxOutputCharacters, first), passages: numbered };
  }

  return {
    id: tool.id,
    kind: 'retrieval',
    definition: { name: tool.name, description: tool.description, parameters: PARAMETERS },
    async run(input, context) {
      try {
        return await run(input, context);
      } catch (error) {
        // The database's own words stay in the server: the model is told what kind of failure it was.
        const why = error instanceof AppError ? error.message : 'a fault of the server';
        return { status: 'error', output: `The search failed: ${why}` };
      }
    },
  };
}
