// Moving stored secrets to the current secret key: one value as it is next written, or every stored
// value at once (`agent-platform reseal-secrets`). Values sealed with a key this server does not
// have are left as they are, for a server that has it, and listed.
import type { SealedSecret, SecretBox } from './secret-box.js';

/** The value sealed again with the current key; undefined when it already is, or no known key opens it. */
export function resealIfStale(secrets: SecretBox, sealed: SealedSecret | undefined): SealedSecret | undefined {
  if (sealed === undefined || !secrets.isStale(sealed.keyId)) return undefined;
  try {
    return secrets.reseal(sealed);
  } catch {
    return undefined;
  }
}

export interface StoredSealedValue {
  id: number;
  /** undefined when the stored value lacks its key id. */
  sealed: SealedSecret | undefined;
  save(fresh: SealedSecret): Promise<void>;
}

export interface ResealOutcome {
  resealed: number;
  current: number;
  /** Ids of the records whose value no known secret key opens. */
  unreadable: number[];
}

export async function resealAll(secrets: SecretBox, values: StoredSealedValue[]): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, current: 0, unreadable: [] };
  for (const value of values) {
    const fresh = resealIfStale(secrets, value.sealed);
    if (fresh !== undefined) {
      await value.save(fresh);
      outcome.resealed++;
    } else if (value.sealed !== undefined && !secrets.isStale(value.sealed.keyId)) {
      outcome.current++;
    } else {
      outcome.unreadable.push(value.id);
    }
  }
  return outcome;
}
