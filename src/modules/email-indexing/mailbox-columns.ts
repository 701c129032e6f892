// A mailbox's columns read back: the folders it syncs are kept as JSON text.

/** The folders or labels a row keeps as a JSON array (written only by this module). */
export function foldersOf(json: string): string[] {
  let parsed: unknown = [];
  try {
    parsed = JSON.parse(json);
  } catch {
    // A damaged column reads as no folders: the sync then reads none rather than failing.
  }
  return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
}
