/** A base64 data URL split into its parts. */
export interface DataUrl {
  readonly mediaType: string;
  readonly data: string;
}

const base64DataUrl = /^data:([^;,]+);base64,(.*)$/s;

/**
 * Splits `data:<media type>;base64,<data>`. Returns undefined for anything else (a web URL, a data URL with
 * parameters or without base64), which callers keep as a URL so that it comes back unchanged.
 */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = base64DataUrl.exec(url);
  if (match === null) return undefined;
  const [, mediaType, data] = match;
  return mediaType === undefined || data === undefined ? undefined : { mediaType, data };
}

/** The data URL of base64 data: the exact inverse of {@link parseDataUrl}. */
export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
