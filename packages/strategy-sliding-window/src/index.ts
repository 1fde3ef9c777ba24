export { createSlidingWindowStrategy } from './sliding-window-strategy.js';
export type { SlidingWindowSettings, SlidingWindowSettingsInput } from './sliding-window-settings.js';
export { findSafeSplitIndex, type SafeSplit, type SafeSplitOptions } from './find-safe-split-index.js';
export { findRecentWindowStart } from './find-recent-window-start.js';
