export { conversationHeader, conversationKey } from './conversation-key.js';
export { createProxyApp, type ProxyApp } from './create-proxy-app.js';
export { InvalidProxyOptionsError } from './invalid-proxy-options-error.js';
export { fallbackModelWindow, knownModelWindows, lookUpModelWindow } from './model-windows.js';
export { type ProviderDialect } from './provider-error-response.js';
export { isLoopbackHost, resolveProxyOptions, type ProxyOptions, type ResolvedProxyOptions } from './proxy-options.js';
export type { CachePrefixStats, ProxyStatsSnapshot } from './proxy-stats.js';
export { startProxy, type RunningProxy } from './start-proxy.js';
