import { expect } from 'vitest';

/** The error a promise rejects with, checked to be of the given class (a fulfilled promise fails). */
export async function rejection<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
