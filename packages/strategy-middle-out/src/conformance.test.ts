import { describeConformance } from '@ctx/conformance/vitest';
import { createMiddleOutStrategy } from './middle-out-strategy.js';

describeConformance({ strategy: () => createMiddleOutStrategy() });
