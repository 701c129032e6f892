/** The nearest-rank percentile (0–100) of values sorted in ascending order; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, rank: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1));
  return sorted[index]!;
}
