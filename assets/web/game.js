// The page of one game: the board, the players, whose turn, the time left, the moves and the
// result, kept live by Server-Sent Events; for the player to move (a token in the address's
// fragment, `#t=…`), click to move, a preview, then Confirm. Every word comes from the State's
// `texts` (page.ftl) or the server's own sentences. No framework, no build step, no inline code;
// every address is relative to the page's, so it also works under a path prefix. Inside Discord
// (an Activity: activity.js) the member signs in through Discord instead of a link, and the
// page opens the game of the channel it was launched in.

import { Picker } from './picker.js';

const $ = (id) => document.getElementById(id);
const KINDS = { inphexion: 'inpHeXion', exxit: 'EXXIT' };
/** Touch targets are at least this many CSS pixels across. */
const TOUCH_PX = 46;
/** Below this width the page leaves out the board picture's header. */
const NARROW_PX = 600;

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

function apply(next) {
  if (!next || (state && next.version < state.version)) return;
  const before = state;
  const changed = !before || before.version !== next.version;
  const hadLegal = before && before.legal ? before.legal.length : 0;
  state = next;
  texts = next.texts || {};
  if (before && !changed && (next.legal || []).length === hadLegal && Boolean(next.you) === Boolean(before.you)) {
    // The same position: keep the board (and the reader's focus) as it is.
    tick();
    return;
  }
  if (changed || (next.legal || []).length !== hadLegal) {
    picker = new Picker(next.legal || []);
    if (pending) pending = null;
  }
  if (before && changed) {
    const moves = next.moves || [];
    if (moves.length > (before.moves || []).length) {
      const last = moves[moves.length - 1];
      announce(`${t('new-move')} ${last.words}. ${next.status}`);
    } else {
      announce(next.status);
    }
  }
  render();
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
  renderResult();
  tick();
  renderPlay();
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
    li.append(dot, name);
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
    return;
  }
  for (const m of moves) {
    const li = document.createElement('li');
    li.value = m.ply;
    const notation = document.createElement('span');
    notation.className = 'notation';
    notation.textContent = m.notation;
    const words = document.createElement('span');
    words.className = 'words';
    words.textContent = m.words;
    li.append(notation, words);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

function renderResult() {
  const result = $('result');
  result.hidden = !state.result;
  result.textContent = state.result ? `${t('result')}: ${state.result}` : '';
}

function tick() {
  if (!state) return;
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
  const secs = Math.floor(left / 1000);
  const d = Math.floor(secs / 86400);
  const pad = (n) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor((secs % 86400) / 3600))}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
  out.textContent = d > 0 ? `${d}${t('days')} ${hms}` : hms;
}

// ------------------------------------------------------------------------------------------
// The board and click to move

function myTurn() {
  return state && state.you && state.to_move === state.you.seat && !picker.empty;
}

function renderPlay() {
  const board = $('board');
  const focused = document.activeElement;
  const hadFocus = focused && board.contains(focused);
  board.innerHTML = state.svg || '';
  const svg = board.querySelector('svg');
  board.hidden = Boolean(pending);
  const touch = myTurn();
  if (svg) {
    svg.setAttribute('focusable', 'false');
    sizeBoard(svg, touch);
  }
  decorateTargets(svg);
  renderPrompt();
  renderControls();
  if (hadFocus) focusFirst();
}

/** Wide enough that a cell is a comfortable touch target when the player has to click; on a
 * narrow screen without the picture's header, which the page shows in words above it. */
function sizeBoard(svg, touch) {
  const cell = parseFloat(svg.dataset.cellSize || '0');
  const box = svg.viewBox && svg.viewBox.baseVal;
  const room = $('board').clientWidth;
  const top = parseFloat(svg.dataset.boardTop || '0');
  if (box && !svg.dataset.full) svg.dataset.full = `${box.width} ${box.height}`;
  const [fullW, fullH] = (svg.dataset.full || '0 0').split(' ').map(Number);
  if (fullW > 0 && top > 0 && top < fullH) {
    const crop = room < NARROW_PX ? top : 0;
    svg.setAttribute('viewBox', `0 ${crop} ${fullW} ${fullH - crop}`);
  }
  let zoomed = false;
  if (touch && cell > 0 && box && box.width > 0) {
    const need = Math.ceil((box.width * TOUCH_PX) / cell);
    if (need > room) {
      svg.style.width = `${need}px`;
      svg.style.maxWidth = 'none';
      zoomed = true;
    }
  }
  if (!zoomed) {
    svg.style.width = '';
    svg.style.maxWidth = '';
  }
  const hint = $('zoom-hint');
  hint.hidden = !zoomed;
  hint.textContent = zoomed ? t('zoom-hint') : '';
}

function decorateTargets(svg) {
  if (!svg) return;
  const next = new Map();
  if (myTurn() && !pending && !busy) {
    for (const n of picker.next()) next.set(n.cell, n);
  }
  const chosen = new Set(picker.path);
  for (const g of svg.querySelectorAll('.target')) {
    const cell = g.getAttribute('data-cell');
    const option = next.get(cell);
    const title = g.querySelector('title');
    const name = title ? title.textContent : cell;
    g.classList.toggle('next', Boolean(option));
    g.classList.toggle('chosen', chosen.has(cell));
    if (option) {
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `${name}: ${option.labels.join(` ${t('or')} `)}`);
    } else {
      g.removeAttribute('tabindex');
      g.removeAttribute('role');
      g.removeAttribute('aria-label');
    }
  }
}

function renderPrompt() {
  let words;
  if (state.to_move === null) words = t('game-over');
  else if (!state.you) words = tokenRefusal ? `${tokenRefusal} ${t('token-refused')}` : t('watching');
  else if (!myTurn()) words = t('waiting');
  else if (pending) words = '';
  else if (picker.path.length > 0) words = t('choose-next');
  else words = t('your-turn');
  $('prompt').textContent = words;
  const keys = $('keys');
  keys.hidden = !(myTurn() && !pending);
  keys.textContent = keys.hidden ? '' : t('keyboard-help');
}

function button(label, kind, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = kind;
  b.textContent = label;
  b.disabled = busy;
  b.addEventListener('click', action);
  return b;
}

function renderControls() {
  const bar = $('controls');
  bar.replaceChildren();
  const preview = $('preview');
  preview.hidden = !pending;
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
      button(t('cancel'), '', cancel),
    );
  }
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

function onBoardEvent(event) {
  const g = event.target.closest && event.target.closest('.target.next');
  if (!g) return;
  if (event.type === 'keydown') {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
  }
  const keyboard = event.type === 'keydown';
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

function connect() {
  const events = new EventSource(`${api}events`);
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
  events.addEventListener('open', () => setLive(true));
  events.addEventListener('error', () => {
    setLive(false);
    if (events.readyState === EventSource.CLOSED) {
      events.close();
      window.setTimeout(connect, 2000);
    }
  });
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

/** The member's games as buttons; resolves to the chosen game's id. */
function chooseGame(games) {
  const section = $('choose');
  section.hidden = false;
  $('game').setAttribute('aria-busy', 'false');
  $('status').textContent = '';
  $('choose-heading').textContent = games.length ? t('choose-game') : t('no-games');
  const list = $('game-list');
  list.replaceChildren();
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
  $('board').addEventListener('click', onBoardEvent);
  $('board').addEventListener('keydown', onBoardEvent);
  window.addEventListener('resize', () => {
    const svg = $('board').querySelector('svg');
    if (svg && state) sizeBoard(svg, myTurn());
  });
  window.setInterval(tick, 1000);
  if (!where) {
    const { activityFrame } = await import('./activity.js');
    const frame = activityFrame(location.search);
    if (!frame || !(await startInDiscord(frame))) return;
  }
  refresh().then(connect);
}

start();
