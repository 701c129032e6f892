// The events of GET /api/v2/corpora/{corpus_id}/events, as the OpenAPI document describes them
// (src/http/event-streams.ts). Documentation: DocumentProgress writes the stream.
import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/schemas.js';
import { StreamEvent, eventStreamResponse } from '../../http/event-streams.js';
import { StepSchema } from './documents.schemas.js';

/** The data of each event: a document's step change. */
const DocumentProgressEvent = Type.Object(
  {
    document_id: Id('The document whose step changed'),
    step: StepSchema,
    is_failed: Type.Boolean(),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the document failed, when it did' }),
    created_on: Timestamp('When the step changed'),
  },
  {
    title: 'DocumentProgressEvent',
    examples: [{ document_id: 42, step: 'indexed', is_failed: false, error: null, created_on: '2026-11-20T10:15:30.123Z' }],
  },
);

const CorpusStreamEventSchema = StreamEvent('CorpusStreamEvent', 'document', DocumentProgressEvent, {
  id: true,
  description: 'One event of a corpus’s stream: a document’s step change. Its id is what Last-Event-ID (or ?after=) resumes after',
});

/** The 200 answer of the corpus's event stream. */
export const corpusEventsResponse = eventStreamResponse(
  'Server-Sent Events, one named document for each step change of the corpus’s documents. Lines starting with a colon keep the connection ' +
    'open and carry no event; retry: is the delay before reconnecting.',
  CorpusStreamEventSchema,
  'retry: 2000\n\nid: 17\nevent: document\ndata: {"document_id":42,"step":"indexed","is_failed":false,"error":null,"created_on":"2026-11-20T10:15:30.123Z"}\n\n: keep-alive\n\n',
  {
    indexed: { event: 'document', id: '17', data: { document_id: 42, step: 'indexed', is_failed: false, error: null, created_on: '2026-11-20T10:15:30.123Z' } },
    failed: {
      event: 'document',
      id: '18',
      data: { document_id: 43, step: 'extracting', is_failed: true, error: 'The PDF could not be read', created_on: '2026-11-20T10:15:31.004Z' },
    },
  },
);
