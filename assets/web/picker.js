// The click tree of a position's legal moves, built only from the server's `legal[].steps`: the
// page holds no rules. A move is the cells clicked in order (inpHeXion: the opponent's disc, the
// empty cell it moves to, each relocation; EXXIT: the cell to place on or to lay a tile at, or a
// stack then its target). A button step before a cell ("lay a tile", "place a disc") is implied
// by the cell; a move without any cell (pass, swap) is a button of its own.

/** @typedef {{cell: string|null, key: string, label: string}} Step */
/** @typedef {{notation: string, words: string, steps: Step[]}} Legal */

export class Picker {
  /** @param {Legal[]} legal */
  constructor(legal) {
    this.moves = (legal || []).map((m) => ({
      notation: m.notation,
      words: m.words,
      clicks: (m.steps || []).filter((s) => s.cell !== null && s.cell !== undefined),
    }));
    /** The cells chosen so far. @type {string[]} */
    this.path = [];
  }

  /** The moves still possible after the cells chosen so far. */
  candidates() {
    const k = this.path.length;
    return this.moves.filter(
      (m) => m.clicks.length >= k && (k > 0 || m.clicks.length > 0) &&
        this.path.every((cell, i) => m.clicks[i].cell === cell),
    );
  }

  /** The cells that may be clicked next, each with what clicking it does. */
  next() {
    const k = this.path.length;
    const out = new Map();
    for (const m of this.candidates()) {
      const step = m.clicks[k];
      if (!step) continue;
      const seen = out.get(step.cell);
      if (!seen) out.set(step.cell, { cell: step.cell, labels: [step.label] });
      else if (!seen.labels.includes(step.label)) seen.labels.push(step.label);
    }
    return [...out.values()];
  }

  /** The move whose cells are exactly those chosen, if any. */
  complete() {
    if (this.path.length === 0) return null;
    return this.candidates().find((m) => m.clicks.length === this.path.length) || null;
  }

  /** The moves made by a button alone (pass, swap): offered before any cell is chosen. */
  buttons() {
    return this.path.length === 0 ? this.moves.filter((m) => m.clicks.length === 0) : [];
  }

  /** Chooses a cell among `next()`; false when it is not one. */
  choose(cell) {
    if (!this.next().some((n) => n.cell === cell)) return false;
    this.path.push(cell);
    return true;
  }

  back() {
    this.path.pop();
  }

  reset() {
    this.path = [];
  }

  /** Is there anything to choose at all? */
  get empty() {
    return this.moves.length === 0;
  }
}
