// Where a command that sets a password takes it from: stdin (--password-stdin), a variable named on
// the command line (--password-env NAME), or else a fallback (ADMIN_PASSWORD for create-owner), or
// else a generated one that the command prints once. Never an argument: those end up in the shell's
// history and in the process list.
import { generatePassword } from '../modules/auth/password.js';
import { NewPassword } from '../modules/users/users.schemas.js';
import { CommandRefused } from './owner-recovery.js';

export interface PasswordOptions {
  'password-stdin'?: boolean | undefined;
  'password-env'?: string | undefined;
}

export interface NewPasswordChoice {
  password: string;
  /** True when no password was given: the command must show this one, once. */
  generated: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // `echo` and a typed line end with a newline that is not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export async function chooseNewPassword(options: PasswordOptions, fallback?: string): Promise<NewPasswordChoice> {
  let given: string | undefined;
  if (options['password-stdin']) {
    given = await readStdin();
  } else if (options['password-env'] !== undefined) {
    // The value is input to this one command, not a setting of the server: read here, not by config.ts.
    given = process.env[options['password-env']];
    if (given === undefined) throw new CommandRefused(`The environment variable ${options['password-env']} is not set`);
  } else {
    given = fallback;
  }
  if (given === undefined) return { password: generatePassword(), generated: true };
  if (given.length < NewPassword.minLength!) throw new CommandRefused(`The password must be at least ${NewPassword.minLength} characters long`);
  return { password: given, generated: false };
}
