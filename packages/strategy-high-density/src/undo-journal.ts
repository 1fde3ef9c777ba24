/**
 * Records how to undo state changes while it is open, so a fold can process the history's trailing turn (which the
 * next call may extend with more tool results), build its result, and return to the state before that turn.
 * Closed, it records nothing and costs nothing.
 */
export class UndoJournal {
  private undos: (() => void)[] | undefined;

  /** True while changes are being recorded. */
  get isOpen(): boolean {
    return this.undos !== undefined;
  }

  /** Starts recording. */
  open(): void {
    this.undos = [];
  }

  /**
   * Records how to undo one change; ignored while closed. Callers check {@link UndoJournal.isOpen} first when
   * building the undo is not free.
   */
  record(undo: () => void): void {
    this.undos?.push(undo);
  }

  /** Undoes every recorded change, newest first, and stops recording. */
  rollBack(): void {
    const undos = this.undos;
    this.undos = undefined;
    if (undos === undefined) return;
    for (let index = undos.length - 1; index >= 0; index--) (undos[index] as () => void)();
  }
}
