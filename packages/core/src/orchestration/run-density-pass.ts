import type { CompactionEconomics } from '../cost/weigh-compaction.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { HistoryService } from '../history/history-service.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { isEmptyDensityResult, type DensityConfig, type DensityResult } from '../strategy/density-result.js';
import type { PassReport } from './turn-report.js';

function now(): number {
  return globalThis.performance.now();
}

/**
 * One density pass (spec 000 `ensureDensityOptimized`, after the dirty check): the strategy's `optimize()` on the
 * raw history, applied atomically — tied to the snapshot it was computed on — when it found something (EC-042).
 * Errors of `optimize()` and of applying its result propagate (ERR-002, ERR-010..013).
 *
 * With `weigh` (cache-aware planning), a result it says does not pay is not applied: the pass is a `does-not-pay`
 * no-op with the figures.
 *
 * @returns The pass report, or undefined when the strategy does not optimize.
 */
export async function runDensityPass(
  history: HistoryService,
  strategy: CompressionStrategy,
  config: DensityConfig,
  weigh?: (result: DensityResult, raw: readonly HistoryEntry[]) => CompactionEconomics | undefined,
): Promise<PassReport | undefined> {
  if (strategy.optimize === undefined) return undefined;
  const raw = history.getRawHistory();
  const tokensBefore = history.getTotalTokens();
  const started = now();
  const result = strategy.optimize(raw, config);
  // Reports are written out whole: on Node 20, every property written after a spread (`{ ...base, outcome }`) costs
  // about a microsecond, and this runs before every model call.
  const pass = 'density';
  const name = strategy.name;
  const entriesBefore = raw.length;
  // A malformed result is not "empty": applying it raises the typed error that says what is wrong with it.
  const wellFormed =
    typeof result === 'object' && result !== null && Array.isArray(result.removals) && result.replacements instanceof Map;
  if (wellFormed && isEmptyDensityResult(result)) {
    return {
      pass,
      strategy: name,
      tokensBefore,
      entriesBefore,
      outcome: 'no-op',
      reason: 'nothing-to-optimize',
      tokensAfter: tokensBefore,
      entriesAfter: entriesBefore,
      durationMs: now() - started,
      warnings: [],
      densityMetadata: result.metadata,
    };
  }
  const economics = wellFormed ? weigh?.(result, raw) : undefined;
  if (economics !== undefined && !economics.pays) {
    return {
      pass,
      strategy: name,
      tokensBefore,
      entriesBefore,
      outcome: 'no-op',
      reason: 'does-not-pay',
      message: `declined while the request still fits: it ${economics.message}`,
      tokensAfter: tokensBefore,
      entriesAfter: entriesBefore,
      durationMs: now() - started,
      warnings: [],
      densityMetadata: result.metadata,
      economics,
    };
  }
  await history.applyDensityResult(result, { strategyName: name, basis: raw });
  return {
    pass,
    strategy: name,
    tokensBefore,
    entriesBefore,
    ...(economics === undefined ? {} : { economics }),
    outcome: 'applied',
    tokensAfter: history.getTotalTokens(),
    entriesAfter: history.length,
    durationMs: now() - started,
    warnings: [],
    densityMetadata: result.metadata,
  };
}
