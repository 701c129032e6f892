// Semantic similarity: the cosine of the angle between the embeddings of two texts, from -1 to 1
// (1: the same direction). Embedding models put texts that mean the same close together.

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number | undefined {
  if (a.length === 0 || a.length !== b.length) return undefined;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  if (normA === 0 || normB === 0) return undefined;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(normA * normB)));
}
