export { propertyRuns, propertyScale } from './property-runs.js';
