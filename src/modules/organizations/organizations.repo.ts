import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export class OrganizationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async count(): Promise<number> {
    const row = await this.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  findById(id: number) {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(name: string, now: string) {
    return this.db.insertInto('organizations').values({ name, created_on: now, modified_on: now }).returningAll().executeTakeFirstOrThrow();
  }
}
