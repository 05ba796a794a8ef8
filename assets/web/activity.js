// The game page inside Discord, as an Activity. Discord's client loads the page in a frame with
// `frame_id`, `instance_id` and `platform` in its query; the page speaks the Embedded App SDK's
// postMessage protocol with the client itself (opcodes 0 handshake, 1 frame, 2 close; commands
// and their answers matched by nonce, events as DISPATCH frames) as the SDK 2.5.0 does: to the
// window that opened the frame's parent when the Activity is popped out, else to the frame's
// parent, at the origin of the page's referrer; the SDK's version in the handshake (on the
// desktop, and in the mobile app from version 250.x); messages heard only from the origins the
// SDK hears (Discord's clients, the page's own) and only from the client's window. It signs the
// member in through the bot (`api/token`: the client's authorization code exchanged for an
// access token and a session), and asks the bot which game to open for the channel it was
// launched in. Every address is relative, so the page works under Discord's proxy prefix too.
//
// Long sessions: the bot's session is renewed ahead of its expiry (`api/activity/session`), and
// so is the proxy's token (the `discord_proxy_token` cookie Discord's proxy sets on the page's
// origin: a new ticket from the client, `REQUEST_PROXY_TICKET_REFRESH`, traded with the proxy
// for a new cookie), a quarter of an hour ahead or halfway through a shorter life, as the SDK's
// proxy-token monitor does; a failed renewal is tried again while time is left.

const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2 };
/** The Embedded App SDK release whose protocol the page speaks, said in the handshake. */
const SDK_VERSION = '2.5.0';
/** Discord's mobile app says the SDK's version in the handshake from this major version on. */
const MOBILE_SDK_VERSION_FROM = 250;
/** Where the client's messages may come from, besides the page's own origin (the proxy): the
 * origins the SDK 2.5.0 hears (Discord's clients: stable, PTB, Canary, staging, Discord's
 * development client; `null` for a client whose origin is opaque). */
const ORIGINS = new Set([
  'https://discord.com',
  'https://discordapp.com',
  'https://ptb.discord.com',
  'https://ptb.discordapp.com',
  'https://canary.discord.com',
  'https://canary.discordapp.com',
  'https://staging.discord.co',
  'http://localhost:3333',
  'https://pax.discord.com',
  'null',
]);
/** How long before its expiry a session or the proxy's token is renewed (at the latest
 * halfway through its life), and the longest wait before a failed renewal is tried again. */
const RENEW_AHEAD_SECS = 15 * 60;
const RETRY_SECS = 60;

/** The Activity's frame, from the page's query: null outside Discord. */
export function activityFrame(search) {
  const q = new URLSearchParams(search);
  const frameId = q.get('frame_id');
  const instanceId = q.get('instance_id');
  const platform = q.get('platform');
  if (!frameId || !instanceId || !platform || window.parent === window) return null;
  return {
    frameId,
    instanceId,
    platform,
    channelId: q.get('channel_id'),
    guildId: q.get('guild_id'),
    mobileVersion: q.get('mobile_app_version'),
  };
}

/** The client's window: the one that opened the Activity's window when it is popped out,
 * else the frame's parent. */
function clientWindow() {
  try {
    if (window.parent.opener) return window.parent.opener;
  } catch (_) {
    // Another origin's window: not one to speak to.
  }
  return window.parent;
}

/** The client's side of the conversation: commands sent, their answers and the events heard. */
class Client {
  constructor(frameId) {
    this.frameId = frameId;
    this.pending = new Map();
    this.listeners = new Map();
    this.closed = null;
    let origin = '*';
    try {
      if (document.referrer) origin = new URL(document.referrer).origin;
    } catch (_) {
      origin = '*';
    }
    this.origin = origin;
    this.source = clientWindow();
    window.addEventListener('message', (event) => this.receive(event));
  }

  receive(event) {
    if (event.source !== this.source && event.source !== window.parent) return;
    if (!ORIGINS.has(event.origin) && event.origin !== location.origin) return;
    if (!Array.isArray(event.data)) return;
    const [op, payload] = event.data;
    if (!payload || typeof payload !== 'object') return;
    if (op === OP.CLOSE) {
      this.closed = payload;
      for (const { reject } of this.pending.values()) reject(new Error(payload.message || 'closed'));
      this.pending.clear();
      return;
    }
    if (op !== OP.FRAME) return;
    if (payload.cmd === 'DISPATCH') {
      for (const listener of this.listeners.get(payload.evt) || []) listener(payload.data || {});
      return;
    }
    const waiting = payload.nonce && this.pending.get(payload.nonce);
    if (!waiting) return;
    this.pending.delete(payload.nonce);
    if (payload.evt === 'ERROR') {
      const data = payload.data || {};
      waiting.reject(new Error(data.message || `error ${data.code}`));
    } else {
      waiting.resolve(payload.data || {});
    }
  }

  post(op, payload) {
    this.source.postMessage([op, payload], this.origin);
  }

  on(evt, listener) {
    if (!this.listeners.has(evt)) this.listeners.set(evt, []);
    this.listeners.get(evt).push(listener);
  }

  /** The next `evt`, once. */
  once(evt) {
    return new Promise((resolve) => {
      const listener = (data) => {
        this.listeners.set(evt, (this.listeners.get(evt) || []).filter((l) => l !== listener));
        resolve(data);
      };
      this.on(evt, listener);
    });
  }

  command(cmd, args, evt) {
    const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
    return new Promise((resolve, reject) => {
      this.pending.set(nonce, { resolve, reject });
      const frame = { cmd, args: args || {}, nonce };
      if (evt) frame.evt = evt;
      this.post(OP.FRAME, frame);
    });
  }

  /** The handshake; with the SDK's version on the desktop, and in the mobile app from the
   * version that reads it (a version without a dot is unknown, as the SDK reads it). */
  handshake(clientId, frame) {
    const hello = { v: 1, encoding: 'json', client_id: clientId, frame_id: this.frameId };
    const mobile = String(frame.mobileVersion || '');
    const major = mobile.includes('.') ? parseInt(mobile.split('.')[0], 10) : -1;
    if (frame.platform === 'desktop' || major >= MOBILE_SDK_VERSION_FROM) {
      hello.sdk_version = SDK_VERSION;
    }
    this.post(OP.HANDSHAKE, hello);
  }
}

/** When to renew something that lasts `secs` more seconds: in milliseconds from now. */
function renewIn(secs) {
  return Math.max(0, secs - Math.min(RENEW_AHEAD_SECS, secs / 2)) * 1000;
}

/** When a failed renewal of something lasting `secs` more is tried again: in milliseconds,
 * or null when no time is left. */
function retryIn(secs) {
  return secs > 1 ? Math.min(RETRY_SECS, secs / 2) * 1000 : null;
}

/** The Unix time the proxy's token expires at, from its cookie (`<payload>.<signature>`, the
 * payload base64 JSON with `expires_at`), or null without a readable one. */
export function proxyTokenExpiry(cookies) {
  for (const cookie of String(cookies || '').split(';')) {
    const eq = cookie.indexOf('=');
    if (eq < 0 || cookie.slice(0, eq).trim() !== 'discord_proxy_token') continue;
    for (const part of cookie.slice(eq + 1).trim().split('.')) {
      try {
        const payload = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
        if (payload && Number.isFinite(payload.expires_at)) return payload.expires_at;
      } catch (_) {
        // Not the payload: the next part.
      }
    }
  }
  return null;
}

/** Keeps the proxy's token renewed ahead of its expiry: a new ticket from the client, traded
 * with the proxy (which sets the new cookie) by a request carrying it. Nothing to do where no
 * token can be read (outside Discord's proxy). */
function keepProxyToken(client, base) {
  const schedule = () => {
    const expires = proxyTokenExpiry(document.cookie);
    if (expires === null) return;
    const left = expires - Date.now() / 1000;
    window.setTimeout(async () => {
      try {
        const { ticket } = await client.command('REQUEST_PROXY_TICKET_REFRESH', {});
        if (typeof ticket !== 'string' || !ticket) throw new Error('no ticket');
        const traded = `${base}api/activity?discord_proxy_ticket=${encodeURIComponent(ticket)}`;
        await fetch(traded, { cache: 'no-store', credentials: 'same-origin' });
      } catch (_) {
        // Tried again below.
      }
      const now = proxyTokenExpiry(document.cookie);
      if (now !== null && now > expires) {
        schedule();
        return;
      }
      const wait = retryIn(expires - Date.now() / 1000);
      if (wait !== null) window.setTimeout(schedule, wait);
    }, renewIn(left));
  };
  schedule();
}

/** Keeps the bot's session renewed ahead of its expiry (`secs` from now); `onSession` gets
 * each new one. A session refused stays as it is (the page then says so). */
function keepSession(base, session, secs, onSession) {
  let current = session;
  let expiresAt = Date.now() / 1000 + secs;
  const schedule = (wait) => {
    window.setTimeout(async () => {
      let response = null;
      try {
        response = await fetch(`${base}api/activity/session`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${current}` },
          cache: 'no-store',
        });
      } catch (_) {
        response = null;
      }
      if (response && response.ok) {
        const renewed = await json(response).catch(() => null);
        if (renewed && typeof renewed.session === 'string' && renewed.expires_in > 0) {
          current = renewed.session;
          expiresAt = Date.now() / 1000 + renewed.expires_in;
          onSession(current);
          schedule(renewIn(renewed.expires_in));
          return;
        }
      }
      if (response && (response.status === 401 || response.status === 403)) return;
      const again = retryIn(expiresAt - Date.now() / 1000);
      if (again !== null) schedule(again);
    }, wait);
  };
  schedule(renewIn(secs));
}

async function json(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    throw new Error(body && typeof body.error === 'string' ? body.error : `${response.status}`);
  }
  return body;
}

/**
 * Signs the member in and finds the game to open. `base` is the page's directory; `show` says
 * a step in words; `choose` lets the member pick among games (given the session and the client's
 * locale, for the course's link); `onTexts` gets the page's words
 * before a game is open. Resolves to {session, game, locale}; `onParticipants` hears the
 * instance's participants, `onSession` each renewed session.
 */
export async function startActivity(
  frame,
  base,
  { show, choose, onParticipants, onTexts, onSession },
) {
  const info = await json(await fetch(`${base}api/activity`, { cache: 'no-store' }));
  const texts = info.texts || {};
  onTexts(texts);
  show(texts['signing-in'] || '…');
  const client = new Client(frame.frameId);
  const ready = client.once('READY');
  client.handshake(info.client_id, frame);
  const hello = await ready;
  const claimed = hello.user && hello.user.id ? String(hello.user.id) : undefined;
  const authorized = await client.command('AUTHORIZE', {
    client_id: info.client_id,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify'],
  });
  const signedIn = await json(
    await fetch(`${base}api/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: authorized.code, user: claimed }),
    }),
  );
  await client.command('AUTHENTICATE', { access_token: signedIn.access_token });
  keepProxyToken(client, base);
  const lasts = Number(signedIn.expires_in);
  if (Number.isFinite(lasts) && lasts > 0) keepSession(base, signedIn.session, lasts, onSession);
  let locale = null;
  try {
    const settings = await client.command('USER_SETTINGS_GET_LOCALE', {});
    locale = settings.locale || null;
  } catch (_) {
    locale = null;
  }
  client.on('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', (data) => onParticipants(data.participants || []));
  client
    .command('SUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')
    .catch(() => null);
  client
    .command('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS', {})
    .then((data) => onParticipants(data.participants || []))
    .catch(() => null);
  const headers = { Authorization: `Bearer ${signedIn.session}` };
  if (locale) headers['Accept-Language'] = locale;
  const channel = frame.channelId ? `?channel=${encodeURIComponent(frame.channelId)}` : '';
  const found = await json(
    await fetch(`${base}api/activity/games${channel}`, { headers, cache: 'no-store' }),
  );
  const game = found.game
    ? String(found.game)
    : await choose(found.games || [], { session: signedIn.session, locale });
  return { session: signedIn.session, game, locale };
}
