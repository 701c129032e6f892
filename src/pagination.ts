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
