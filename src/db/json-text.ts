// JSON written by the database itself, byte for byte what JSON.stringify writes of the same values
// (the same members in the same order, no spaces, strings escaped alike): a listing of many rows then
// costs the server one string a row, not a JavaScript object and its serialisation. SQLite's
// json_object writes that form; PostgreSQL's json_build_object puts spaces around ':' and ',', but
// row_to_json does not, so there an object is the row of a subquery with one column per member.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** A JSON value made in SQL: nested into an object as JSON, not as a string. */
export type JsonValue = RawBuilder<unknown> & { readonly __json: true };

/** A member of an object: its name, and a plain value (string, number, null) or a JsonValue. */
export type JsonMember = [name: string, value: Expression<unknown>];

export interface JsonText {
  /** An object with these members, in this order. */
  object(members: JsonMember[]): JsonValue;
  /** true or false. */
  boolean(condition: Expression<SqlBool>): JsonValue;
  /** A column of JSON text (written by JSON.stringify), nested as JSON. */
  parse(column: Expression<string | null>): JsonValue;
  /** A timestamp column as the API writes it: "2026-11-20T10:15:30.123Z". */
  timestamp(column: Expression<string | null>): Expression<string | null>;
  /** The JSON as text, to select. */
  text(value: JsonValue): RawBuilder<string>;
  /** An aggregate: the texts of the group joined by ',' in the given order (null for no row). */
  joined(text: Expression<string>, orderBy: Expression<unknown>): RawBuilder<string | null>;
}

const json = (expression: RawBuilder<unknown>) => expression as JsonValue;

export const sqliteJsonText: JsonText = {
  object: (members) => json(sql`json_object(${sql.join(members.map(([name, value]) => sql`${sql.lit(name)}, ${value}`))})`),
  boolean: (condition) => json(sql`json(iif(${condition}, 'true', 'false'))`),
  parse: (column) => json(sql`json(${column})`),
  // Stored as the API writes them.
  timestamp: (column) => column,
  text: (value) => sql<string>`${value}`,
  joined: (text, orderBy) => sql<string | null>`group_concat(${text}, ',' order by ${orderBy})`,
};

export const postgresJsonText: JsonText = {
  object: (members) =>
    json(sql`(select row_to_json(o) from (select ${sql.join(members.map(([name, value]) => sql`${value} as ${sql.id(name)}`))}) as o)`),
  boolean: (condition) => json(sql`(${condition})`),
  parse: (column) => json(sql`(${column})::json`),
  timestamp: (column) => sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  // As text: node-postgres would parse a json value into an object.
  text: (value) => sql<string>`(${value})::text`,
  joined: (text, orderBy) => sql<string | null>`string_agg(${text}, ',' order by ${orderBy})`,
};
