// The learn page: the course of a game, level by level. The server sends each level's goal, its
// board and the learner's legal moves with their steps; the learner clicks the board (the game
// page's picker and marks, picker.js) and the move goes to the server, which answers in place:
// the reason a move is refused (try again), the opponent's reply, or the stars and Next. A
// member's progress (their link's token or the Activity's session in the fragment, `#t=…`) is
// kept by the server; anyone else's in this browser (localStorage), sent with each request. No
// framework, no inline code; every address is relative to the page's.

import { Picker, makeButton, markTargets } from './picker.js';

const $ = (id) => document.getElementById(id);
const GAMES = [
  ['inphexion', 'inpHeXion'],
  ['exxit', 'EXXIT'],
];
/** Where a browser keeps its progress: {"inphexion/first-disc": 3, …}. */
const STORE = 'hexcord-learn';

const query = new URLSearchParams(location.search);
const token = new URLSearchParams(location.hash.slice(1)).get('t');
const lang = query.get('lang');
let game = GAMES.some(([g]) => g === query.get('game')) ? query.get('game') : GAMES[0][0];
let view = null;
let texts = {};
let picker = new Picker([]);
let busy = false;

const t = (key) => texts[key] || '';

function api(path) {
  return lang ? `api/learn/${path}?lang=${encodeURIComponent(lang)}` : `api/learn/${path}`;
}

function headers() {
  const h = { 'Content-Type': 'application/json' };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** The levels this browser finished, with their stars. */
function stored() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(STORE) || '{}');
    return kept && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
  } catch (_) {
    return {};
  }
}

function keep(key, stars) {
  const done = stored();
  done[key] = Math.max(done[key] || 0, stars);
  try {
    window.localStorage.setItem(STORE, JSON.stringify(done));
  } catch (_) {
    // Storage refused: the progress lasts as long as the page.
  }
}

function say(words) {
  const alert = $('alert');
  alert.textContent = words;
  alert.hidden = !words;
}

async function errorWords(response) {
  try {
    const body = await response.json();
    return body.error || `${response.status}`;
  } catch (_) {
    return `${response.status}`;
  }
}

async function post(path, body) {
  const response = await fetch(api(path), {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await errorWords(response));
  return response.json();
}

/** Opens the learner's level of `game` (keeping `said` when it is what the page must show). */
async function open(keepAlert) {
  busy = true;
  $('learn').setAttribute('aria-busy', 'true');
  if (!keepAlert) say('');
  try {
    const body = { game };
    if (!token) body.done = stored();
    show(await post('open', body));
  } catch (e) {
    say(`${t('load-failed')} ${e.message}`.trim());
  }
  busy = false;
  $('learn').setAttribute('aria-busy', 'false');
  render();
}

async function send(move) {
  if (busy || !view || !view.level) return;
  busy = true;
  render();
  $('prompt').textContent = t('sending');
  const level = view.level;
  const body = { game, move: move.notation };
  if (token) {
    body.version = level.version;
  } else {
    Object.assign(body, { level: level.key, moves: level.moves, tries: level.tries, done: stored() });
  }
  try {
    const next = await post('move', body);
    say('');
    if (!token && next.said && next.said.kind === 'done' && next.level) {
      keep(next.level.key, next.said.stars || 1);
    }
    show(next);
    busy = false;
  } catch (e) {
    // A page left behind, or a level gone: said, then the level as it stands.
    busy = false;
    say(e.message);
    await open(true);
    return;
  }
  render();
  const first = $('board').querySelector('.target.next') || $('controls').querySelector('button');
  if (first && document.activeElement === document.body) first.focus();
}

function show(next) {
  view = next;
  texts = next.texts || {};
  picker = new Picker(next.level && !next.level.done ? next.level.legal : []);
}

/** A button of the page's, disabled while a request is under way (`busy`). */
function button(label, kind, action) {
  return makeButton(label, kind, busy, action);
}

function renderGames() {
  const nav = $('games');
  nav.setAttribute('aria-label', t('games'));
  nav.replaceChildren();
  for (const [name, title] of GAMES) {
    const b = button(title, '', () => {
      if (name === game) return;
      game = name;
      const q = new URLSearchParams(location.search);
      q.set('game', name);
      history.replaceState(null, '', `?${q}${location.hash}`);
      open();
    });
    b.dataset.game = name;
    b.setAttribute('aria-pressed', String(name === game));
    nav.append(b);
  }
}

function renderSaid() {
  const said = view.said;
  const box = $('said');
  box.hidden = !said;
  box.className = `learn-said ${said ? said.kind : ''}`;
  box.dataset.kind = said ? said.kind : '';
  $('said-words').innerHTML = said ? said.html : '';
  const stars = $('stars');
  stars.hidden = !(said && said.stars);
  stars.textContent = said && said.stars ? '★'.repeat(said.stars) + '☆'.repeat(3 - said.stars) : '';
  stars.dataset.stars = said && said.stars ? String(said.stars) : '';
  const more = $('said-more');
  more.replaceChildren();
  for (const html of (said && said.more) || []) {
    const p = document.createElement('p');
    p.innerHTML = html;
    more.append(p);
  }
}

function renderBoard() {
  const level = view.level;
  const board = $('board');
  board.innerHTML = level ? level.svg : '';
  board.setAttribute('aria-label', t('board'));
  const svg = board.querySelector('svg');
  if (svg) svg.setAttribute('focusable', 'false');
  const next = level && !level.done && !busy ? picker.next() : [];
  markTargets(svg, next, picker.path, t('or'));
}

function renderControls() {
  const bar = $('controls');
  bar.replaceChildren();
  const level = view.level;
  if (!level) return;
  if (level.done) {
    if (level.next) bar.append(button(t('next'), 'primary', () => open()));
    return;
  }
  for (const m of picker.buttons()) bar.append(button(m.words, 'move', () => send(m)));
  const done = picker.complete();
  if (done && picker.next().length > 0) bar.append(button(done.words, 'move', () => send(done)));
  if (picker.path.length > 0) {
    bar.append(
      button(t('back'), '', () => {
        picker.back();
        render();
      }),
      button(t('cancel'), '', () => {
        picker.reset();
        render();
      }),
    );
  }
}

function render() {
  renderGames();
  if (!view) return;
  document.documentElement.lang = view.lang;
  document.title = t('title');
  $('heading').textContent = t('heading');
  $('progress').textContent = view.progress ? view.progress.words : '';
  $('kept').textContent = view.member ? t('kept-member') : t('kept-browser');
  const q = `?lang=${encodeURIComponent(view.lang)}`;
  $('home').textContent = t('home');
  $('home').href = `./${q}`;
  $('rules').textContent = t('rules');
  $('rules').href = `rules/${game}${q}`;
  const level = view.level;
  $('level').dataset.level = level ? level.key : '';
  $('level-heading').innerHTML = level ? level.heading : '';
  $('goal').innerHTML = level ? level.goal : '';
  $('you-play').textContent = level ? level.you_play : '';
  renderSaid();
  renderBoard();
  let prompt = '';
  if (level && !level.done && !busy) prompt = picker.path.length ? t('choose-next') : t('your-move');
  $('prompt').textContent = prompt;
  renderControls();
}

function clickCell(cell) {
  if (busy || !view || !view.level || view.level.done) return;
  if (!picker.choose(cell)) return;
  const done = picker.complete();
  if (done && picker.next().length === 0) {
    picker.reset();
    send(done);
    return;
  }
  render();
}

function onBoardEvent(event) {
  const keyboard = event.type === 'keydown';
  const g = event.target.closest && event.target.closest('.target.next');
  if (!g) return;
  if (keyboard) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
  }
  clickCell(g.getAttribute('data-cell'));
  if (keyboard) {
    const first = $('board').querySelector('.target.next') || $('controls').querySelector('button');
    if (first) first.focus();
  }
}

$('board').addEventListener('click', onBoardEvent);
$('board').addEventListener('keydown', onBoardEvent);
open();
