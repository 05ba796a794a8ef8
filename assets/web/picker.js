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

/** Marks the board's cells (`svg`, the server's picture, whose cells to click are `.target`
 * groups with `data-cell`): those of `next` (a Picker's next()) as clickable, with their choices
 * in words for screen readers (joined by `or`), those of `path` as chosen, with their numbers. */
export function markTargets(svg, next, path, or) {
  if (!svg) return;
  const options = new Map(next.map((n) => [n.cell, n]));
  for (const g of svg.querySelectorAll('.target')) {
    const cell = g.getAttribute('data-cell');
    const option = options.get(cell);
    const title = g.querySelector('title');
    const name = title ? title.textContent : cell;
    const order = path.indexOf(cell);
    g.classList.toggle('next', Boolean(option));
    g.classList.toggle('chosen', order >= 0);
    mark(g, Boolean(option), order);
    if (option) {
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `${name}: ${option.labels.join(` ${or} `)}`);
    } else {
      g.removeAttribute('tabindex');
      g.removeAttribute('role');
      g.removeAttribute('aria-label');
    }
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A cell's marks, told apart by shape and not by colour alone: a clickable cell has a dashed
 * outline on a light halo and a dot in its middle; a chosen one a solid outline and its number
 * in the path. (The last move is the picture's own: rings and arrows.) */
function mark(g, clickable, order) {
  for (const old of g.querySelectorAll('.mark')) old.remove();
  const shape = g.querySelector('use');
  if (!shape || (!clickable && order < 0)) return;
  const halo = shape.cloneNode(false);
  halo.setAttribute('class', 'mark halo');
  g.insertBefore(halo, shape);
  const x = parseFloat(shape.getAttribute('x') || '0');
  const y = parseFloat(shape.getAttribute('y') || '0');
  const svg = g.ownerSVGElement;
  const r = parseFloat((svg && svg.dataset.cellSize) || '40') / 2;
  const dot = document.createElementNS(SVG_NS, 'circle');
  dot.setAttribute('cx', String(x));
  dot.setAttribute('cy', String(y));
  if (order >= 0) {
    dot.setAttribute('r', String(r * 0.42));
    dot.setAttribute('class', 'mark badge');
    const n = document.createElementNS(SVG_NS, 'text');
    n.setAttribute('x', String(x));
    n.setAttribute('y', String(y + r * 0.2));
    n.setAttribute('font-size', String(r * 0.6));
    n.setAttribute('text-anchor', 'middle');
    n.setAttribute('class', 'mark number');
    n.textContent = String(order + 1);
    g.append(dot, n);
  } else {
    dot.setAttribute('r', String(r * 0.2));
    dot.setAttribute('class', 'mark dot');
    g.append(dot);
  }
}

/**
 * A button of the game and learn pages: `label`, class `kind`, `action` on a click.
 * @param {string} label @param {string} kind @param {boolean} disabled
 * @param {(e: Event) => void} action
 */
export function makeButton(label, kind, disabled, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = kind;
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener('click', action);
  return b;
}
