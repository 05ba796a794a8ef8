// The game page inside Discord, as an Activity. Discord's client loads the page in a frame with
// `frame_id`, `instance_id` and `platform` in its query; the page speaks the Embedded App SDK's
// postMessage protocol with the client itself (opcodes 0 handshake, 1 frame, 2 close; commands
// and their answers matched by nonce, events as DISPATCH frames) as the SDK 2.5.0 does: to the
// window that opened the frame's window when the Activity is popped out, else to the frame's
// parent; the SDK's version in the handshake; messages heard only from Discord's clients' origins
// (stable, PTB, Canary) and the page's own. It signs the member in through
// the bot (`api/token`: the client's authorization code exchanged for an access token and a
// session), and asks the bot which game to open for the channel it was launched in. Every
// address is relative, so the page works under Discord's proxy prefix too.

const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2 };
/** The Embedded App SDK release whose protocol the page speaks, said in the handshake. */
const SDK_VERSION = '2.5.0';
/** Discord's mobile app says the SDK's version in the handshake from this major version on. */
const MOBILE_SDK_VERSION_FROM = 250;
/** Where the client's messages may come from: Discord's clients (stable, PTB, Canary) and the
 * page's own origin (the proxy), as the SDK accepts them. */
const ORIGINS = new Set([
  'https://discord.com',
  'https://discordapp.com',
  'https://ptb.discord.com',
  'https://ptb.discordapp.com',
  'https://canary.discord.com',
  'https://canary.discordapp.com',
]);

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
   * version that reads it. */
  handshake(clientId, frame) {
    const hello = { v: 1, encoding: 'json', client_id: clientId, frame_id: this.frameId };
    const major = parseInt(String(frame.mobileVersion || '').split('.')[0], 10);
    if (frame.platform === 'desktop' || major >= MOBILE_SDK_VERSION_FROM) {
      hello.sdk_version = SDK_VERSION;
    }
    this.post(OP.HANDSHAKE, hello);
  }
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
 * a step in words; `choose` lets the member pick among games; `onTexts` gets the page's words
 * before a game is open. Resolves to {session, game, locale}; `onParticipants` hears the
 * instance's participants.
 */
export async function startActivity(frame, base, { show, choose, onParticipants, onTexts }) {
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
  const game = found.game ? String(found.game) : await choose(found.games || []);
  return { session: signedIn.session, game, locale };
}
