import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, IdParams, named, withExamples } from '../../http/schemas.js';

/** Queries one request adds at most (CSV rows or JSON items), and a dataset holds at most. */
export const MAX_IMPORT_QUERIES = 10_000;
export const MAX_DATASET_QUERIES = 10_000;
/** Largest CSV body sent as text/csv (JSON bodies keep the server's JSON limit). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const MAX_QUESTION_CHARACTERS = 20_000;
export const MAX_SOURCES = 100;
export const MAX_TAGS = 20;

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s datasets' });
const Description = Type.String({ maxLength: 2000 });
const Tag = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const ExpectedSourceSchema = Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A document id' }), Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'A source name: the document’s file name or address, or its last path segment' })]);

export const DatasetSchema = named(
  'Dataset',
  Type.Object({
    id: Id('Dataset identifier'),
    name: Name,
    description: Type.String(),
    query_count: Type.Integer({ minimum: 0, description: 'Queries the dataset holds' }),
    ...AuditFields('dataset'),
  }),
);
export type DatasetView = Static<typeof DatasetSchema>;

export const CreateDatasetBody = Type.Object({ name: Name, description: Type.Optional(Description) });
export type CreateDatasetInput = Static<typeof CreateDatasetBody>;
export const UpdateDatasetBody = Type.Partial(CreateDatasetBody, { description: 'Only the fields sent change' });
export type UpdateDatasetInput = Static<typeof UpdateDatasetBody>;

export const DatasetParams = IdParams('dataset_id');
export const QueryParams = IdParams('dataset_id', 'query_id');

export const DatasetQuerySchema = named(
  'DatasetQuery',
  Type.Object({
    id: Id('Query identifier'),
    dataset_id: Id('Dataset of the query'),
    question: Type.String({ description: 'What the agent is asked' }),
    expected_answer: Type.Union([Type.String(), Type.Null()], { description: 'What a good answer says; null: none (metrics that compare with it are undetermined)' }),
    expected_sources: Type.Array(ExpectedSourceSchema, { description: 'Documents a good answer draws on: document ids and source names' }),
    tags: Type.Array(Type.String()),
    ...AuditFields('query'),
  }),
);
export type DatasetQueryView = Static<typeof DatasetQuerySchema>;

const QueryFields = {
  question: Type.String({ minLength: 1, maxLength: MAX_QUESTION_CHARACTERS, pattern: '\\S' }),
  expected_answer: Type.Optional(Type.Union([Type.String({ maxLength: MAX_QUESTION_CHARACTERS }), Type.Null()])),
  expected_sources: Type.Optional(Type.Array(ExpectedSourceSchema, { maxItems: MAX_SOURCES })),
  tags: Type.Optional(Type.Array(Tag, { maxItems: MAX_TAGS })),
};
export const NewQueryBody = Type.Object(QueryFields);
export type NewQueryInput = Static<typeof NewQueryBody>;

export const AddQueriesBody = Type.Object(
  {
    queries: Type.Optional(Type.Array(NewQueryBody, { minItems: 1, maxItems: MAX_IMPORT_QUERIES })),
    csv: Type.Optional(Type.String({ minLength: 1, description: 'A CSV text with a header line (see text/csv)' })),
  },
  { description: 'Either queries (JSON) or csv (the text of a CSV file); a text/csv body is read as csv' },
);
export type AddQueriesInput = Static<typeof AddQueriesBody>;

export const CSV_DESCRIPTION =
  'A CSV file with a header line naming its columns: question (required), expected_answer, expected_sources and tags. ' +
  'Lists are separated by |; an expected source made of digits is a document id, any other a source name. ' +
  `At most ${MAX_IMPORT_QUERIES.toLocaleString('en')} rows and ${MAX_CSV_BYTES / 1024 / 1024} MiB; cells are kept as text (one starting with =, +, - or @ is never evaluated). ` +
  'A problem answers 400 with a detail for each line at fault (/body/csv/line/N).';

export const AddedQueriesSchema = named(
  'AddedQueries',
  Type.Object({
    added: Type.Integer({ minimum: 0 }),
    ids: Type.Array(Type.Integer(), { description: 'The new queries’ ids, in the order given' }),
  }),
);

export const UpdateQueryBody = Type.Partial(Type.Object(QueryFields), { description: 'Only the fields sent change' });
export type UpdateQueryInput = Static<typeof UpdateQueryBody>;

const EXAMPLE_AUDIT = { created_on: '2026-11-23T10:15:30.123Z', created_by: 'owner@example.com', modified_on: '2026-11-23T10:15:30.123Z', modified_by: 'owner@example.com' };
named('Dataset', DatasetSchema, { id: 3, name: 'Handbook questions', description: 'What new staff ask', query_count: 120, ...EXAMPLE_AUDIT });
named('DatasetQuery', DatasetQuerySchema, {
  id: 41,
  dataset_id: 3,
  question: 'How many days of paid leave do we have?',
  expected_answer: '25 days a year',
  expected_sources: [12, 'handbook.md'],
  tags: ['leave'],
  ...EXAMPLE_AUDIT,
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateDatasetBody, { name: 'Handbook questions', description: 'What new staff ask in their first month' });
withExamples(UpdateDatasetBody, { description: 'What new staff ask in their first three months' });
withExamples(
  AddQueriesBody,
  {
    queries: [
      { question: 'How many days of paid leave do we have?', expected_answer: '25 days a year', expected_sources: [12, 'handbook.md'], tags: ['leave'] },
      { question: 'Who approves travel expenses?', expected_answer: 'The team lead, then finance above 500 EUR', tags: ['expenses'] },
    ],
  },
  { csv: 'question,expected_answer,expected_sources,tags\n"How many days of paid leave do we have?",25 days a year,handbook.md|12,leave\n' },
);
withExamples(UpdateQueryBody, { expected_answer: '25 days a year, 27 after five years', expected_sources: ['handbook.md'] });
