export type { ContextOptions, ContextReport, ContextStrategies } from './context-options.js';
export { createContextMiddleware, type ContextMiddleware, type ContextMiddlewareOptions } from './create-context-middleware.js';
export {
  createContextPrepareStep,
  type ContextPrepareStep,
  type ContextPrepareStepOptions,
  type PrepareStepInput,
} from './create-context-prepare-step.js';
export type { LanguageModelCallParams, LanguageModelLike } from './language-model-call.js';
export type { LanguageModelPromptMessage, LanguageModelTool } from './language-model-prompt.js';
export { UnsupportedPromptError } from './unsupported-prompt-error.js';
