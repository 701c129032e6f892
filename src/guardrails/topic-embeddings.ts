// Topics by meaning, where an embedder is configured: a whole text is compared with each topic by the
// cosine similarity of their embeddings. A text at least `threshold` close to a denied topic is about
// it (a finding over the whole text, unless its keywords were found already); a text that close to an
// allowed topic is on topic although it names none of its keywords. Topic vectors are asked for once a
// guardrail; a provider that fails leaves the keywords to judge alone.
import type { Embedder } from '../providers/embeddings/embedder.js';
import type { Detection } from './detector.js';
import { DENIED_TOPIC, OFF_TOPIC } from './topic.js';

export interface TopicEmbeddings {
  refine(text: string, detections: Detection[]): Promise<Detection[]>;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

export function topicEmbeddings(embedder: Embedder, denied: readonly string[], allowed: readonly string[], threshold: number): TopicEmbeddings {
  let topicVectors: Promise<number[][]> | undefined;
  const vectorsOfTopics = () => {
    topicVectors ??= embedder.embed([...denied, ...allowed], { maxRetries: 0 }).catch((error: unknown) => {
      topicVectors = undefined;
      throw error;
    });
    return topicVectors;
  };
  return {
    async refine(text, detections) {
      if (text.trim() === '' || denied.length + allowed.length === 0) return detections;
      let vectors: number[][];
      let textVector: number[];
      try {
        [vectors, [textVector]] = (await Promise.all([vectorsOfTopics(), embedder.embed([text], { maxRetries: 0 })])) as [number[][], [number[]]];
      } catch {
        return detections;
      }
      const closest = (from: number, to: number) => Math.max(-1, ...vectors.slice(from, to).map((vector) => cosine(vector, textVector)));
      let refined = detections;
      if (allowed.length > 0 && closest(denied.length, vectors.length) >= threshold) {
        refined = refined.filter((detection) => detection.finding.entity_type !== OFF_TOPIC);
      }
      const keywordFound = refined.some((detection) => detection.finding.entity_type === DENIED_TOPIC);
      if (denied.length > 0 && !keywordFound && closest(0, denied.length) >= threshold) {
        refined = [...refined, { finding: { entity_type: DENIED_TOPIC, start: 0, end: text.length, rule: 'embedding' }, scope: 'whole' }];
      }
      return refined;
    },
  };
}
