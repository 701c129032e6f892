/**
 * The named fields of a request body that the client sent: an update changes only those. Anything
 * else in the body, and fields sent as undefined, are left out.
 */
export function sentFields<T extends object, K extends keyof T>(input: T, names: readonly K[]): { [P in K]?: Exclude<T[P], undefined> } {
  const fields: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const name of names) {
    if (input[name] !== undefined) fields[name] = input[name] as Exclude<T[K], undefined>;
  }
  return fields;
}
