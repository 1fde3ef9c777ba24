/** The value below which `fraction` of `values` lie (linear interpolation between the nearest ranks), or NaN for none. */
export function quantile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((first, second) => first - second);
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

/** The middle value of `values`, or NaN for none. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The arithmetic mean of `values`, or NaN for none. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}

/** A least-squares line `y ≈ slope × x + intercept`. */
export interface LinearFit {
  readonly slope: number;
  readonly intercept: number;
}

/** Fits `y ≈ slope × x + intercept` by least squares, or undefined with fewer than two distinct `x`. */
export function fitLine(points: readonly { readonly x: number; readonly y: number }[]): LinearFit | undefined {
  if (points.length < 2) return undefined;
  const meanX = mean(points.map((point) => point.x));
  const meanY = mean(points.map((point) => point.y));
  let covariance = 0;
  let variance = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  if (variance === 0) return undefined;
  const slope = covariance / variance;
  return { slope, intercept: meanY - slope * meanX };
}
