import { describeConformance } from '@ctx/conformance/vitest';
import { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';

describeConformance({ strategy: () => createTopDownTruncationStrategy() });
