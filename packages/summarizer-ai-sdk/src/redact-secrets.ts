const bearerToken = /\b(Bearer\s+)\S+/gi;
// Key shapes providers hand out (`sk-…`, `sk-ant-…`, `gsk_…`, `xai-…`, …) and long opaque tokens.
const keyLike = /\b(?:sk|pk|rk|gsk|xai|key)[-_][A-Za-z0-9_-]{3,}|\b[A-Za-z0-9_-]{40,}\b/g;

/**
 * Masks what looks like an API key or bearer token in text taken from a provider's answer. Some endpoints echo the
 * key they rejected ("Incorrect API key provided: sk-…"); error messages end up in logs and reports, so they must not
 * carry it. Best effort by shape: the summarizer never sees the key itself (the model's provider holds it).
 *
 * @param text - Text from a provider's error answer.
 * @returns The text with key-like substrings replaced by `[redacted]`.
 */
export function redactSecrets(text: string): string {
  return text.replace(bearerToken, '$1[redacted]').replace(keyLike, '[redacted]');
}
