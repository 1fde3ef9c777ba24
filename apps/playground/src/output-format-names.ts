/** The formats `ctx compress --format` writes. Apart from the codecs, so the command line can list them cheaply. */
export const outputFormats = ['ctx', 'anthropic', 'openai', 'gemini', 'ai-sdk'] as const;

/** A `--format` value. */
export type OutputFormat = (typeof outputFormats)[number];
