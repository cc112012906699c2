// The host side of the board-module contract (docs/WEB.md): loading games/<id>/board.js
// (and board.css when present), the fallback board, and the ctx a board is drawn with.
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';

const modules = new Map();
const styles = new Set();

// Resolves to the game's module, or the fallback when the game has none yet (the server
// answers 404 for a missing file, so the import fails).
export function loadBoard(game) {
  if (plainBoards()) return Promise.resolve({ ...fallback });
  if (!modules.has(game)) {
    modules.set(
      game,
      import(`/games/${encodeURIComponent(game)}/board.js`)
        .then((m) => ({ ...fallback, ...(m.default || m), fallback: false }))
        .catch(() => ({ ...fallback })),
    );
    loadStyle(game);
  }
  return modules.get(game);
}

// localStorage 'takuge.plainBoards' = '1' draws every game with the fallback board: the
// shell's own tests use it so they do not depend on the game boards being written.
function plainBoards() {
  try {
    return localStorage.getItem('takuge.plainBoards') === '1';
  } catch {
    return false;
  }
}

async function loadStyle(game) {
  if (styles.has(game)) return;
  styles.add(game);
  const href = `/games/${encodeURIComponent(game)}/board.css`;
  try {
    const res = await fetch(href, { method: 'HEAD' });
    if (!res.ok) return;
    document.head.appendChild(h('link', { rel: 'stylesheet', href, 'data-board-css': game }));
  } catch {
    // No stylesheet: the board draws with the shell's styles.
  }
}

// Drawn for a game without a module: every legal action as a button, and the raw view.
export const fallback = {
  fallback: true,
  messages: { ja: {}, en: {} },
  rules: null,
  render(root, ctx) {
    clear(
      root,
      h(
        'div',
        { class: 'fallback-board' },
        ctx.legal.length
          ? h(
              'div',
              { class: 'choices' },
              ctx.legal.map((l) =>
                h(
                  'button',
                  {
                    'data-choice': '',
                    disabled: ctx.replay || undefined,
                    onclick: () => ctx.send(l.action).catch(() => {}),
                  },
                  l.label,
                ),
              ),
            )
          : h('p', { class: 'muted' }, ctx.t(ctx.replay ? 'replay.noActions' : 'game.nothingToDo')),
        h('details', { class: 'raw-view' }, h('summary', null, ctx.t('game.rawView')), h('pre', { 'data-secret': '' }, JSON.stringify(ctx.view, null, 2))),
      ),
    );
  },
};

// A bot's name in the reader's language (levels: easy, normal, strong; a game's own bots);
// a name without a translation shows as the server gives it.
export function botName(b) {
  const k = 'bot.' + b;
  const name = t(k);
  return name === k ? b : name;
}

// The bot picker's line: the name and, for the levels, what to expect of it.
export function botHint(b) {
  const k = 'botHint.' + b;
  const hint = t(k);
  return hint === k ? botName(b) : hint;
}

// The name a seat goes by everywhere (seat lists, log, result, boards). The server names
// every bot it seats "bot <kind>", so several bots of one kind would read alike: a bot is
// named by its kind and seat number instead. A player replaced by a bot keeps its name.
export function seatLabel(s, k) {
  if (!s) return t('seat.n', { n: k + 1 });
  if (s.bot && !s.user_id) return t('seat.bot', { bot: botName(s.bot), n: k + 1 });
  if (s.name) return s.name;
  return t('seat.empty');
}

// Build the ctx for one drawing. `base` holds the table fields; `hooks` the host's send,
// rerender, draft store and (on a table page) the sequencer.
export function makeCtx(mod, base, hooks) {
  const messages = mod.messages || {};
  const seatName = (k) => {
    const s = (base.seats || [])[k];
    return s && (s.name || s.bot) ? seatLabel(s, k) : t('seat.n', { n: k + 1 });
  };
  return {
    view: base.view,
    legal: base.legal || [],
    you: base.you === undefined ? null : base.you,
    seats: base.seats || [],
    pending: base.pending || [],
    status: base.status,
    outcome: base.outcome || null,
    version: base.version,
    options: base.options || {},
    players: base.players,
    game: base.game,
    lang: lang(),
    t: (key, params) => t(key, params, messages),
    send: hooks.send,
    sendSequence: (actions) => (hooks.sequencer && !base.replay ? hooks.sequencer.start(actions) : Promise.resolve(false)),
    sequence: hooks.sequencer ? hooks.sequencer.status() : null,
    draft: hooks.draft,
    rerender: hooks.rerender,
    replay: !!base.replay,
    seatName,
  };
}

// Draw a board, never letting a board's exception take the page down: the error is shown
// in its place and the legal actions stay reachable through the fallback.
export function drawBoard(mod, root, ctx) {
  const focused = focusBefore(root);
  try {
    mod.render(root, ctx);
  } catch (e) {
    console.error('board render failed', e);
    fallback.render(root, ctx);
    root.prepend(h('p', { class: 'error', role: 'alert' }, t('game.boardFailed', { error: String(e && e.message ? e.message : e) })));
  }
  restoreFocus(root, focused);
  const n = Number(document.body.dataset.renders || 0) + 1;
  document.body.dataset.renders = String(n);
}

// Focus across redraws: a board replaces its buttons when it draws, which would drop a
// keyboard player's focus to the page. Before drawing, the focused element's key is noted
// (`data-focus-key`, which a board sets on its choices: stable from one drawing to the next,
// e.g. "card 12"; without one, a button goes by its accessible name); after drawing, unless
// the element survived or the board focused something itself, the element of the same key
// is focused, else the first choice of the action area, else the first choice.
export function focusKey(el) {
  if (!el || !el.getAttribute) return null;
  const key = el.getAttribute('data-focus-key');
  if (key !== null) return 'k:' + key;
  if (el.tagName !== 'BUTTON') return null;
  return 't:' + (el.getAttribute('aria-label') || el.textContent.trim());
}

function focusBefore(root) {
  const el = document.activeElement;
  if (!el || el === root || !root.contains(el)) return null;
  return { el, key: focusKey(el) };
}

function restoreFocus(root, before) {
  if (!before) return;
  const now = document.activeElement;
  if (now && now !== root && root.contains(now)) return;
  const candidates = before.key === null ? [] : [...root.querySelectorAll('[data-focus-key], button')];
  const target =
    candidates.find((el) => focusKey(el) === before.key && !el.disabled) ||
    root.querySelector('[data-actions] [data-choice]:not([disabled])') ||
    root.querySelector('[data-choice]:not([disabled])');
  if (target) target.focus({ preventScroll: true });
}
