// A guardrail definition made ready to run: its detectors built once (the terms' automaton, the
// patterns compiled, the topics stemmed), to be applied to any number of texts and streams.
import { DEFAULT_SEARCH_LANGUAGE } from '../search/languages.js';
import type { Embedder } from '../providers/embeddings/embedder.js';
import type { GuardrailDefinition } from './definition.js';
import { DEFAULT_TOPIC_THRESHOLD } from './definition.js';
import { combineDetectors, NOTHING_DETECTED, windowedDetector, type Detection, type TextDetector } from './detector.js';
import type { GuardrailAction, GuardrailStage, GuardrailType } from './guardrail.js';
import { lengthDetector } from './length-limit.js';
import { compilePattern, patternDetector } from './pattern-scan.js';
import { detectPiiInReading, PII_HOLD_BACK } from './pii/detect.js';
import { buildTermAutomaton } from './term-automaton.js';
import { termDetector, termsWithJoinedWords } from './term-scan.js';
import { foldForTerms, foldString } from './text-folding.js';
import { topicEmbeddings } from './topic-embeddings.js';
import { topicDetector, topicKeywords } from './topic.js';

export const BLOCKED_TERM = 'BLOCKED_TERM';
export const BLOCKED_PATTERN = 'BLOCKED_PATTERN';

/**
 * A stream is read for PII again once this many more characters can be decided: PII detection reads
 * names and addresses in context, which costs too much to redo for every few characters a model sends.
 */
export const PII_STEP = 128;

export interface CompiledGuardrail {
  id: number;
  name: string;
  type: GuardrailType;
  stages: readonly GuardrailStage[];
  action: GuardrailAction;
  detector: TextDetector;
  /** A second look at a whole text that may be asynchronous (topics by embeddings); not run on streams. */
  refine?: ((text: string, detections: Detection[]) => Promise<Detection[]>) | undefined;
}

export interface CompileOptions {
  /** The configured embedder, for topics; none: keywords only. */
  embedder?: Embedder | undefined;
}

function detectorOf(definition: GuardrailDefinition): TextDetector {
  switch (definition.type) {
    case 'pii': {
      const entities = definition.config.entities;
      return windowedDetector((reading) => detectPiiInReading(reading, entities), PII_HOLD_BACK, PII_STEP);
    }
    case 'blocked_terms': {
      const detectors: TextDetector[] = [];
      const automaton = buildTermAutomaton(termsWithJoinedWords(definition.config.terms.map((term) => foldString(term, foldForTerms))));
      if (automaton.longest > 0) detectors.push(termDetector(automaton, { entity_type: BLOCKED_TERM, rule: 'term' }));
      const patterns = (definition.config.patterns ?? []).map((source) => compilePattern(source));
      if (patterns.length > 0) detectors.push(patternDetector(patterns, { entity_type: BLOCKED_PATTERN, rule: 'pattern' }));
      return detectors.length === 0 ? NOTHING_DETECTED : combineDetectors(detectors);
    }
    case 'length':
      return lengthDetector(definition.config);
    case 'topic': {
      const { denied = [], allowed = [], language = DEFAULT_SEARCH_LANGUAGE } = definition.config;
      return topicDetector(topicKeywords(denied, allowed, language));
    }
  }
}

export function compileGuardrail(definition: GuardrailDefinition, options: CompileOptions = {}): CompiledGuardrail {
  const compiled: CompiledGuardrail = {
    id: definition.id,
    name: definition.name,
    type: definition.type,
    stages: definition.stages,
    action: definition.action,
    detector: detectorOf(definition),
  };
  if (definition.type === 'topic' && options.embedder !== undefined) {
    const { denied = [], allowed = [], threshold = DEFAULT_TOPIC_THRESHOLD } = definition.config;
    compiled.refine = topicEmbeddings(options.embedder, denied, allowed, threshold).refine;
  }
  return compiled;
}
