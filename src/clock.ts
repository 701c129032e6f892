/** The current time as the API writes it: ISO 8601, UTC, milliseconds. */
export function now(): string {
  return new Date().toISOString();
}

export function hoursFrom(start: string, hours: number): string {
  return new Date(Date.parse(start) + hours * 3_600_000).toISOString();
}
