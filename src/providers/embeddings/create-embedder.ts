// The embedder of the configuration: the OpenAI-compatible one when EMBEDDING_BASE_URL is set, else
// none (retrieval is full text alone).
import type { EmbeddingSettings } from '../../config.js';
import type { EgressClient } from '../../net/egress.js';
import type { Embedder } from './embedder.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible.js';

/** The configured embedder, or undefined: no embedding model, full-text retrieval alone. */
export function createEmbedder(settings: EmbeddingSettings | undefined, egress: EgressClient): Embedder | undefined {
  return settings === undefined ? undefined : new OpenAiCompatibleEmbedder(settings, egress);
}
