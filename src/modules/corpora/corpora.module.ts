import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { SearchService } from '../retrieval/search.service.js';
import { VectorIndex } from '../retrieval/vector-index.js';
import { corporaRoutes } from './corpora.routes.js';
import { CorporaService } from './corpora.service.js';
import { CorpusTags } from './corpus-tags.js';

export const corporaModule: AppModule = { name: 'corpora', routes: [corporaRoutes] };

/** Corpora with their vector index and the search over them (src/modules/retrieval, which has no routes). */
export function buildCorporaServices({ store, blobs, embedder, log }: SharedServices) {
  const vectors = new VectorIndex(store, embedder, log);
  const retrievalMode = () => vectors.mode;
  const corpora = new CorporaService(store, blobs, retrievalMode);
  return { vectors, corpora, corpusTags: new CorpusTags(store, corpora, retrievalMode), search: new SearchService(store, corpora, vectors, log) };
}
