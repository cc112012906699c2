// The one WebSocket: subscriptions, acts with ack/error by ref, and reconnection.
//
// A dropped connection is retried with backoff (0.5 s doubling to 8 s); once open again
// every table is subscribed again, and the server answers each with its whole current
// state, which is how a client resumes. Acts in flight when the connection drops are
// sent again once it is back: each carries an id (docs/PROTOCOL.md, "Action ids"), so
// one the server had already played is answered with its ack, not played twice. For
// the same reason an act refused as `unavailable` or `table_moved` (the table is moving
// to another server, or the server is stopping) is sent again a few times, 0.5 s
// doubling, before the refusal is shown.

const listeners = { table: new Map(), status: new Set(), error: new Set() };
const subs = new Map(); // table id -> invite code (or null)
const inflight = new Map(); // ref -> {resolve, reject, table, msg, tries}
// Refusals that changed nothing and may pass: the act is sent again (same id).
const RETRY_CODES = new Set(['unavailable', 'table_moved']);
const MAX_TRIES = 4;
let ws = null;
let nextRef = 1;
let backoff = 500;
let timer = null;
let wanted = false;
let connected = false;

function url() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws`;
}

function setStatus(up) {
  connected = up;
  for (const f of listeners.status) f(up);
}

function connect() {
  if (!wanted || ws) return;
  const sock = new WebSocket(url());
  ws = sock;
  sock.onopen = () => {
    backoff = 500;
    setStatus(true);
    for (const [table, invite] of subs) sendRaw({ type: 'subscribe', table, invite: invite || undefined });
    for (const p of inflight.values()) sendRaw(p.msg);
  };
  sock.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    handle(msg);
  };
  sock.onclose = () => {
    if (ws === sock) ws = null;
    setStatus(false);
    schedule();
  };
  sock.onerror = () => {
    // onclose follows and schedules the retry.
  };
}

function schedule() {
  if (!wanted || timer) return;
  const wait = backoff;
  backoff = Math.min(backoff * 2, 8000);
  timer = setTimeout(() => {
    timer = null;
    connect();
  }, wait);
}

function handle(msg) {
  if (msg.type === 'table') {
    const fs = listeners.table.get(msg.table);
    if (fs) for (const f of fs) f(msg);
  } else if (msg.type === 'ack') {
    const p = inflight.get(msg.ref);
    if (p) {
      inflight.delete(msg.ref);
      p.resolve(msg);
    }
  } else if (msg.type === 'error') {
    const p = msg.ref !== undefined ? inflight.get(msg.ref) : undefined;
    if (p && RETRY_CODES.has(msg.code) && p.tries < MAX_TRIES) {
      const wait = 500 * 2 ** p.tries;
      p.tries += 1;
      // Still unanswered then (a reconnection may have sent it again meanwhile).
      setTimeout(() => {
        if (inflight.get(msg.ref) === p) sendRaw(p.msg);
      }, wait);
    } else if (p) {
      inflight.delete(msg.ref);
      p.reject({ code: msg.code, message: msg.message });
    } else {
      for (const f of listeners.error) f(msg);
    }
  }
}

function sendRaw(obj) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(obj));
  return true;
}

// The browser knowing the network is back is a better signal than the backoff timer.
window.addEventListener('online', () => {
  if (!wanted || ws) return;
  backoff = 500;
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  connect();
});

export function start() {
  wanted = true;
  connect();
}

export function isConnected() {
  return connected;
}

export function onStatus(f) {
  listeners.status.add(f);
  return () => listeners.status.delete(f);
}

export function onError(f) {
  listeners.error.add(f);
  return () => listeners.error.delete(f);
}

// Subscribe to a table; returns the unsubscribe function.
export function subscribe(table, invite, onTable) {
  start();
  let fs = listeners.table.get(table);
  if (!fs) listeners.table.set(table, (fs = new Set()));
  fs.add(onTable);
  subs.set(table, invite || null);
  sendRaw({ type: 'subscribe', table, invite: invite || undefined });
  return () => {
    fs.delete(onTable);
    if (fs.size === 0) {
      listeners.table.delete(table);
      subs.delete(table);
      sendRaw({ type: 'unsubscribe', table });
    }
  };
}

// 128 random bits as hex: an action's id. getRandomValues, unlike randomUUID, also
// works on a page served over plain http from another host than localhost.
function actionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Send an action chosen at `version`; resolves on ack, rejects with {code, message}.
// Unanswered when the connection drops, it is sent again (same id) once it is back.
export function act(table, version, action, draft) {
  const ref = nextRef++;
  const msg = { type: 'act', table, version, action, id: actionId(), ref };
  // The seat's steps so far of a secret choice of several steps (docs/PROTOCOL.md).
  if (draft) msg.draft = draft;
  return new Promise((resolve, reject) => {
    if (!sendRaw(msg)) {
      reject({ code: 'disconnected', message: '' });
      return;
    }
    inflight.set(ref, { resolve, reject, table, msg, tries: 0 });
  });
}

// Tests and debugging: drop the socket as a network failure would.
export function dropForTest() {
  if (ws) ws.close();
}
