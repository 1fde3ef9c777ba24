/** The offset of the first byte that is not part of a well-formed UTF-8 sequence, or undefined when all are. */
export function findInvalidUtf8(bytes: Uint8Array): number | undefined {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    // Lead byte → sequence length and the allowed range of the second byte (no overlongs, surrogates or > U+10FFFF).
    const [length, low, high] =
      lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf]
      : lead === 0xe0 ? [3, 0xa0, 0xbf]
      : lead === 0xed ? [3, 0x80, 0x9f]
      : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf]
      : lead === 0xf0 ? [4, 0x90, 0xbf]
      : lead === 0xf4 ? [4, 0x80, 0x8f]
      : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf]
      : [0, 0, 0];
    if (length === 0) return index;
    const second = bytes[index + 1];
    if (second === undefined || second < low || second > high) return index;
    for (let offset = 2; offset < length; offset += 1) {
      const next = bytes[index + offset];
      if (next === undefined || next < 0x80 || next > 0xbf) return index;
    }
    index += length;
  }
  return undefined;
}
