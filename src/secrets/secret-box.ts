// Sealing of stored secrets (provider API keys): AES-256-GCM under a key derived with HKDF from the
// server's secret key. Each sealed value is stored beside the id of the key that sealed it, so that the
// secret key can be rotated: SECRET_KEY_PREVIOUS lists former keys the server can still open values
// with, and values are sealed again with the current key when next written (or all at once by
// `agent-platform reseal-secrets`). The key id is a short hash of the derived key: it names the key
// without revealing anything of it.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedSecret {
  /** `v1.` then base64url of iv ‖ tag ‖ ciphertext. */
  sealed: string;
  keyId: string;
}

/** The value was sealed with a secret key that is neither SECRET_KEY nor one of SECRET_KEY_PREVIOUS. */
export class UnknownSealingKey extends Error {
  constructor(readonly keyId: string) {
    super('The key was sealed with a secret key this server does not have (set the former key in SECRET_KEY_PREVIOUS)');
    this.name = 'UnknownSealingKey';
  }
}

/** The sealed text was altered, cut, or is not of this format. */
export class DamagedSecret extends Error {
  constructor() {
    super('The stored secret is damaged and cannot be opened');
    this.name = 'DamagedSecret';
  }
}

interface DerivedKey {
  id: string;
  key: Buffer;
}

function deriveKey(secretKey: string): DerivedKey {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), 'agent-platform', 'stored secrets v1', 32));
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
}

export class SecretBox {
  private readonly current: DerivedKey;
  private readonly keys: Map<string, Buffer>;

  /** `previousKeys`: former secret keys, newest first, that values may still be sealed with. */
  constructor(secretKey: string, previousKeys: readonly string[] = []) {
    this.current = deriveKey(secretKey);
    this.keys = new Map([this.current, ...previousKeys.map(deriveKey)].reverse().map((derived) => [derived.id, derived.key]));
  }

  /** Id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plaintext: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    // The key id is authenticated with the value, so a value cannot be relabelled to another key.
    cipher.setAAD(Buffer.from(this.current.id));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const packed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    return { sealed: `${FORMAT}.${packed}`, keyId: this.current.id };
  }

  /** Throws UnknownSealingKey when no key of this server has that id, DamagedSecret when it does not open. */
  open(secret: SealedSecret): string {
    const key = this.keys.get(secret.keyId);
    if (key === undefined) throw new UnknownSealingKey(secret.keyId);
    const [format, packed] = secret.sealed.split('.', 2);
    if (format !== FORMAT || packed === undefined) throw new DamagedSecret();
    const bytes = Buffer.from(packed, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new DamagedSecret();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(secret.keyId));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new DamagedSecret();
    }
  }

  /** Whether a value sealed under this key id should be sealed again with the current key. */
  isStale(keyId: string): boolean {
    return keyId !== this.current.id;
  }

  /** Opens a value sealed with any known key and seals it with the current one. */
  reseal(secret: SealedSecret): SealedSecret {
    return this.isStale(secret.keyId) ? this.seal(this.open(secret)) : secret;
  }
}

/** What a read may show of a key: its first three and last four characters, e.g. `sk-…abcd`. */
export function keyHint(apiKey: string): string {
  if (apiKey.length < 12) return `…${apiKey.slice(-2)}`;
  return `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}`;
}
