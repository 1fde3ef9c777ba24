import { describeConformance } from '@ctx/conformance/vitest';
import { createOneShotStrategy } from './one-shot-strategy.js';

describeConformance({ strategy: () => createOneShotStrategy() });
