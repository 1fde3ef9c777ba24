import type { AiSdkDataContent } from './ai-sdk-prompt.js';

/** How binary content was given, so encode can give it back the same way. Strings need no mark. */
export type DataKind = 'Uint8Array' | 'ArrayBuffer' | 'URL';

/** Binary content as the canonical media block holds it: base64 `data` or a `url`. */
export interface CanonicalData {
  readonly data?: string;
  readonly url?: string;
  readonly kind?: DataKind;
}

// Converting in slices keeps `String.fromCharCode(...slice)` under engines' argument limits.
const sliceLength = 0x8000;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += sliceLength) {
    binary += String.fromCharCode(...bytes.subarray(start, start + sliceLength));
  }
  return btoa(binary);
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** True for a string the AI SDK treats as a URL rather than base64: one that parses as an absolute URL. */
function isUrlString(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Reads AI SDK binary content (browser-safe: `btoa`/`atob`, no `Buffer`). */
export function decodeDataContent(content: AiSdkDataContent): CanonicalData {
  if (typeof content === 'string') return isUrlString(content) ? { url: content } : { data: content };
  if (content instanceof URL) return { url: content.href, kind: 'URL' };
  if (content instanceof ArrayBuffer) return { data: bytesToBase64(new Uint8Array(content)), kind: 'ArrayBuffer' };
  return { data: bytesToBase64(content), kind: 'Uint8Array' };
}

/** Writes canonical binary content back the way it was given (a string when the kind is unknown). */
export function encodeDataContent(data: CanonicalData): AiSdkDataContent {
  const value = data.data ?? data.url ?? '';
  switch (data.kind) {
    case 'URL':
      return new URL(value);
    case 'Uint8Array':
      return base64ToBytes(value);
    case 'ArrayBuffer':
      return base64ToBytes(value).buffer as ArrayBuffer;
    default:
      return value;
  }
}

/** Recognises common image types from the first bytes of base64 data, for image parts given without a media type. */
export function sniffImageMediaType(base64: string | undefined): string | undefined {
  if (base64 === undefined) return undefined;
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return undefined;
}
