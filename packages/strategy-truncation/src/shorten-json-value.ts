import { isJsonArray, isJsonObject, type JsonValue } from '@ctx/core';
import { shortenText, type TextLimits } from './shorten-text.js';
import { SUPPRESSED_CONTENT_MARKER } from './truncation-markers.js';

/** A shortened JSON value, how many strings in it were suppressed or truncated, and how many characters went. */
export interface ShortenedJsonValue {
  readonly value: JsonValue;
  readonly suppressed: number;
  readonly truncated: number;
  /** Characters removed from its strings (attachments count their serialized size). */
  readonly removedChars: number;
}

/**
 * Content parts that carry binary data (Anthropic `image` / `document`, OpenAI `image_url` / `input_image` /
 * `input_file` / `file`). Cutting their base64 would leave a broken attachment, so in tool results they are
 * replaced whole by a text part.
 */
const attachmentPartTypes: ReadonlySet<string> = new Set(['image', 'document', 'image_url', 'input_image', 'input_file', 'file']);

function isAttachmentPart(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false;
  const type = value['type'];
  return typeof type === 'string' && attachmentPartTypes.has(type);
}

interface Tally {
  suppressed: number;
  truncated: number;
  removedChars: number;
}

function walk(value: JsonValue, limits: TextLimits, options: ShortenJsonOptions, tally: Tally): JsonValue {
  if (typeof value === 'string') {
    const shortened = shortenText(value, limits);
    if (shortened === undefined) return value;
    tally[shortened.operation]++;
    tally.removedChars += value.length - shortened.text.length;
    return shortened.text;
  }
  if (isJsonArray(value)) {
    let changed: JsonValue[] | undefined;
    value.forEach((item, index) => {
      let next: JsonValue;
      if (options.replaceAttachments === true && isAttachmentPart(item)) {
        next = { type: 'text', text: SUPPRESSED_CONTENT_MARKER };
        tally.suppressed++;
        tally.removedChars += Math.max(0, JSON.stringify(item).length - JSON.stringify(next).length);
      } else {
        next = walk(item, limits, options, tally);
      }
      if (next !== item) (changed ??= value.slice())[index] = next;
    });
    return changed ?? value;
  }
  if (isJsonObject(value)) {
    let changed: Record<string, JsonValue> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key] as JsonValue;
      const next = walk(item, limits, options, tally);
      if (next !== item) (changed ??= { ...value })[key] = next;
    }
    return changed ?? value;
  }
  return value;
}

/** Options of {@link shortenJsonValue}. */
export interface ShortenJsonOptions {
  /** Replace attachment content parts (images, documents) with a text part carrying the suppression marker. */
  readonly replaceAttachments?: boolean;
}

/**
 * Shortens every string in a JSON value (tool-call parameters, structured tool results) that is over the limits,
 * keeping the value's shape: keys, array positions, numbers and short strings such as ids stay as they are, so the
 * result is still what the provider's format expects (an object for tool-call input, content parts for results).
 *
 * @param value - The value; never modified.
 * @param limits - Mode and limits for each string.
 * @param options - Whether attachment parts are replaced.
 * @returns The same value object when nothing changed, else a copy with the shortened strings, and the counts.
 */
export function shortenJsonValue(value: JsonValue, limits: TextLimits, options: ShortenJsonOptions = {}): ShortenedJsonValue {
  const tally: Tally = { suppressed: 0, truncated: 0, removedChars: 0 };
  const shortened = walk(value, limits, options, tally);
  return { value: shortened, ...tally };
}
