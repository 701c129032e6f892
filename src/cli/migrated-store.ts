// The database as a one-shot command sees it: opened, brought to the latest migration, closed when
// the command's work is done.
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { unitOfWork, type UnitOfWork } from '../repositories.js';

export async function withMigratedStore<T>(config: Config, work: (store: UnitOfWork) => Promise<T>): Promise<T> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, preparedStatements: config.databasePreparedStatements });
  try {
    await migrateToLatest(database);
    return await work(unitOfWork(database));
  } finally {
    await database.close();
  }
}
