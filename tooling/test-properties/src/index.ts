export { propertyRuns } from './property-runs.js';
