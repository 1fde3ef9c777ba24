const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** 12,345 */
export const formatInteger = (value: number): string => integer.format(value);
/** 12.3K */
export const formatCompact = (value: number): string => compact.format(value);
/** 41.2% */
export const formatPercent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
/** $0.1234 */
export const formatUsd = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
/** 12.34 ms */
export const formatMs = (ms: number): string => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
/** 1.2 MB */
export const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A color per strategy, in the order they ran; the original is gray. */
export const seriesColors = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4f46e5', '#65a30d'];

/** The color of the strategy at `index`. */
export const colorOf = (index: number): string => seriesColors[index % seriesColors.length] as string;
