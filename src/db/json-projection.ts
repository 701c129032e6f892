// The JSON a presenter writes, written by the database instead (json-text.ts), generated from the
// same definition of the fields (src/http/presented-fields.ts): each kind of field has here the SQL
// that writes what presenterOf writes in TypeScript, byte for byte once serialised.
import { sql, type Expression } from 'kysely';
import type { Field, Fields } from '../http/presented-fields.js';
import type { JsonMember, JsonText, JsonValue } from './json-text.js';

/** The SQL expression of a column of the row the fields are defined on (e.g. created_by_email → creator.email). */
export type ColumnExpression<Row> = (column: keyof Row & string) => Expression<unknown>;

function memberValue<Row>(field: Field<Row>, json: JsonText, column: ColumnExpression<Row>): Expression<unknown> {
  switch (field.kind) {
    case 'value':
      return column(field.column);
    case 'timestamp':
      return json.timestamp(column(field.column) as Expression<string | null>);
    case 'isSet':
      return json.boolean(sql<boolean>`${column(field.column)} is not null`);
    case 'json':
      return json.parse(column(field.column) as Expression<string | null>);
    case 'textOr': {
      // || of a number casts it to text in both databases, as String() does.
      const parts = field.parts.map((part) => (typeof part === 'string' ? sql.lit(part) : column(part.column)));
      return sql<string>`coalesce(${column(field.column)}, ${sql.join(parts, sql` || `)})`;
    }
    case 'object':
      return jsonObjectOf(field.fields, json, column);
  }
}

/** The object the presenter of these fields writes, as a JSON value made in SQL. */
export function jsonObjectOf<Row>(fields: Fields<Row>, json: JsonText, column: ColumnExpression<Row>): JsonValue {
  const members: JsonMember[] = Object.entries(fields).map(([name, field]) => [name, memberValue(field, json, column)]);
  return json.object(members);
}
