import { Type } from '@sinclair/typebox';
import { Id, Timestamp, named, withExamples } from '../../http/schemas.js';
import { AgentStatusSchema, ImageKeySchema, configurationFields } from './agents.schemas.js';

export const HistoryKindSchema = Type.Union(
  ['create', 'update', 'restore', 'checkpoint', 'activate', 'deactivate'].map((kind) => Type.Literal(kind)),
  { description: 'What wrote the record' },
);

export const HistoryRecordSchema = Type.Object({
  history_id: Id('History record identifier'),
  agent_id: Id('Agent identifier'),
  version: Type.Integer({ description: 'The agent’s version once this record was written' }),
  kind: HistoryKindSchema,
  checkpoint_name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()], { description: 'The checkpoint description given, if any' }),
  restored_from_history_id: Type.Union([Id('Record a restore copied'), Type.Null()]),
  created_on: Timestamp('When the record was written'),
  created_by: Type.String({ description: 'E-mail of the user who wrote it' }),
});

export const SnapshotSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    instructions: Type.String(),
    model_name: Type.Union([Type.String(), Type.Null()]),
    temperature: Type.Number(),
    max_tokens: Type.Integer(),
    conversation_starters: Type.Array(Type.String()),
    alias: Type.Union([Type.String(), Type.Null()]),
    llm_configuration_id: configurationFields.llm_configuration_id,
    corpus_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'Absent from records written before corpora were part of the configuration; restoring those leaves the corpora as they are' })),
    retrieval: configurationFields.retrieval,
    tool_ids: configurationFields.tool_ids,
    guardrail_ids: configurationFields.guardrail_ids,
    image_key: Type.Optional(ImageKeySchema),
    status: AgentStatusSchema,
  },
  { description: 'The whole configuration the agent had; status is recorded but a restore leaves it as it is' },
);

export const HistoryRecordDetailSchema = Type.Composite([
  HistoryRecordSchema,
  Type.Object({
    snapshot: SnapshotSchema,
    is_current: Type.Boolean({ description: 'Whether the agent’s configuration is the snapshot’s now' }),
    differences: Type.Array(
      Type.Object({ field: Type.String(), record: Type.Unknown(), current: Type.Unknown() }),
      { description: 'Each field whose value in the record differs from the agent’s current one' },
    ),
  }),
]);

/** The body of PUT /api/v2/agents/{agent_id}/history, as the interface fixes it: both fields optional. */
export const RestoreBody = Type.Object({
  history_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The record to restore to; required' })),
  checkpoint_description: Type.Optional(Type.String({ maxLength: 2000, description: 'Stored on the record the restore appends' })),
});

/** AgentHistoryResponse: exactly these four fields. */
export const AgentHistoryResponse = Type.Object(
  {
    history_id: Type.Integer(),
    checkpoint_name: Type.String(),
    created_on: Type.String({ format: 'date-time' }),
    created_by: Type.String({ description: 'E-mail of the user who created the record restored to' }),
  },
  { additionalProperties: false, description: 'The record restored to' },
);

export const SaveCheckpointBody = Type.Object({
  checkpoint_name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  checkpoint_description: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const PromptVersionSchema = Type.Object({
  history_id: Id('The newest record holding these instructions'),
  version: Type.Integer(),
  instructions: Type.String(),
  created_on: Timestamp('When these instructions were recorded'),
  created_by: Type.String({ description: 'E-mail of the user who recorded them' }),
});

// The names these schemas have in the OpenAPI document, with an example each.
named('AgentHistoryRecord', HistoryRecordSchema, {
  history_id: 12,
  agent_id: 7,
  version: 4,
  kind: 'checkpoint',
  checkpoint_name: 'Before the tone change',
  description: null,
  restored_from_history_id: null,
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
});
named('AgentHistoryRecordDetail', HistoryRecordDetailSchema);
named('AgentHistoryResponse', AgentHistoryResponse, {
  history_id: 12,
  checkpoint_name: 'Before the tone change',
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
});
named('PromptVersion', PromptVersionSchema, {
  history_id: 12,
  version: 4,
  instructions: 'You answer from the product manuals, briefly.',
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(SaveCheckpointBody, { checkpoint_name: 'Before the tone change', checkpoint_description: 'Tested on the returns questions: 18 of 20 right' });
withExamples(RestoreBody, { history_id: 12, checkpoint_description: 'Back to the version before the tone change' });
