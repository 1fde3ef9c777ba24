import { describeConformance } from '@ctx/conformance/vitest';
import { createNativeStrategy } from './native-strategy.js';

describeConformance({ strategy: () => createNativeStrategy() });
