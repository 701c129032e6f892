// Where a document library's sync is, as the JSON of the connector's sync_cursor: the delta link the
// next sync starts from (none: a full sync), the page a sync under way reads next (a sync stopped
// midway goes on from there; a new sync starts without it), and whether the sync under way is a full
// one (at its end, items it did not see leave the corpus).

export interface DriveCursor {
  deltaLink?: string;
  pageLink?: string;
  full?: true;
}

const textOrNothing = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The cursor of a connector's row; what is not a cursor reads as none (a full sync). */
export function driveCursorOf(json: string): DriveCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { deltaLink, pageLink, full } = parsed as Record<string, unknown>;
  return driveCursor({ deltaLink: textOrNothing(deltaLink), pageLink: textOrNothing(pageLink), full: full === true });
}

/** The cursor as it is stored: only what is set. */
export function driveCursor({ deltaLink, pageLink, full }: { deltaLink?: string | undefined; pageLink?: string | undefined; full?: boolean }): DriveCursor {
  return { ...(deltaLink !== undefined ? { deltaLink } : {}), ...(pageLink !== undefined ? { pageLink } : {}), ...(full ? { full: true as const } : {}) };
}

/** The cursor a new sync starts with: from the delta link, or a full sync when there is none. */
export const startingCursor = (cursor: DriveCursor): DriveCursor => driveCursor({ deltaLink: cursor.deltaLink, full: cursor.deltaLink === undefined });
