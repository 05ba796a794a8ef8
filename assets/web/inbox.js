// A member's inbox: every game waiting for their move, the least time left first, kept current
// by the server's live list (GET api/inbox/events with the token of the address's fragment,
// `#t=…`, read with fetch so that the token goes in a header, never in an address). The chosen
// game is played in a frame of its own page (game/<id>) with the same token. Under the list, the
// lobby: the open seeks and challenges of the member's servers (GET api/lobby, read again with
// each change of the list and every half minute), each with its Accept (POST api/lobby/accept),
// after which the game started opens in the frame. Every word comes from the list's texts.

const base = location.pathname.replace(/inbox\/?$/, '');
const token = new URLSearchParams(location.hash.slice(1)).get('t');
// Another link opened in this tab changes only the fragment: the page starts again with its
// token, never showing one member's games under another's link.
window.addEventListener('hashchange', () => location.reload());
/** The page's words (page.ftl's `page-…`) and the inbox's own (`inbox-page-…`). */
let texts = {};
let own = {};
let games = [];
/** The game shown in the frame, or null. */
let chosen = null;
/** The refusal of the token: the page stops asking. */
let refused = false;
/** The live list's request while it is open (its controller), else null. */
let stream = null;
/** The page is hidden or left (it may come back from the browser's back/forward cache). */
let away = false;
/** The lobby's open seeks and challenges, as last read. */
let offers = [];
/** An accept is on its way: the lobby's buttons wait. */
let accepting = false;

const $ = (id) => document.getElementById(id);

function headers() {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** A number of seconds as `1d 02:03:04` or `02:03:04`. */
function duration(secs) {
  const d = Math.floor(secs / 86400);
  const pad = (n) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor((secs % 86400) / 3600))}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
  return d > 0 ? `${d}${texts.days || ''} ${hms}` : hms;
}

function leftWords(deadline) {
  if (!deadline) return own['no-deadline'] || '';
  const left = Date.parse(deadline) - Date.now();
  return left > 0
    ? `${texts.deadline || ''} ${duration(Math.floor(left / 1000))}`
    : texts['deadline-passed'] || '';
}

function live(on) {
  const mark = $('live');
  mark.hidden = false;
  mark.classList.toggle('off', !on);
  mark.textContent = on ? texts.live || '' : texts.reconnecting || '';
}

function say(words) {
  const line = $('alert');
  line.hidden = !words;
  line.textContent = words || '';
}

function choose(id) {
  chosen = id;
  const frame = $('frame');
  frame.title = own.board || '';
  frame.hidden = false;
  frame.src = `${base}game/${id}#t=${token}`;
  $('choose').hidden = true;
  render();
}

function render() {
  const list = $('games');
  list.replaceChildren(
    ...games.map((g) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.game = String(g.id);
      button.setAttribute('aria-current', String(g.id === chosen));
      button.textContent = g.words;
      const time = document.createElement('time');
      if (g.deadline) time.dateTime = g.deadline;
      time.textContent = leftWords(g.deadline);
      button.append(time);
      button.addEventListener('click', () => choose(g.id));
      item.append(button);
      return item;
    }),
  );
  $('empty').hidden = games.length > 0;
  $('empty').textContent = own.empty || '';
  $('choose').hidden = chosen !== null || games.length === 0;
  $('choose').textContent = own.choose || '';
}

function apply(inbox) {
  if (inbox.texts) texts = inbox.texts;
  if (inbox.inbox_texts) own = inbox.inbox_texts;
  if (inbox.lang) document.documentElement.lang = inbox.lang;
  document.title = own.title || document.title;
  $('heading').textContent = own.heading || '';
  games = Array.isArray(inbox.games) ? inbox.games : [];
  $('inbox').setAttribute('aria-busy', 'false');
  render();
  // A change of the member's games may be a seek or challenge taken.
  loadLobby();
}

function tick() {
  for (const time of $('games').querySelectorAll('time')) {
    time.textContent = leftWords(time.dateTime || null);
  }
  for (const time of $('offers').querySelectorAll('time')) {
    time.textContent = openWords(time.dateTime);
  }
}

/** How long an open seek or challenge stays open. */
function openWords(expires) {
  const left = Math.max(0, Math.floor((Date.parse(expires) - Date.now()) / 1000));
  return `${own['lobby-until'] || ''} ${duration(left)}`;
}

function renderLobby() {
  $('lobby').hidden = false;
  $('lobby-heading').textContent = own['lobby-heading'] || '';
  $('lobby-empty').hidden = offers.length > 0;
  $('lobby-empty').textContent = own['lobby-empty'] || '';
  $('offers').replaceChildren(
    ...offers.map((o) => {
      const item = document.createElement('li');
      item.dataset.kind = o.kind;
      item.dataset.id = String(o.id);
      const server = document.createElement('span');
      server.className = 'server';
      server.textContent = o.server;
      const words = document.createElement('span');
      words.className = 'words';
      words.textContent = o.words;
      const time = document.createElement('time');
      time.dateTime = o.expires;
      time.textContent = openWords(o.expires);
      item.append(server, words, time);
      if (o.mine) {
        const yours = document.createElement('span');
        yours.className = 'yours';
        yours.textContent = own['lobby-yours'] || '';
        item.append(yours);
      } else {
        const accepts = document.createElement('div');
        accepts.className = 'accepts';
        o.choices.forEach((label, variant) => {
          const button = document.createElement('button');
          button.type = 'button';
          button.dataset.variant = String(variant);
          button.disabled = accepting;
          button.textContent = label;
          button.addEventListener('click', () => accept(o, variant));
          accepts.append(button);
        });
        item.append(accepts);
      }
      return item;
    }),
  );
}

function tell(words) {
  const line = $('lobby-said');
  line.hidden = !words;
  line.textContent = words || '';
}

/** Reads the lobby again (nothing while the token is refused or the page is away). */
async function loadLobby() {
  if (!token || refused || away) return;
  try {
    const response = await fetch(`${base}api/lobby`, { headers: headers(), cache: 'no-store' });
    // A refused token: the live list says why.
    if (response.status === 401 || response.status === 403) return;
    if (!response.ok) throw new Error(String(response.status));
    const lobby = await response.json();
    offers = Array.isArray(lobby.offers) ? lobby.offers : [];
    renderLobby();
  } catch (_) {
    if (!accepting) tell(own['lobby-failed'] || '');
  }
}

/** Accepts variant `variant` of offer `o`: the game started opens in the frame. */
async function accept(o, variant) {
  if (accepting) return;
  accepting = true;
  renderLobby();
  let body = {};
  let ok = false;
  try {
    const response = await fetch(`${base}api/lobby/accept`, {
      method: 'POST',
      headers: { ...headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: o.kind, id: o.id, variant }),
      cache: 'no-store',
    });
    ok = response.ok;
    try {
      body = await response.json();
    } catch (_) {
      // Not JSON: no words.
    }
  } catch (_) {
    body = { error: own['lobby-failed'] || '' };
  }
  accepting = false;
  tell(ok ? body.text : body.error || own['lobby-failed'] || '');
  if (ok && Number.isInteger(body.game)) choose(body.game);
  await loadLobby();
}

/** The events of a Server-Sent Events body, as they arrive. */
async function* events(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) yield { name, data: data.join('\n') };
    }
  }
}

/** Opens the live list, unless it is open, refused, or the page is away. */
async function connect() {
  if (stream || refused || away) return;
  const controller = new AbortController();
  stream = controller;
  try {
    const response = await fetch(`${base}api/inbox/events`, {
      headers: headers(),
      cache: 'no-store',
      signal: controller.signal,
    });
    if (response.status === 401 || response.status === 403) {
      let words = '';
      try {
        words = (await response.json()).error || '';
      } catch (_) {
        // Not JSON: no words.
      }
      refused = true;
      games = [];
      $('games').replaceChildren();
      $('frame').hidden = true;
      $('live').hidden = true;
      offers = [];
      $('offers').replaceChildren();
      $('lobby').hidden = true;
      $('inbox').setAttribute('aria-busy', 'false');
      say(words || own['load-failed'] || 'Refused');
      return;
    }
    if (!response.ok || !response.body) throw new Error(String(response.status));
    for await (const event of events(response.body)) {
      if (event.name !== 'inbox') continue;
      apply(JSON.parse(event.data));
      say('');
      live(true);
    }
  } catch (_) {
    // Dropped or unreachable: said, then tried again; closed by the page: nothing more.
  }
  if (stream === controller) stream = null;
  if (refused || controller.signal.aborted) return;
  if (Object.keys(own).length) live(false);
  else say(own['load-failed'] || '');
  setTimeout(connect, 2000);
}

// A page left open holds no stream: a browser keeps the pages behind Back alive for a while,
// and each live stream they held would count against the address's streams. Back again, the
// page opens its stream anew (the first event is the whole list as it stands).
window.addEventListener('pagehide', () => {
  away = true;
  if (stream) stream.abort();
  stream = null;
});
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  away = false;
  connect();
});

setInterval(tick, 1000);
setInterval(loadLobby, 30000);
connect();
