// One definition of a presented resource: each field of the response, in order, with its schema and
// where its value comes from in the row a repository reads. The route's response schema, the
// TypeScript presenter and the JSON the database writes for a listing's fast path
// (src/db/json-projection.ts) are all generated from it, so that they cannot drift apart.
// The kinds of field are few on purpose: each has one meaning in TypeScript and one in SQL.
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

/** A piece of a composed text: literal text, or the value of a column. */
export type TextPart<Row> = string | { column: keyof Row & string };

export type Field<Row, S extends TSchema = TSchema> =
  /** The column as stored: a string, a number or null. */
  | { kind: 'value'; column: keyof Row & string; schema: S }
  /** A timestamp column, written as the API writes timestamps ("2026-11-20T10:15:30.123Z"). */
  | { kind: 'timestamp'; column: keyof Row & string; schema: S }
  /** true when the column holds a value, false when it is null (is_deleted from deleted_on). */
  | { kind: 'isSet'; column: keyof Row & string; schema: S }
  /** A column of JSON text (written by JSON.stringify), presented as the JSON it holds. */
  | { kind: 'json'; column: keyof Row & string; schema: S }
  /** The column, or when it is null the text joined from the parts. */
  | { kind: 'textOr'; column: keyof Row & string; parts: TextPart<Row>[]; schema: S }
  /** A nested object of fields of the same row. */
  | { kind: 'object'; fields: Fields<Row>; schema: S };

export type Fields<Row> = Record<string, Field<Row>>;

type SchemasOf<F extends Fields<never>> = { [K in keyof F]: F[K]['schema'] };

/** What the presenter of these fields answers: the Static type of their schema. */
export type Presented<F extends Fields<never>> = Static<TObject<SchemasOf<F>>>;

/** The field constructors for rows of one type: a column named that the row lacks is a type error. */
export function fieldsOf<Row>() {
  type Column = keyof Row & string;
  /** A column whose values the schema accepts as they are. */
  type ColumnOf<S extends TSchema> = { [C in Column]: Row[C] extends Static<S> ? C : never }[Column];
  return {
    value: <S extends TSchema>(column: ColumnOf<S>, schema: S) => ({ kind: 'value', column, schema }) as const,
    timestamp: <S extends TSchema>(column: ColumnOf<S>, schema: S) => ({ kind: 'timestamp', column, schema }) as const,
    isSet: <S extends TSchema>(column: Column, schema: S) => ({ kind: 'isSet', column, schema }) as const,
    json: <S extends TSchema>(column: Column, schema: S) => ({ kind: 'json', column, schema }) as const,
    textOr: <S extends TSchema>(column: Column, parts: TextPart<Row>[], schema: S) => ({ kind: 'textOr', column, parts, schema }) as const,
    /** A nested object; its schema is generated from its fields, with these options (additionalProperties…). */
    object: <F extends Fields<Row>>(fields: F, options: Parameters<typeof Type.Object>[1] = {}) =>
      ({ kind: 'object', fields, schema: schemaOf(fields, options) }) as const,
  };
}

/** The response schema of the fields, in their order. */
export function schemaOf<F extends Fields<never>>(fields: F, options: Parameters<typeof Type.Object>[1] = {}): TObject<SchemasOf<F>> {
  const properties = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.schema]));
  return Type.Object(properties as SchemasOf<F>, options);
}

/** The columns of the row that the fields read (for a query that selects no more than it needs). */
export function columnsOf<Row>(fields: Fields<Row>): (keyof Row & string)[] {
  const columns = new Set<keyof Row & string>();
  for (const field of Object.values(fields)) {
    if (field.kind === 'object') for (const column of columnsOf(field.fields)) columns.add(column);
    else columns.add(field.column);
    if (field.kind === 'textOr') for (const part of field.parts) if (typeof part !== 'string') columns.add(part.column);
  }
  return [...columns];
}

function presentField<Row>(field: Field<Row>, row: Row): unknown {
  switch (field.kind) {
    case 'value':
    case 'timestamp':
      return row[field.column];
    case 'isSet':
      return row[field.column] !== null;
    case 'json':
      return JSON.parse(row[field.column] as string);
    case 'textOr':
      return row[field.column] ?? field.parts.map((part) => (typeof part === 'string' ? part : String(row[part.column]))).join('');
    case 'object':
      return presentFields(field.fields, row);
  }
}

function presentFields<Row>(fields: Fields<Row>, row: Row): Record<string, unknown> {
  const presented: Record<string, unknown> = {};
  for (const name in fields) presented[name] = presentField(fields[name]!, row);
  return presented;
}

/** The presenter of the fields: a row in, the response's object out, its members in the fields' order. */
export function presenterOf<Row, F extends Fields<Row>>(fields: F): (row: Row) => Presented<F> {
  return (row) => presentFields(fields, row) as Presented<F>;
}
