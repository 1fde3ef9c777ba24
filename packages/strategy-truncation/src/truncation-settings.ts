import { z } from 'zod';

const contentModeSchema = z.enum(['keep', 'suppress', 'truncate'], {
  error: 'Expected "keep", "suppress" or "truncate"',
});

const count = (minimum: number) => z.int(`Expected an integer ≥ ${minimum}`).min(minimum, `Expected an integer ≥ ${minimum}`);

/** The settings schema; defaults live here. */
export const truncationSettingsSchema = z
  .strictObject({
    /**
     * Newest messages left untouched (the recent zone). A message is a run of consecutive entries of one speaker,
     * as providers see it: the assistant entries of one turn are one message, the tool results answering them another.
     * @default 5
     */
    preserveRecentCount: count(0).default(5),
    /**
     * What happens to content over its limit, for every content type without its own mode in `contentModes`:
     * `truncate` keeps its first lines or characters and appends `⟨ … N more lines truncated ⟩`; `suppress` replaces
     * it with `⟨ Content suppressed ⟩` (spec 004 FR-TR-002).
     * @default 'truncate'
     */
    truncationMode: z.enum(['suppress', 'truncate'], { error: 'Expected "suppress" or "truncate"' }).default('truncate'),
    /**
     * A mode per content type (`keep`, `suppress` or `truncate`), overriding `truncationMode`: `messageText` (user and
     * assistant text that is not preserved), `toolParameters` (string values of tool-call parameters), `toolResults`
     * (tool output, including text and attachments in tool entries).
     * @default {} (every type follows `truncationMode`)
     */
    contentModes: z
      .strictObject({
        messageText: contentModeSchema.optional(),
        toolParameters: contentModeSchema.optional(),
        toolResults: contentModeSchema.optional(),
      })
      .default({}),
    /**
     * Lines of a tool result kept in the old zone; longer results are truncated (or suppressed).
     * @default 5
     */
    maxToolResultLines: count(1).default(5),
    /**
     * Characters of a tool result kept in the old zone, whatever its line count (guards against huge single lines).
     * @default 1000
     */
    maxToolResultChars: count(1).default(1000),
    /**
     * Characters of each string value of a tool call's parameters kept in the old zone.
     * @default 100
     */
    maxToolParamChars: count(1).default(100),
    /**
     * Characters of user or assistant text kept in the old zone when that text is not preserved.
     * @default 500
     */
    maxMessageTextChars: count(1).default(500),
    /**
     * Keep the user's messages verbatim everywhere. Turning it off lets `contentModes.messageText` shorten them.
     * @default true
     */
    preserveUserMessages: z.boolean().default(true),
    /**
     * Keep the assistant's text verbatim everywhere.
     * @default true
     */
    preserveAssistantText: z.boolean().default(true),
    /**
     * Keep tool results that report an error verbatim (`classifyToolResult` from `@ctx/strategy-utils`): they are
     * usually short, and they are what stops the model from repeating a failed attempt. With
     * `cutOversizedToolResults`, they are cut to their beginning and end only when cutting every other tool result
     * does not make the history fit the target.
     * @default true
     */
    preserveErrors: z.boolean().default(true),
    /**
     * Keep thinking blocks in the old zone. Off: they are dropped whole (they cannot be shortened: providers check
     * their signature), and an entry left with nothing (or only blank text) is removed. The thinking of the
     * assistant turn still in its tool loop is kept either way: Anthropic rejects the request without it.
     * @default false
     */
    preserveThinking: z.boolean().default(false),
    /**
     * Process the old zone oldest first and stop as soon as the history fits the target, instead of processing all
     * of it. Keeps more of the newer old content; a later compression continues where this one stopped.
     * @default false
     */
    stopAtTarget: z.boolean().default(false),
    /**
     * Make a tool output larger than the budget fit: tool results in the first message and the recent zone that
     * alone take more than half the target are cut to their beginning and end, with a marker saying how much was
     * cut, and when the history is still over the target after truncation the largest results are cut further until
     * it fits (`cutOversizedToolResults` from `@ctx/core`). Tool calls and results stay paired. Off: the recent zone
     * is never changed, and a giant newest output can leave the history over the target.
     * @default true
     */
    cutOversizedToolResults: z.boolean().default(true),
  })
  .transform((settings) => ({
    ...settings,
    contentModes: {
      messageText: settings.contentModes.messageText ?? settings.truncationMode,
      toolParameters: settings.contentModes.toolParameters ?? settings.truncationMode,
      toolResults: settings.contentModes.toolResults ?? settings.truncationMode,
    },
  }));

/** What the strategy does to one content type: leave it, replace it with a marker, or keep its beginning. */
export type TruncationContentMode = z.output<typeof contentModeSchema>;

/** Settings of the truncation strategy, defaults filled in (every content type's mode resolved). */
export type TruncationSettings = z.output<typeof truncationSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type TruncationSettingsInput = z.input<typeof truncationSettingsSchema>;
