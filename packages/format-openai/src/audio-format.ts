// Maps: formats and media types come from requests, and an object would answer `constructor` with a function.
const mediaTypesByFormat: ReadonlyMap<string, string> = new Map([
  ['wav', 'audio/wav'],
  ['mp3', 'audio/mpeg'],
]);
const formatsByMediaType: ReadonlyMap<string, string> = new Map([
  ['audio/wav', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/mp3', 'mp3'],
]);

/** The media type of an `input_audio` format: `wav` → `audio/wav`, `mp3` → `audio/mpeg`, others `audio/<format>`. */
export function audioMediaType(format: string): string {
  return mediaTypesByFormat.get(format) ?? `audio/${format}`;
}

/** The `input_audio` format of a media type (the inverse of {@link audioMediaType}); undefined if not audio. */
export function audioFormat(mediaType: string): string | undefined {
  const known = formatsByMediaType.get(mediaType);
  if (known !== undefined) return known;
  return mediaType.startsWith('audio/') ? mediaType.slice('audio/'.length) : undefined;
}
