/** One item of an agent's task list (e.g. Claude Code's TodoWrite), handed to strategies so summaries keep it. */
export interface Todo {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
  readonly id?: string;
  readonly priority?: 'high' | 'medium' | 'low';
}
