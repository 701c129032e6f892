// Wall-clock time in an IANA time zone, from the time zone data Node carries (ICU): what the clock
// reads at an instant, and which instant a reading names. Both databases are then given plain
// instants, so SQLite and PostgreSQL bucket alike whatever time zone data each of them has.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A clock reading: the fields of a calendar date and a time of day (month 1 to 12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Only names of the IANA database (Europe/Paris, America/Argentina/Buenos_Aires, UTC, Etc/GMT+5), never offsets. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** What the clock of the time zone reads at the instant (whole seconds). */
export function wallTimeAt(instantMs: number, timeZone: string): WallTime {
  const fields: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instantMs)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  // Years before 1 AD would need an era; ranges are bounded far from them.
  return { year: fields.year!, month: fields.month!, day: fields.day!, hour: fields.hour!, minute: fields.minute!, second: fields.second! };
}

/** A clock reading as milliseconds of a UTC clock that read the same, for arithmetic on readings. */
export const wallMs = (wall: WallTime): number => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);

/** How far the zone's clock is ahead of UTC at the instant, in ms. */
export function offsetAt(instantMs: number, timeZone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallMs(wallTimeAt(whole, timeZone)) - whole;
}

/**
 * The instant at which the zone's clock reads `reading` (as wallMs gives it). A reading the clock
 * passes twice (clocks set back) names the first time; a reading it skips (clocks set forward) is
 * moved on by the jump, as Temporal's "compatible" rule does (02:30 names 03:30 when 02:00 becomes
 * 03:00), so that a day starting in the jump starts when the clock jumped.
 */
export function instantOfWallMs(reading: number, timeZone: string): number {
  // Offsets within a day either side cover any transition near the reading.
  const offsets = [...new Set([offsetAt(reading - DAY_MS, timeZone), offsetAt(reading, timeZone), offsetAt(reading + DAY_MS, timeZone)])];
  const candidates = offsets.map((offset) => reading - offset).sort((a, b) => a - b);
  const exact = candidates.find((instant) => offsetAt(instant, timeZone) === reading - instant);
  if (exact !== undefined) return exact;
  return candidates.find((instant) => instant + offsetAt(instant, timeZone) > reading) ?? candidates.at(-1)!;
}

export function instantOfWallTime(wall: WallTime, timeZone: string): number {
  return instantOfWallMs(wallMs(wall), timeZone);
}
