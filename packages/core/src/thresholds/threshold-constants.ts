/** Smallest valid per-profile threshold, in percent of the context window (spec 004 FR-TH-002). */
export const MIN_CONDENSE_THRESHOLD = 5;
/** Largest valid per-profile threshold, in percent of the context window (spec 004 FR-TH-002). */
export const MAX_CONDENSE_THRESHOLD = 100;
/** Share of the context window kept free as a safety buffer by the absolute trigger (spec 004 FR-TH-002). */
export const TOKEN_BUFFER_PERCENTAGE = 0.1;
/** A per-profile threshold of -1 means "inherit" (spec 004 FR-TH-001). */
export const INHERIT_THRESHOLD = -1;
