// Direct access to a PostgreSQL database the server migrated, for seeding large volumes quickly: rows
// go in many at a time, one array parameter per column unnested into rows, so that a statement carries
// thousands of rows whatever PostgreSQL's limit on parameters (65,535 per statement).
import type pg from 'pg';
import type { SeedUser } from './seed-database.js';

/** The user with this e-mail (the first owner), whose documents the seeded rows will be. */
export async function postgresUserByEmail(client: pg.Client, email: string): Promise<SeedUser> {
  const { rows } = await client.query<{ id: string; organization_id: string }>('select id, organization_id from users where email = $1', [email]);
  const row = rows[0];
  if (!row) throw new Error(`no user ${email} in the database`);
  return { id: Number(row.id), organizationId: Number(row.organization_id) };
}

/** A column written by insertRows, with the PostgreSQL type its array parameter is cast to. */
export interface ColumnOf {
  name: string;
  type: string;
}

/** Columns from a record of name → PostgreSQL type, in its order. */
export const columnsOf = (types: Record<string, string>): ColumnOf[] => Object.entries(types).map(([name, type]) => ({ name, type }));

/**
 * Inserts the rows (values in the order of `columns`) in one statement and answers the `returning`
 * columns of the inserted rows, in no particular order.
 */
export async function insertRows<R extends Record<string, unknown>>(
  client: pg.Client,
  table: string,
  columns: readonly ColumnOf[],
  rows: readonly (readonly unknown[])[],
  returning: readonly (keyof R & string)[] = [],
): Promise<R[]> {
  const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(', ');
  const { rows: inserted } = await client.query<R>(
    `insert into ${table} (${columns.map((column) => column.name).join(', ')}) select * from unnest(${arrays})${returning.length > 0 ? ` returning ${returning.join(', ')}` : ''}`,
    columns.map((_, index) => rows.map((row) => row[index])),
  );
  return inserted;
}
