// A page asked for and a page given, as services see them (the HTTP layer presents them).

export interface PageRequest {
  page: number;
  page_size: number;
}

export interface PageResult<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.page_size;
}

/** Pages a list already held in memory. */
export function pageOf<T>(all: T[], request: PageRequest): PageResult<T> {
  const start = offsetOf(request);
  return { items: all.slice(start, start + request.page_size), page: request.page, page_size: request.page_size, total: all.length };
}

/**
 * A window of a list, as repositories take it: the latest generation's pages and the legacy
 * generation's ?limit=&offset= both come to this. limit undefined means every row from offset on.
 */
export interface ListWindow {
  limit: number | undefined;
  offset: number;
}

export function windowOf(request: PageRequest): ListWindow {
  return { limit: request.page_size, offset: offsetOf(request) };
}

/** SQLite takes no OFFSET without a LIMIT, so "no limit" is the largest one. */
export function rowLimit(window: ListWindow): number {
  return window.limit ?? Number.MAX_SAFE_INTEGER;
}

/** Some rows of a list and how many the whole list holds. */
export interface ListSlice<T> {
  items: T[];
  total: number;
}

export function asPage<T>(slice: ListSlice<T>, request: PageRequest): PageResult<T> {
  return { items: slice.items, page: request.page, page_size: request.page_size, total: slice.total };
}
