// Embedders turn texts into vectors for retrieval. One implementation speaks the OpenAI embeddings
// API (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp, LM Studio…); the offline default is none at all:
// without EMBEDDING_BASE_URL there is no embedder and retrieval is full text alone
// (src/providers/embeddings/create-embedder.ts).

/** What the provider says a request used, where it says so. */
export interface EmbeddingUsage {
  promptTokens: number;
}

export interface EmbedOptions {
  /** Retries of a failed request; the embedder's own setting when left out. */
  maxRetries?: number;
  /** Told the usage of each request whose answer reports it (the calls are recorded as usage events). */
  onUsage?: (usage: EmbeddingUsage) => void;
}

export interface Embedder {
  /** The kind of provider, for logs: 'openai-compatible'. */
  readonly name: string;
  readonly model: string;
  /** Size of every vector: configured, or learned from the first answer; undefined until then. */
  readonly dimensions: number | undefined;
  /** One vector per text, in the order of the texts. Throws EmbeddingError. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/**
 * The provider could not give the vectors. `permanent`: asking again cannot mend it (a refused key,
 * an unknown model, a destination the server may not reach); otherwise it may succeed later.
 * Messages never carry the API key.
 */
export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}
