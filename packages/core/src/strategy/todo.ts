/** One item of an agent's task list (e.g. Claude Code's TodoWrite), handed to strategies so summaries keep it. */
export interface Todo {
  readonly content: string;
  /** `cancelled` is gemini-cli's; Claude Code uses the other three. */
  readonly status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  /** Claude Code's present-tense label shown while the item runs ("Running the tests"). */
  readonly activeForm?: string;
  readonly id?: string;
  readonly priority?: 'high' | 'medium' | 'low';
}
