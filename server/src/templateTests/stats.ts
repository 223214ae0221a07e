// The statistics of an A/B run: a 95 % interval for a rate (Wilson's score interval, sound at 0 % and
// 100 % and for small samples, where the normal approximation is not) and for the difference of two
// independent rates (Newcombe's hybrid score interval, method 10, built from the two Wilson intervals).
const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export interface Difference extends Interval {
  /** rate(B) − rate(A). */
  value: number;
  /** The interval excludes 0. */
  significant: boolean;
}

export function rateDifference(a: { successes: number; n: number }, b: { successes: number; n: number }): Difference {
  const pa = a.successes / a.n;
  const pb = b.successes / b.n;
  const ia = wilson(a.successes, a.n);
  const ib = wilson(b.successes, b.n);
  const value = pb - pa;
  const low = value - Math.sqrt((pb - ib.low) ** 2 + (ia.high - pa) ** 2);
  const high = value + Math.sqrt((ib.high - pb) ** 2 + (pa - ia.low) ** 2);
  return { value, low, high, significant: low > 0 || high < 0 };
}
