// The retrieval tool as a kind: search over corpora of the tool's organization, no secret.
import type { ToolKindDescriptor } from '../tool-kind.js';
import { RetrievalConfig } from './config.js';
import { createRetrievalTool } from './index.js';

export const retrievalToolKind: ToolKindDescriptor<RetrievalConfig> = {
  kind: 'retrieval',
  settings: RetrievalConfig,
  takesSecret: false,
  defaultDescription: 'Searches the organization’s documents and gives the most relevant passages with their sources. Use it to answer from the documents.',
  async settingsProblems({ corpus_ids: ids }, { existingCorpora, at }) {
    const existing = new Set(await existingCorpora(ids));
    return ids.flatMap((id, index) => (existing.has(id) ? [] : [{ pointer: `${at}/corpus_ids/${index}`, message: `corpus ${id} is not a corpus of the organization` }]));
  },
  create: createRetrievalTool,
};
