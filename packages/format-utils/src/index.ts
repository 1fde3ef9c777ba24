// Validating native input
export {
  checkNativeValue,
  parseNativeValue,
  toValidationIssues,
  type NativeValueCheck,
  type ParseNativeValueOptions,
  type SchemaIssueOptions,
} from './parse-native-value.js';
export { createRequestSchemaCheck, type RequestSchemaCheck, type RequestValidationOptions } from './request-schema-check.js';

// Reporting losses
export {
  describeForeignMetadata,
  LAYOUT_KEY,
  type DescribeForeignMetadataOptions,
} from './describe-foreign-metadata.js';
export { LossCollector } from './loss-collector.js';
export {
  conversationHoldsLoneSurrogate,
  findLoneSurrogates,
  hasLoneSurrogate,
  loneSurrogateWarning,
  repairLoneSurrogates,
  type RepairedLoneSurrogates,
} from './lone-surrogates.js';

// Reading native and metadata fields
export { fieldsExcept } from './fields-except.js';
export { setOwnField } from './set-own-field.js';
export { isFlagSet, readNumberField, readObjectField, readStringField } from './read-json-field.js';
export { imageMediaTypeFromUrl } from './image-media-type.js';

// Remembering native input
export { copyNativeStructure, countUnchangedMessages, isSameNativeStructure, parseMessagesFrom } from './native-structure.js';

// Tool call ids
export { createUniqueCallIds, replayCallIdUses, type CallIdUse, type UniqueCallIds } from './unique-call-ids.js';
