// The page of one game: the board, the players, whose turn, the time left, the moves and the
// result, kept live by Server-Sent Events; for the player to move (a token in the address's
// fragment, `#t=…`), click to move, a preview, then Confirm. Every word comes from the State's
// `texts` (page.ftl) or the server's own sentences. No framework, no build step, no inline code;
// every address is relative to the page's, so it also works under a path prefix. Inside Discord
// (an Activity: activity.js) the member signs in through Discord instead of a link, and the
// page opens the game of the channel it was launched in.

import { Picker, makeButton, markTargets } from './picker.js';

const $ = (id) => document.getElementById(id);
const KINDS = { inphexion: 'inpHeXion', exxit: 'EXXIT' };
/** Touch targets are at least this many CSS pixels across. */
const TOUCH_PX = 46;
/** Below this width the page leaves out the board picture's header. */
const NARROW_PX = 600;
/** The board is never drawn narrower than this, however little height the window has. */
const MIN_BOARD_PX = 240;
/** Room kept under the board (the prompt's buttons). */
const BELOW_BOARD_PX = 8;
/** Zooming in on a part of the board makes it at most this many times larger. */
const MAX_ZOOM = 3;
/** A touch screen: the page speaks of taps instead of keys. */
const touchScreen = () =>
  (navigator.maxTouchPoints || 0) > 0 || window.matchMedia('(pointer: coarse)').matches;

const where = location.pathname.match(/^(.*\/)game\/(\d+)\/?$/);
const base = where ? where[1] : location.pathname.replace(/[^/]*$/, '');
let gameId = where ? where[2] : '';
let api = `${base}api/game/${gameId}/`;

let token = new URLSearchParams(location.hash.slice(1)).get('t');
/** Inside Discord: the client's language, sent with every request. */
let locale = null;
let state = null;
let texts = {};
let picker = new Picker([]);
/** The move chosen and previewed, awaiting Confirm: {notation, words}. */
let pending = null;
let busy = false;
let tokenRefusal = '';
/** The part of the board zoomed in on, as an SVG viewBox `x y w h`, or null for the whole. */
let zoom = null;
/** The earlier position shown instead of the live one: its number of moves, or null. */
let review = null;
/** A short sound at every new move, when the reader turned it on (off by default). */
let sound = false;
try {
  sound = window.localStorage.getItem('hexcord-sound') === 'on';
} catch (_) {
  // Storage refused: the sound stays off.
}

const t = (key) => texts[key] || '';

function headers(json) {
  const h = {};
  if (token) h.Authorization = `Bearer ${token}`;
  if (locale) h['Accept-Language'] = locale;
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

async function errorWords(response) {
  try {
    const body = await response.json();
    if (body && typeof body.error === 'string') return body.error;
  } catch (_) {
    // Not JSON: say it in the page's words.
  }
  return t('error');
}

async function fetchState() {
  const response = await fetch(`${api}state`, { headers: headers(false), cache: 'no-store' });
  if ((response.status === 401 || response.status === 403) && token) {
    tokenRefusal = await errorWords(response);
    token = null;
    return fetchState();
  }
  if (!response.ok) throw new Error(`state: ${response.status}`);
  return response.json();
}

// One State request at a time; an event arriving meanwhile asks for one more.
let loading = null;
let again = false;
async function refresh() {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      try {
        apply(await fetchState());
        showFailure(false);
      } catch (_) {
        showFailure(true);
      }
    } while (again);
    loading = null;
  })();
  return loading;
}

function showFailure(on) {
  const alert = $('alert');
  if (on) {
    alert.textContent = t('load-failed') || '…';
    alert.hidden = false;
    window.setTimeout(refresh, 3000);
  } else if (alert.dataset.kind !== 'refusal') {
    alert.hidden = true;
  }
}

function say(words, kind) {
  const alert = $('alert');
  alert.textContent = words;
  alert.dataset.kind = kind || '';
  alert.hidden = !words;
}

function announce(words) {
  const region = $('announce');
  region.textContent = '';
  // A fresh node so that the same words are read again.
  window.setTimeout(() => {
    region.textContent = words;
  }, 30);
}

/** The state `next` shown, unless the page shows a later one already: every change of the game
 * (a move, a takeback, an ending, a pause) raises its revision, which the server sends in order. */
function apply(next) {
  if (!next || (state && next.revision < state.revision)) return;
  const before = state;
  const changed = !before || before.revision !== next.revision;
  const hadLegal = before && before.legal ? before.legal.length : 0;
  state = next;
  texts = next.texts || {};
  if (before && !changed && (next.legal || []).length === hadLegal && Boolean(next.you) === Boolean(before.you)) {
    // The same position: keep the board (and the reader's focus) as it is.
    tick();
    return;
  }
  // The game moved on: a line being planned no longer starts from it.
  if (changed && plan) plan = null;
  if (!plan && (changed || (next.legal || []).length !== hadLegal)) {
    picker = new Picker(next.legal || []);
    if (pending) pending = null;
    zoom = null;
  }
  let fresh = false;
  if (before && changed) {
    const moves = next.moves || [];
    if (moves.length > (before.moves || []).length) {
      const last = moves[moves.length - 1];
      announce(`${t('new-move')} ${last.words}. ${next.status}`);
      fresh = true;
      chime();
    } else {
      announce(next.status);
    }
  }
  if (review !== null && review > (next.moves || []).length) review = null;
  // A move may have used or cleared the plans: read again when shown.
  if (changed) plans = null;
  render();
  $('board').classList.toggle('fresh', fresh);
}

/** A short tone for a new move, when the reader turned the sound on. */
function chime() {
  if (!sound) return;
  try {
    const Audio = window.AudioContext || window.webkitAudioContext;
    const audio = chime.context || (chime.context = new Audio());
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (_) {
    // No audio here: the move is shown and announced all the same.
  }
}

function renderSound() {
  const b = $('sound');
  b.textContent = sound ? t('sound-on') : t('sound-off');
  b.setAttribute('aria-pressed', sound ? 'true' : 'false');
}

function toggleSound() {
  sound = !sound;
  try {
    window.localStorage.setItem('hexcord-sound', sound ? 'on' : 'off');
  } catch (_) {
    // Kept for this visit only.
  }
  renderSound();
  if (sound) chime();
}

function render() {
  const s = state;
  document.documentElement.lang = s.lang === 'ja' ? 'ja' : 'en';
  document.title = `${t('title')} #${s.id}`;
  $('game').setAttribute('aria-busy', 'false');
  $('heading').textContent = `${KINDS[s.kind] || s.kind} · ${s.variant}`;
  $('status').textContent = s.status;
  $('board-heading').textContent = t('board');
  $('players-heading').textContent = t('players');
  $('moves-heading').textContent = t('moves');
  $('participants-heading').textContent = t('participants');
  renderPlayers();
  renderMoves();
  renderChart();
  renderResult();
  renderSound();
  renderNotes();
  renderPlans();
  tick();
  if (review === null) renderPlay();
  else showReview();
}

function renderPlayers() {
  const s = state;
  const list = $('players');
  list.replaceChildren();
  (s.players || []).forEach((p, seat) => {
    const li = document.createElement('li');
    li.className = `seat seat-${seat}`;
    const dot = document.createElement('span');
    dot.className = `dot ${s.kind}-${seat}`;
    dot.setAttribute('aria-hidden', 'true');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = `${p.name} (${p.colour})`;
    const clock = document.createElement('time');
    clock.className = 'clock';
    clock.dataset.seat = String(seat);
    li.append(dot, name, clock);
    if (p.holds) {
      // What the picture's header says they hold: shown where the header is left out.
      const holds = document.createElement('span');
      holds.className = 'holds';
      holds.textContent = p.holds;
      li.append(holds);
    }
    if (s.you && s.you.seat === seat) {
      const you = document.createElement('span');
      you.className = 'tag you';
      you.textContent = t('you');
      li.append(you);
    }
    if (s.to_move === seat) {
      const turn = document.createElement('span');
      turn.className = 'tag turn';
      turn.textContent = t('to-move');
      li.append(turn);
      li.classList.add('active');
    }
    list.append(li);
  });
  const supply = $('supply');
  supply.hidden = !s.supply;
  supply.textContent = s.supply || '';
}

function renderMoves() {
  const moves = state.moves || [];
  const list = $('moves');
  list.replaceChildren();
  if (moves.length === 0) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = t('no-moves');
    list.append(li);
    renderStepButtons();
    return;
  }
  for (const m of moves) {
    const li = document.createElement('li');
    li.value = m.ply;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'step';
    b.dataset.ply = String(m.ply);
    if (review === m.ply) b.setAttribute('aria-current', 'step');
    const notation = document.createElement('span');
    notation.className = 'notation';
    notation.textContent = m.notation;
    const words = document.createElement('span');
    words.className = 'words';
    words.textContent = m.words;
    b.append(notation, words);
    li.append(b);
    list.append(li);
  }
  const current = list.querySelector('[aria-current]');
  if (current) current.scrollIntoView({ block: 'nearest' });
  else list.scrollTop = list.scrollHeight;
  renderStepButtons();
}

// ------------------------------------------------------------------------------------------
// Earlier positions: the move list steps through them (arrow keys too), then back to live

/** Shows the position after `ply` moves (null or the last: the live one). */
async function showPly(ply) {
  const last = (state.moves || []).length;
  review = ply === null || ply >= last ? null : Math.max(0, ply);
  renderMoves();
  renderChart();
  if (review === null) {
    $('review').hidden = true;
    renderPlay();
    return;
  }
  await showReview();
}

async function showReview() {
  const ply = review;
  $('review').hidden = false;
  $('review-words').textContent = ply === 0 ? t('review-start') : `${t('review-after')} ${ply}`;
  $('live-again').textContent = t('back-to-live');
  $('review-help').textContent = t('review-help');
  $('review-help').hidden = touchScreen();
  $('board').hidden = false;
  $('preview').hidden = true;
  $('controls').replaceChildren();
  $('keys').hidden = true;
  $('prompt').textContent = '';
  $('zoom-hint').hidden = true;
  $('zoom-out').hidden = true;
  try {
    const response = await fetch(`${api}board/${ply}`, { headers: headers(false) });
    if (!response.ok) throw new Error(await errorWords(response));
    const body = await response.json();
    if (review !== ply) return;
    $('board').innerHTML = body.svg || '';
    $('board').classList.remove('fresh');
    const svg = $('board').querySelector('svg');
    if (svg) {
      svg.setAttribute('focusable', 'false');
      const saved = zoom;
      zoom = null;
      sizeBoard(svg);
      zoom = saved;
      $('zoom-hint').hidden = true;
      $('zoom-out').hidden = true;
    }
  } catch (e) {
    say(e.message || t('error'), 'refusal');
  }
}

function onMovesClick(event) {
  const b = event.target.closest && event.target.closest('button.step');
  if (!b || !state) return;
  const ply = Number(b.dataset.ply);
  showPly(review === ply ? null : ply);
}

/** The position `by` moves from the one shown (the live one: null), or undefined when there
 * is none that way. */
function stepTo(by) {
  const last = (state.moves || []).length;
  const to = (review === null ? last : review) + by;
  if (to < 0 || to > last || (to === last && review === null)) return undefined;
  return to;
}

/** The Previous and Next buttons (in the move list, and over the board while it shows an
 * earlier position): for a reader without arrow keys. */
function renderStepButtons() {
  const moves = (state.moves || []).length;
  $('step-bar').hidden = moves === 0;
  for (const b of document.querySelectorAll('button.step-by')) {
    const by = Number(b.dataset.by);
    b.textContent = t(by < 0 ? 'previous-move' : 'next-move');
    b.disabled = stepTo(by) === undefined;
  }
}

function onStepButton(event) {
  const b = event.target.closest && event.target.closest('button.step-by');
  if (!b || !state) return;
  const to = stepTo(Number(b.dataset.by));
  if (to !== undefined) showPly(to);
}

function onKey(event) {
  if (!state || event.altKey || event.ctrlKey || event.metaKey) return;
  // Keys typed into the notes are the notes'.
  if (event.target && event.target.closest && event.target.closest('textarea')) return;
  const inBoard = $('board').contains(document.activeElement);
  let to;
  if (event.key === 'ArrowLeft' && !inBoard) to = stepTo(-1);
  else if (event.key === 'ArrowRight' && !inBoard) to = stepTo(1);
  else if (event.key === 'Home' && !inBoard) to = stepTo(-(review === null ? (state.moves || []).length : review));
  else if ((event.key === 'End' || event.key === 'Escape') && review !== null) to = null;
  else return;
  if (to === undefined) return;
  event.preventDefault();
  showPly(to);
}

// ------------------------------------------------------------------------------------------
// Private notes: the reader's own (a link's player, or an Activity member who plays or follows
// the game), loaded and saved through `notes`; never part of the game's State, and shown to
// nobody else. A reader who may keep none here (no token, or a watcher) gets no box.

/** The longest notes the server keeps, in characters (0: no box). */
let notesMax = 0;

async function loadNotes() {
  if (!token) return;
  try {
    const response = await fetch(`${api}notes`, { headers: headers(false), cache: 'no-store' });
    if (!response.ok) return;
    const body = await response.json();
    notesMax = body.max;
    $('notes-text').value = body.notes;
    $('notes').hidden = false;
    renderNotes();
  } catch (_) {
    // No notes box this time: the game plays on as before.
  }
}

function renderNotes() {
  if (!notesMax) return;
  $('notes-heading').textContent = t('notes');
  $('notes-help').textContent = t('notes-help');
  $('notes-save').textContent = t('notes-save');
  const used = [...$('notes-text').value.trim()].length;
  $('notes-count').textContent = `${used} / ${notesMax} ${t('notes-count')}`;
  $('notes-count').classList.toggle('over', used > notesMax);
}

async function saveNotes() {
  const said = $('notes-said');
  $('notes-save').disabled = true;
  said.textContent = '';
  try {
    const response = await fetch(`${api}notes`, {
      method: 'PUT',
      headers: headers(true),
      body: JSON.stringify({ notes: $('notes-text').value }),
    });
    if (!response.ok) {
      said.textContent = await errorWords(response);
      return;
    }
    const body = await response.json();
    $('notes-text').value = body.notes;
    said.textContent = body.saved || t('notes-saved');
  } catch (_) {
    said.textContent = t('error');
  } finally {
    $('notes-save').disabled = false;
    renderNotes();
  }
}

// ------------------------------------------------------------------------------------------
// Plan ahead: the player waiting for their opponent's move enters lines (theirs; yours; …),
// each checked by the server in the positions it would arise in; their branches are listed,
// each with Delete. Shown to the link's player alone, while the game is in play.

/** The player's planned lines as last read, or null before. */
let plans = null;

/** Plan ahead on the board: the line entered so far (the opponent's move first) and the state
 * of the position after it (`plans/preview`), whose legal moves the picker offers; null when the
 * board is the live one. */
let plan = null;

/** Shows the position after `line` on the preview board; refused, the line stays as it was. */
async function planShow(line) {
  busy = true;
  try {
    const query = encodeURIComponent(line.join(';'));
    const response = await fetch(`${api}plans/preview?line=${query}`, {
      headers: headers(false),
      cache: 'no-store',
    });
    if (!response.ok) {
      say(await errorWords(response), 'refusal');
      return;
    }
    const view = await response.json();
    if (!plan) return;
    say('', '');
    plan = { line, view };
    picker = new Picker(view.legal || []);
    zoom = null;
  } catch (_) {
    say(t('error'), 'refusal');
  } finally {
    busy = false;
    if (review === null) renderPlay();
  }
}

function planStart() {
  if (!planning()) return;
  pending = null;
  plan = { line: [], view: null };
  showPly(null);
  planShow([]);
}

/** Back to the live board. */
function planStop() {
  plan = null;
  picker = new Picker((state && state.legal) || []);
  zoom = null;
  if (review === null) renderPlay();
}

async function planSave() {
  if (!plan || busy) return;
  busy = true;
  renderControls();
  const saved = await plansRequest('POST', plan.line);
  busy = false;
  if (saved) planStop();
  else renderControls();
}

function planning() {
  return state && state.you && state.to_move !== null && state.to_move !== state.you.seat;
}

/** Reads, adds or removes lines; true when the server took the request. */
async function plansRequest(method, line) {
  const init = { method, headers: headers(method !== 'GET'), cache: 'no-store' };
  if (method !== 'GET') init.body = JSON.stringify({ line });
  try {
    const response = await fetch(`${api}plans`, init);
    if (!response.ok) {
      $('plans-said').textContent = await errorWords(response);
      return false;
    }
    const body = await response.json();
    plans = body.lines || [];
    $('plans-said').textContent = body.said || '';
    renderPlans();
    return true;
  } catch (_) {
    $('plans-said').textContent = t('error');
    return false;
  }
}

function renderPlans() {
  const section = $('plans');
  const shown = Boolean(token) && planning();
  section.hidden = !shown;
  if (!shown) return;
  if (plans === null) {
    plans = [];
    plansRequest('GET');
  }
  $('plans-heading').textContent = t('plans');
  $('plans-help').textContent = t('plans-help');
  $('plans-board').textContent = t('plans-board');
  $('plans-board').disabled = Boolean(plan);
  $('plans-label').textContent = t('plans-line');
  $('plans-add').textContent = t('plans-add');
  const list = $('plans-list');
  list.replaceChildren();
  for (const line of plans) {
    const li = document.createElement('li');
    li.append(`${line.join(' → ')} `);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t('plans-delete');
    b.addEventListener('click', () => plansRequest('DELETE', line));
    li.append(b);
    list.append(li);
  }
}

function addPlan() {
  const line = $('plans-line')
    .value.split(';')
    .map((m) => m.trim())
    .filter((m) => m);
  plansRequest('POST', line);
}

// ------------------------------------------------------------------------------------------
// The analysis chart (a finished game analysed by /analysis): the first colour's chance as an
// area from the bottom, the line as the Discord chart smooths it, the turning points as buttons;
// a click on the chart shows the position at that move through the step-through above.

/** The chart's drawing box (scaled to the width it has) and its plot area within. */
const CHART = { w: 340, h: 170, left: 8, top: 14, right: 332, bottom: 160 };

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function chartX(i, n) {
  return CHART.left + (n > 1 ? (i / (n - 1)) * (CHART.right - CHART.left) : 0);
}

function chartY(chance) {
  const c = Math.min(1, Math.max(0, Number(chance) || 0));
  return CHART.bottom - c * (CHART.bottom - CHART.top);
}

function renderChart() {
  const a = state && state.analysis;
  const section = $('chart');
  const line = (a && a.line) || [];
  if (line.length < 2) {
    section.hidden = true;
    $('chart-plot').replaceChildren();
    return;
  }
  section.hidden = false;
  section.className = `chart ${state.kind}`;
  $('chart-heading').textContent = t('chart');
  $('chart-help').textContent = t('chart-help');
  const n = line.length;
  const svg = svgEl('svg', { viewBox: `0 0 ${CHART.w} ${CHART.h}`, role: 'group' });
  svg.setAttribute('aria-labelledby', 'chart-heading');
  svg.append(
    svgEl('rect', {
      class: 'area-1 frame',
      x: CHART.left,
      y: CHART.top,
      width: CHART.right - CHART.left,
      height: CHART.bottom - CHART.top,
    }),
  );
  const points = line.map((v, i) => `${chartX(i, n).toFixed(1)},${chartY(v).toFixed(1)}`);
  svg.append(
    svgEl('polygon', {
      class: 'area-0',
      points: `${CHART.left},${CHART.bottom} ${points.join(' ')} ${CHART.right},${CHART.bottom}`,
    }),
    svgEl('line', {
      class: 'half',
      x1: CHART.left,
      x2: CHART.right,
      y1: chartY(0.5),
      y2: chartY(0.5),
    }),
    svgEl('polyline', { class: 'line', points: points.join(' ') }),
  );
  const shown = review === null ? n - 1 : review;
  const at = chartX(Math.min(shown, n - 1), n);
  svg.append(svgEl('line', { class: 'at', x1: at, x2: at, y1: CHART.top, y2: CHART.bottom }));
  for (const p of a.turning || []) {
    const number = Number(p.number);
    if (!(number >= 1 && number < n)) continue;
    const x = chartX(number, n);
    const y = Math.min(CHART.bottom - 11, Math.max(CHART.top + 11, chartY(line[number])));
    const g = svgEl('g', { class: 'turn', role: 'button', tabindex: 0 });
    g.dataset.ply = String(number);
    g.setAttribute('aria-label', p.label || '');
    if (review === number) g.setAttribute('aria-current', 'step');
    const title = svgEl('title');
    title.textContent = p.label || '';
    const text = svgEl('text', { x, y: y + 4 });
    text.textContent = String(number);
    g.append(title, svgEl('circle', { cx: x, cy: y, r: 11 }), text);
    svg.append(g);
  }
  $('chart-plot').replaceChildren(svg);
}

/** A click or tap on the chart: a turning point's move, else the move nearest the pointer. */
function onChartClick(event) {
  if (!state || !state.analysis) return;
  const turn = event.target.closest && event.target.closest('.turn');
  const svg = $('chart-plot').querySelector('svg');
  let ply;
  if (turn) ply = Number(turn.dataset.ply);
  else if (svg) {
    const box = svg.getBoundingClientRect();
    const n = (state.analysis.line || []).length;
    const x = ((event.clientX - box.left) / box.width) * CHART.w;
    const share = (x - CHART.left) / (CHART.right - CHART.left);
    ply = Math.round(Math.min(1, Math.max(0, share)) * (n - 1));
  }
  if (ply === undefined || Number.isNaN(ply)) return;
  showPly(ply);
}

function onChartKey(event) {
  const turn = event.target.closest && event.target.closest('.turn');
  if (!turn || (event.key !== 'Enter' && event.key !== ' ')) return;
  event.preventDefault();
  event.stopPropagation();
  showPly(Number(turn.dataset.ply));
  const again = $('chart-plot').querySelector(`.turn[data-ply="${turn.dataset.ply}"]`);
  if (again) again.focus();
}

function renderResult() {
  const result = $('result');
  result.hidden = !state.result;
  result.textContent = state.result ? `${t('result')}: ${state.result}` : '';
}

/** A number of seconds as `1d 02:03:04` or `02:03:04`. */
function duration(secs) {
  const d = Math.floor(secs / 86400);
  const pad = (n) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor((secs % 86400) / 3600))}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
  return d > 0 ? `${d}${t('days')} ${hms}` : hms;
}

/** Each player's clock beside their name: the player to move's counting down to the deadline,
 * the other's the time their next turn starts with. */
function tickClocks() {
  for (const clock of document.querySelectorAll('#players .clock')) {
    const seat = Number(clock.dataset.seat);
    const p = (state.players || [])[seat] || {};
    let words = '';
    if (state.to_move === seat && state.deadline) {
      const left = Date.parse(state.deadline) - Date.now();
      words = left > 0 ? duration(Math.floor(left / 1000)) : t('deadline-passed');
      clock.dateTime = state.deadline;
    } else if (state.to_move !== null && typeof p.bank === 'number') {
      words = duration(Math.max(0, p.bank));
    }
    clock.textContent = words;
    clock.hidden = !words;
    clock.classList.toggle('running', state.to_move === seat);
  }
}

function tick() {
  if (!state) return;
  tickClocks();
  const line = $('deadline');
  if (!state.deadline || state.to_move === null) {
    line.hidden = true;
    return;
  }
  line.hidden = false;
  $('deadline-label').textContent = t('deadline');
  const left = Date.parse(state.deadline) - Date.now();
  const out = $('deadline-left');
  out.dateTime = state.deadline;
  if (!(left > 0)) {
    out.textContent = t('deadline-passed');
    return;
  }
  out.textContent = duration(Math.floor(left / 1000));
}

// ------------------------------------------------------------------------------------------
// The board and click to move

function myTurn() {
  if (plan) return Boolean(state && review === null && plan.view && !picker.empty);
  return state && review === null && state.you && state.to_move === state.you.seat && !picker.empty;
}

/** The board's picture now: the planned position's, or the live one. */
function boardSvg() {
  return plan ? (plan.view ? plan.view.svg : '') : state.svg;
}

function renderPlanBanner() {
  const banner = $('plan-banner');
  banner.hidden = !plan;
  $('board').classList.toggle('planning', Boolean(plan));
  if (plan) banner.textContent = `${t('plans-banner')} ${plan.line.join(' → ') || '…'}`;
}

function renderPlay() {
  const board = $('board');
  const focused = document.activeElement;
  const hadFocus = focused && board.contains(focused);
  board.innerHTML = boardSvg() || '';
  renderPlanBanner();
  const svg = board.querySelector('svg');
  board.hidden = Boolean(pending);
  if (svg) svg.setAttribute('focusable', 'false');
  decorateTargets(svg);
  renderPrompt();
  renderControls();
  // Sized last: the room it has is what the prompt above it leaves.
  if (svg) sizeBoard(svg);
  if (hadFocus) focusFirst();
}

/** The board as large as the room it has allows, without scrolling: the width of its column and
 * the height left in the window below what comes above it. On a narrow screen the picture's
 * header is left out (the page shows the players and the status in words). When the clickable
 * cells come out smaller than a fingertip, a tap first zooms in on the part of the board around
 * it ([`zoomAt`]): the picture keeps its size and shows less. */
function sizeBoard(svg) {
  const board = $('board');
  const room = board.clientWidth;
  const top = parseFloat(svg.dataset.boardTop || '0');
  const box = svg.viewBox && svg.viewBox.baseVal;
  if (box && !svg.dataset.full) svg.dataset.full = `${box.width} ${box.height}`;
  const [fullW, fullH] = (svg.dataset.full || '0 0').split(' ').map(Number);
  if (!(fullW > 0 && fullH > 0 && room > 0)) return;
  const crop = top > 0 && top < fullH && room < NARROW_PX ? top : 0;
  // Without the header, the players' panel says what each player holds.
  $('game').classList.toggle('no-header', crop > 0);
  const [w, h] = [fullW, fullH - crop];
  svg.setAttribute('viewBox', zoom || `0 ${crop} ${w} ${h}`);
  const above = board.getBoundingClientRect().top + window.scrollY;
  const tall = window.innerHeight - above - BELOW_BOARD_PX;
  const width = Math.max(Math.min(room, (tall * w) / h), Math.min(room, MIN_BOARD_PX));
  svg.style.width = `${Math.floor(width)}px`;
  svg.style.maxWidth = '100%';
  svg.dataset.scale = String(width / w);
  const hint = $('zoom-hint');
  const small = needsZoom(svg) && touchScreen();
  hint.hidden = !(small || zoom);
  hint.textContent = zoom ? t('zoom-out-hint') : small ? t('zoom-hint') : '';
  renderZoomOut();
}

/** How many CSS pixels a clickable cell measures across now. */
function cellPixels(svg) {
  const cell = parseFloat(svg.dataset.cellSize || '0');
  const box = svg.viewBox && svg.viewBox.baseVal;
  const shown = svg.getBoundingClientRect().width;
  return box && box.width > 0 ? (cell * shown) / box.width : 0;
}

/** The cells to click are smaller than a fingertip (and not zoomed in on yet). */
function needsZoom(svg) {
  return !zoom && myTurn() && !pending && cellPixels(svg) > 0 && cellPixels(svg) < TOUCH_PX;
}

/** Zooms in on the part of the board around (`x`, `y`) in the window, enough for its cells to be
 * touched, keeping the picture's size. */
function zoomAt(svg, x, y) {
  const box = svg.viewBox.baseVal;
  const rect = svg.getBoundingClientRect();
  const factor = Math.min(MAX_ZOOM, TOUCH_PX / cellPixels(svg));
  const w = box.width / factor;
  const h = box.height / factor;
  const cx = box.x + ((x - rect.left) / rect.width) * box.width;
  const cy = box.y + ((y - rect.top) / rect.height) * box.height;
  const left = Math.min(Math.max(cx - w / 2, box.x), box.x + box.width - w);
  const up = Math.min(Math.max(cy - h / 2, box.y), box.y + box.height - h);
  zoom = `${left} ${up} ${w} ${h}`;
  sizeBoard(svg);
}

function zoomOut() {
  zoom = null;
  const svg = $('board').querySelector('svg');
  if (svg) sizeBoard(svg);
}

function renderZoomOut() {
  const b = $('zoom-out');
  b.hidden = !zoom;
  b.textContent = t('zoom-out');
}

function decorateTargets(svg) {
  const next = myTurn() && !pending && !busy ? picker.next() : [];
  markTargets(svg, next, picker.path, t('or'));
}

function renderPrompt() {
  let words;
  if (plan) words = plan.line.length % 2 === 0 ? t('plans-theirs') : t('plans-yours');
  else if (state.to_move === null) words = t('game-over');
  else if (!state.you) words = tokenRefusal ? `${tokenRefusal} ${t('token-refused')}` : t('watching');
  else if (!myTurn()) words = t('waiting');
  else if (pending) words = '';
  else if (picker.path.length > 0) words = t('choose-next');
  else words = t('your-turn');
  $('prompt').textContent = words;
  const keys = $('keys');
  keys.hidden = !(myTurn() && !pending);
  keys.textContent = keys.hidden ? '' : t(touchScreen() ? 'touch-help' : 'keyboard-help');
}

/** A button of the page's, disabled while a request is under way (`busy`). */
function button(label, kind, action) {
  return makeButton(label, kind, busy, action);
}

function renderControls() {
  const bar = $('controls');
  bar.replaceChildren();
  const preview = $('preview');
  preview.hidden = !pending;
  if (plan) renderPlanControls(bar);
  if (!myTurn()) return;
  if (pending) {
    bar.append(
      button(t('confirm'), 'primary', confirmMove),
      button(t('back'), '', () => {
        pending = null;
        picker.back();
        renderPlay();
      }),
      button(t('cancel'), '', cancel),
    );
    return;
  }
  for (const m of picker.buttons()) {
    bar.append(button(m.words, 'move', () => choose(m)));
  }
  const done = picker.complete();
  if (done && picker.next().length > 0) {
    bar.append(button(done.words, 'move', () => choose(done)));
  }
  if (picker.path.length > 0) {
    bar.append(
      button(t('back'), '', () => {
        picker.back();
        renderPlay();
      }),
    );
    // Planning has its own Cancel (back to the live board); Undo takes a whole move back.
    if (!plan) bar.append(button(t('cancel'), '', cancel));
  }
}

/** Save line (a whole line: pairs of moves), Undo (one move back), Cancel (the live board). */
function renderPlanControls(bar) {
  const save = button(t('plans-save'), 'primary', planSave);
  save.disabled = busy || plan.line.length < 2 || plan.line.length % 2 !== 0;
  const undo = button(t('plans-undo'), '', () => planShow(plan.line.slice(0, -1)));
  undo.disabled = busy || plan.line.length === 0;
  bar.append(save, undo, button(t('plans-cancel'), '', planStop));
}

function cancel() {
  pending = null;
  picker.reset();
  renderPlay();
}

function focusFirst() {
  const first = $('board').querySelector('.target.next') || $('controls').querySelector('button');
  if (first) first.focus();
}

function clickCell(cell) {
  if (!myTurn() || pending || busy) return;
  if (!picker.choose(cell)) return;
  const done = picker.complete();
  if (done && picker.next().length === 0) {
    choose(done);
    return;
  }
  renderPlay();
}

async function choose(move) {
  if (plan) {
    // A move of the line being planned: nothing is played.
    picker.reset();
    planShow([...plan.line, move.notation]);
    return;
  }
  pending = { notation: move.notation, words: move.words };
  say('', '');
  busy = true;
  renderPlay();
  $('preview-heading').textContent = t('preview');
  $('preview-words').textContent = move.words;
  $('preview-board').replaceChildren();
  try {
    const response = await fetch(`${api}preview`, {
      method: 'POST',
      headers: headers(true),
      body: JSON.stringify({ move: move.notation }),
    });
    if (!response.ok) {
      say(`${t('refused')} ${await errorWords(response)}`, 'refusal');
      pending = null;
      busy = false;
      picker.reset();
      renderPlay();
      // The page may have missed a change: show the game as it stands.
      await refresh();
      return;
    }
    const body = await response.json();
    if (!pending || pending.notation !== move.notation) return;
    $('preview-board').innerHTML = body.svg || '';
    if (body.words) $('preview-words').textContent = body.words;
  } catch (_) {
    $('preview-words').textContent = `${move.words} — ${t('preview-failed')}`;
  }
  busy = false;
  renderControls();
  const confirm = $('controls').querySelector('button.primary');
  if (confirm) confirm.focus();
}

async function confirmMove() {
  if (!pending || busy) return;
  busy = true;
  renderControls();
  say(t('sending'), '');
  try {
    const response = await fetch(`${api}move`, {
      method: 'POST',
      headers: headers(true),
      body: JSON.stringify({ move: pending.notation, version: state.version }),
    });
    if (response.ok) {
      const body = await response.json();
      say('', '');
      announce(body.text || '');
      $('status').textContent = body.text || state.status;
    } else {
      say(`${t('refused')} ${await errorWords(response)}`, 'refusal');
    }
  } catch (_) {
    say(t('error'), 'refusal');
  }
  busy = false;
  pending = null;
  picker.reset();
  await refresh();
  renderPlay();
}

/** The kind of pointer that last pressed on the board (`mouse`, `touch`, `pen`). */
let pointer = '';

/** Whether a click came from a finger: only a touch zooms, a mouse or pen chooses at once. */
function byTouch(event) {
  return (event.pointerType || pointer) === 'touch';
}

function onBoardEvent(event) {
  const keyboard = event.type === 'keydown';
  const svg = $('board').querySelector('svg');
  if (!keyboard && svg && byTouch(event) && needsZoom(svg)) {
    zoomAt(svg, event.clientX, event.clientY);
    return;
  }
  const g = event.target.closest && event.target.closest('.target.next');
  if (!g) return;
  if (keyboard) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
  }
  clickCell(g.getAttribute('data-cell'));
  if (keyboard) focusFirst();
}

// ------------------------------------------------------------------------------------------
// Live updates

function setLive(on) {
  const live = $('live');
  live.hidden = !state;
  live.textContent = on ? t('live') : t('reconnecting');
  live.classList.toggle('off', !on);
}

/** The live stream while it is open, else null. */
let stream = null;
/** The page is hidden or left (it may come back from the browser's back/forward cache). */
let away = false;
/** The page has shown its game and follows it (after its first State). */
let following = false;

/** Opens the live stream, unless it is open or the page is away. */
function connect() {
  if (stream || away) return;
  const events = new EventSource(`${api}events`);
  stream = events;
  let lost = false;
  events.addEventListener('state', (event) => {
    setLive(true);
    if (token) {
      refresh();
      return;
    }
    try {
      apply(JSON.parse(event.data));
    } catch (_) {
      refresh();
    }
  });
  events.addEventListener('open', () => {
    setLive(true);
    // Back after a break: what changed meanwhile is read again.
    if (lost) refresh();
    lost = false;
  });
  events.addEventListener('error', () => {
    lost = true;
    setLive(false);
    if (events.readyState === EventSource.CLOSED) {
      events.close();
      if (stream === events) stream = null;
      window.setTimeout(() => {
        if (away) return;
        connect();
        refresh();
      }, 2000);
    }
  });
}

// A page left open holds no stream: a browser keeps the pages behind Back alive for a while,
// and each live stream they held would count against the address's streams. Back again, the
// page opens its stream anew and reads what changed meanwhile.
function leave() {
  away = true;
  if (stream) stream.close();
  stream = null;
}

function back(event) {
  if (!event.persisted) return;
  away = false;
  if (!following) return;
  connect();
  refresh();
}

// ------------------------------------------------------------------------------------------
// Inside Discord

function showParticipants(list) {
  const section = $('activity');
  section.hidden = false;
  $('participants-heading').textContent = t('participants');
  const ul = $('participants');
  ul.replaceChildren();
  for (const p of list) {
    const li = document.createElement('li');
    li.textContent = p.nickname || p.global_name || p.username || p.id;
    li.dataset.user = p.id;
    ul.append(li);
  }
}

/** The member's games as buttons, and the course (the learn page, signed in with the Activity's
 * `session`, in the client's `locale`); resolves to the chosen game's id. */
function chooseGame(games, { session, locale: inLocale } = {}) {
  const section = $('choose');
  section.hidden = false;
  $('game').setAttribute('aria-busy', 'false');
  $('status').textContent = '';
  $('choose-heading').textContent = games.length ? t('choose-game') : t('no-games');
  const list = $('game-list');
  list.replaceChildren();
  const learn = $('learn-link');
  learn.hidden = !session;
  if (session) {
    const q = inLocale ? `?lang=${encodeURIComponent(inLocale)}` : '';
    learn.href = `${base}learn${q}#t=${encodeURIComponent(session)}`;
    learn.textContent = t('learn');
  }
  return new Promise((resolve) => {
    for (const g of games) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = g.your_turn ? 'primary' : '';
      const turn = g.your_turn ? ` · ${t('your-move')}` : '';
      b.textContent = `#${g.id} ${KINDS[g.kind] || g.kind}: ${(g.players || []).join(' – ')}${turn}`;
      b.addEventListener('click', () => {
        section.hidden = true;
        resolve(String(g.id));
      });
      li.append(b);
      list.append(li);
    }
  });
}

async function startInDiscord(frame) {
  const { startActivity } = await import('./activity.js');
  try {
    const opened = await startActivity(frame, base, {
      show: (words) => {
        $('status').textContent = words;
      },
      choose: chooseGame,
      onParticipants: showParticipants,
      onTexts: (words) => {
        texts = words;
      },
      onSession: (session) => {
        // Unless the session was refused meanwhile (the page then watches).
        if (token) token = session;
      },
    });
    token = opened.session;
    locale = opened.locale;
    gameId = opened.game;
    api = `${base}api/game/${gameId}/`;
    return true;
  } catch (e) {
    say(`${t('sign-in-failed')} ${e.message}`.trim(), 'refusal');
    $('status').textContent = '';
    return false;
  }
}

async function start() {
  $('board').addEventListener('pointerdown', (event) => {
    pointer = event.pointerType || '';
  });
  $('board').addEventListener('click', onBoardEvent);
  $('board').addEventListener('keydown', onBoardEvent);
  $('zoom-out').addEventListener('click', zoomOut);
  $('moves').addEventListener('click', onMovesClick);
  $('play').addEventListener('click', onStepButton);
  $('step-bar').addEventListener('click', onStepButton);
  $('live-again').addEventListener('click', () => showPly(null));
  $('chart-plot').addEventListener('click', onChartClick);
  $('chart-plot').addEventListener('keydown', onChartKey);
  $('sound').addEventListener('click', toggleSound);
  $('notes-save').addEventListener('click', saveNotes);
  $('plans-add').addEventListener('click', addPlan);
  $('plans-board').addEventListener('click', planStart);
  $('notes-text').addEventListener('input', renderNotes);
  document.addEventListener('keydown', onKey);
  window.addEventListener('pagehide', leave);
  window.addEventListener('pageshow', back);
  window.addEventListener('resize', () => {
    const svg = $('board').querySelector('svg');
    if (svg && state) sizeBoard(svg);
  });
  window.setInterval(tick, 1000);
  if (!where) {
    const { activityFrame } = await import('./activity.js');
    const frame = activityFrame(location.search);
    if (!frame || !(await startInDiscord(frame))) return;
  }
  refresh().then(() => {
    following = true;
    connect();
    loadNotes();
  });
}

start();
