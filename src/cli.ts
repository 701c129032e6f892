#!/usr/bin/env node
// agent-platform [serve] | migrate | create-api-key --email <address> [--name <name>]
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createApiKeyForUser } from './modules/auth/api-key-cli.js';
import { startServer, startWorkerProcess } from './server.js';

const USAGE = `Usage: agent-platform [command]

Commands:
  serve                                   Start the HTTP server (default)
  worker                                  Run a document-processing worker (PostgreSQL only)
  migrate                                 Apply database migrations and exit
  create-api-key --email <address> [--name <name>]
                                          Create an API key for a user and print it once

Configuration comes from the environment; see the README.`;

async function migrate(config: Config): Promise<void> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const applied = await migrateToLatest(database);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await startServer(config);
      return -1;
    case 'worker':
      await startWorkerProcess(config);
      return -1;
    case 'migrate':
      await migrate(config);
      return 0;
    case 'create-api-key': {
      if (!values.email) {
        process.stderr.write('create-api-key needs --email <address>\n');
        return 2;
      }
      const key = await createApiKeyForUser(config, values.email, values.name ?? 'Created from the command line');
      process.stdout.write(`${key}\n`);
      return 0;
    }
    default:
      process.stderr.write(`Unknown command "${command}"\n\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
