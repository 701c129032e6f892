// The commands of the CLI (src/cli.ts loads this module once it has set up the heap).
// agent-platform [serve] | worker | migrate | backup --to <file> | create-api-key --email <address> [--name <name>] | reseal-secrets
//   | reset-password <email> | create-owner [--email <address>] | --version
import { parseArgs } from 'node:util';
// Each command imports what it runs when it runs: `serve` begins the first owner's password hash
// before the server's modules load (first-owner-password.ts), and the other commands load no server.
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { PasswordOptions } from './password-input.js';
import { firstOwnerPassword } from '../modules/organizations/first-owner-password.js';
import { DEFAULT_ADMIN_EMAIL } from '../modules/organizations/first-start.js';
import { SERVER_VERSION } from '../version.js';

const USAGE = `Usage: agent-platform [command]

Commands:
  serve                                   Start the HTTP server (default)
  worker                                  Run a document-processing worker (PostgreSQL only)
  migrate                                 Apply database migrations and exit
  backup --to <file>                      Copy the SQLite database to a new file, safely while the
                                          server runs (PostgreSQL: use pg_dump)
  create-api-key --email <address> [--name <name>]
                                          Create an API key for a user and print it once
  reseal-secrets                          Seal every stored provider key, tool and connector secret with the current SECRET_KEY
                                          (after a rotation; former keys in SECRET_KEY_PREVIOUS)
  reset-password <email> [--password-stdin | --password-env <NAME>]
                                          Give a user a new password and end their sessions; without a
                                          password given, one is generated and printed once
  create-owner [--email <address>] [--password-stdin | --password-env <NAME>]
                                          Make an active owner again when the owner is locked out: a new
                                          owner of the first organization, or an existing user reactivated
                                          and made owner. E-mail: ADMIN_EMAIL by default; password:
                                          ADMIN_PASSWORD by default, else generated and printed once

Options:
  -v, --version                           Print the version
  -h, --help                              Print this help

Configuration comes from the environment and the .env file of the working folder (the environment
wins); see the README.`;

async function migrate(config: Config): Promise<void> {
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../db/database.js'), import('../db/migrate.js')]);
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, preparedStatements: config.databasePreparedStatements });
  try {
    const applied = await migrateToLatest(database);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
  } finally {
    await database.close();
  }
}

async function backup(config: Config, to: string | undefined): Promise<number> {
  if (!to) {
    process.stderr.write('backup needs --to <file>\n');
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write('backup copies the embedded SQLite database; on PostgreSQL use pg_dump (see docs/operations.md)\n');
    return 2;
  }
  const { backupSqlite } = await import('../db/backup.js');
  const copy = await backupSqlite(config.dataDir, to);
  process.stdout.write(`Backed up the database to ${copy.file} (${copy.bytes} bytes).\n`);
  process.stdout.write(`Keep ${config.secretKey ? 'SECRET_KEY' : `${config.dataDir}/secret.key`} with it: stored secrets cannot be read without it.\n`);
  return 0;
}

async function resetPasswordCommand(config: Config, email: string | undefined, options: PasswordOptions): Promise<number> {
  if (!email) {
    process.stderr.write('reset-password needs the e-mail of the user: reset-password <email>\n');
    return 2;
  }
  const [{ chooseNewPassword }, { resetPassword }] = await Promise.all([import('./password-input.js'), import('./owner-recovery.js')]);
  const { password, generated } = await chooseNewPassword(options);
  await resetPassword(config, email, password);
  process.stdout.write(`Reset the password of ${email.toLowerCase()}; every session of theirs has ended.\n`);
  if (generated) process.stdout.write(`New password (shown this once): ${password}\n`);
  return 0;
}

const OWNER_OUTCOMES = {
  'first-start': (email: string) => `Created the organization and its owner ${email}.`,
  created: (email: string) => `Created the owner ${email} in the first organization.`,
  restored: (email: string) => `${email} is an active owner again.`,
} as const;

async function createOwnerCommand(config: Config, email: string | undefined, options: PasswordOptions): Promise<number> {
  const address = (email ?? config.adminEmail ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const [{ chooseNewPassword }, { createOwner }] = await Promise.all([import('./password-input.js'), import('./owner-recovery.js')]);
  const { password, generated } = await chooseNewPassword(options, config.adminPassword);
  const outcome = await createOwner(config, address, password);
  process.stdout.write(`${OWNER_OUTCOMES[outcome](address)} Every earlier session of theirs has ended.\n`);
  if (generated) process.stdout.write(`Password (shown this once): ${password}\n`);
  else process.stdout.write(`Sign in with ${options['password-stdin'] || options['password-env'] ? 'the password given' : 'ADMIN_PASSWORD'}.\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      to: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'password-env': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
    case 'worker': {
      const ownerPassword = firstOwnerPassword(config);
      // Unawaited until the owner is made; a failure is reported there, by the same promise.
      ownerPassword.hash().catch(() => undefined);
      const { startServer, startWorkerProcess } = await import('../server.js');
      await (command === 'serve' ? startServer : startWorkerProcess)(config, ownerPassword);
      return -1;
    }
    case 'migrate':
      await migrate(config);
      return 0;
    case 'backup':
      return backup(config, values.to);
    case 'create-api-key': {
      if (!values.email) {
        process.stderr.write('create-api-key needs --email <address>\n');
        return 2;
      }
      const { createApiKeyForUser } = await import('../modules/auth/api-key-cli.js');
      const key = await createApiKeyForUser(config, values.email, values.name ?? 'Created from the command line');
      process.stdout.write(`${key}\n`);
      return 0;
    }
    case 'reset-password':
      return resetPasswordCommand(config, positionals[1] ?? values.email, values);
    case 'create-owner':
      return createOwnerCommand(config, values.email, values);
    case 'reseal-secrets': {
      const { resealSecrets } = await import('../modules/llm/reseal-cli.js');
      const outcome = await resealSecrets(config);
      process.stdout.write(`Re-sealed ${outcome.resealed} key(s); ${outcome.current} already sealed with the current key.\n`);
      if (outcome.unreadable.length === 0 && outcome.unreadableTools.length === 0 && outcome.unreadableConnectors.length === 0 && outcome.unreadableMailboxes.length === 0) return 0;
      if (outcome.unreadable.length > 0) {
        process.stderr.write(`No known secret key opens the key of LLM configuration(s) ${outcome.unreadable.join(', ')}: add the key that sealed them to SECRET_KEY_PREVIOUS.\n`);
      }
      if (outcome.unreadableTools.length > 0) {
        process.stderr.write(`No known secret key opens the secret of tool(s) ${outcome.unreadableTools.join(', ')}: add the key that sealed them to SECRET_KEY_PREVIOUS.\n`);
      }
      if (outcome.unreadableConnectors.length > 0) {
        process.stderr.write(`No known secret key opens the client secret of connector(s) ${outcome.unreadableConnectors.join(', ')}: add the key that sealed them to SECRET_KEY_PREVIOUS.\n`);
      }
      if (outcome.unreadableMailboxes.length > 0) {
        process.stderr.write(`No known secret key opens the refresh token of mailbox(es) ${outcome.unreadableMailboxes.join(', ')}: add the key that sealed them to SECRET_KEY_PREVIOUS.\n`);
      }
      return 1;
    }
    default:
      process.stderr.write(`Unknown command "${command}"\n\n${USAGE}\n`);
      return 2;
  }
}

/** Runs the command of these arguments; the process exits when it is done, except a server's or worker's. */
export function runCli(argv: string[]): void {
  main(argv).then(
    (code) => {
      if (code >= 0) process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
