// The built-in answerer of a server with no model (API.md §8): it quotes the passages that best
// match the question, each with the marker of its citation, and says plainly that no model is
// configured and how to add one. It streams its text in pieces as a model would, so that clients
// and the runtime treat it like any other model; it reads no network and needs no key.
import type { ChatEvent, ChatModel, ChatRequest } from './chat-model.js';

export const OFFLINE_MODEL = 'offline';

export interface QuotablePassage {
  /** The marker [n] the passage has in this ask. */
  number: number;
  source: string;
  page: number | null;
  text: string;
}

/** Passages quoted: enough to answer from, few enough to read. */
const QUOTED_PASSAGES = 3;
const QUOTE_CHARACTERS = 600;
/** Characters a streamed piece carries, about a few words. */
const PIECE_CHARACTERS = 24;

const HOW_TO_ADD_A_MODEL =
  'To have a language model answer, add an LLM configuration (POST /api/v2/organizations/{org_id}/llm-configurations ' +
  'with provider, model and api_key) and choose it on the agent (llm_configuration_id) or make it the organization default (is_default).';

/** A passage's text as a short quote; bracketed numbers in it are not the answer's markers, so they become (n). */
function quoteOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\[(\d+)\]/g, '($1)');
  return flat.length > QUOTE_CHARACTERS ? `${flat.slice(0, QUOTE_CHARACTERS).replace(/\s\S*$/, '')} …` : flat;
}

export function offlineAnswerText(passages: QuotablePassage[]): string {
  if (passages.length === 0) {
    return `No language model is configured for this agent, and nothing in the agent's corpora matches the question.\n\n${HOW_TO_ADD_A_MODEL}`;
  }
  const quotes = passages.slice(0, QUOTED_PASSAGES).map((passage) => {
    const where = passage.page === null ? passage.source : `${passage.source}, page ${passage.page}`;
    return `- From ${where}: "${quoteOf(passage.text)}" [${passage.number}]`;
  });
  return [
    'No language model is configured for this agent, so this answer quotes the passages of its corpora that best match the question:',
    quotes.join('\n'),
    HOW_TO_ADD_A_MODEL,
  ].join('\n\n');
}

/** Splits text into pieces of a few words each (whitespace kept), which joined give the text back. */
export function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const word of text.match(/\S*\s*/g) ?? []) {
    piece += word;
    if (piece.length >= PIECE_CHARACTERS) {
      pieces.push(piece);
      piece = '';
    }
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

export function createOfflineAnswerer(passages: QuotablePassage[]): ChatModel {
  return {
    model: OFFLINE_MODEL,
    async *stream(request: ChatRequest): AsyncIterable<ChatEvent> {
      for (const text of piecesOf(offlineAnswerText(passages))) {
        if (request.signal.aborted) return;
        // A turn of the event loop between pieces, as a network stream has: a client that leaves mid-answer is noticed.
        await new Promise<void>((resolve) => setImmediate(resolve));
        yield { type: 'delta', text };
      }
    },
  };
}
