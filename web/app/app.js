// The router and the pages: login, lobby, table (seating, game, result), replay, rules;
// the shelf's pages are in shelf.js.
import { h, clear } from './dom.js';
import { get, post } from './api.js';
import * as live from './live.js';
import { t, lang, setLang, onLang, errorText } from './i18n.js';
import { loadBoard, makeCtx, drawBoard, seatLabel, botHint, botName } from './board-host.js';
import { shelfRoutes } from './shelf.js';
import { recommendRoutes } from './recommend.js';
import { profileRoutes } from './profile.js';
import { notifier, yourTurn, alertSettings } from './notify.js';

const main = document.getElementById('main');
const header = document.getElementById('header');
const banner = document.getElementById('banner');

const app = {
  me: null,
  games: null, // [{meta, default_options, option_sets, bots}]
  page: null, // {cleanup?, relang?}
};

// ---- helpers ----

function gameInfo(id) {
  return (app.games || []).find((g) => g.meta.id === id) || null;
}

function gameName(id) {
  const g = gameInfo(id);
  if (!g) return id;
  return lang() === 'ja' ? g.meta.name_ja : g.meta.name_en;
}

async function ensureGames() {
  if (!app.games) {
    const data = await get('/api/games');
    app.games = data.games;
  }
  return app.games;
}

function link(href, ...children) {
  return h('a', { href, 'data-link': '' }, ...children);
}

function errorBox() {
  return h('p', { class: 'error', role: 'alert', 'aria-live': 'assertive', 'data-error': '', hidden: true });
}

function showError(box, err) {
  if (!err) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = typeof err === 'string' ? err : errorText(err);
}

// Below these a pending seat's clock shows the low-time warning.
const LOW_REAL_MS = 15000;
const LOW_TURN_MS = 3600000;

// A real-time clock's ms as m:ss (h:mm:ss from an hour), rounded up so 0:00 means out.
function clockTime(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hrs = Math.floor(total / 3600);
  const mins = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hrs ? hrs + ':' + String(mins).padStart(2, '0') + ':' + secs : mins + ':' + secs;
}

function clockText(clock) {
  if (!clock || clock.kind === 'none') return t('clock.none');
  if (clock.kind === 'real_time') return t('clock.realTime', { s: clock.per_move_seconds, r: clock.reserve_seconds });
  if (clock.kind === 'turn_based') return t('clock.turnBased', { h: clock.hours_per_move });
  return '';
}

// The log line in the page's language; the server sends both (docs/PROTOCOL.md).
function logText(e) {
  return (lang() === 'ja' && e.text_ja) || e.text;
}

// ---- router ----

const routes = [
  [/^\/$/, lobbyPage, true],
  [/^\/login$/, loginPage, false],
  [/^\/t\/(\d+)$/, tablePage, true],
  [/^\/replay\/(\d+)$/, replayPage, true],
  [/^\/rules(?:\/([\w-]+))?$/, rulesPage, false],
];
// The shelf's pages (shelf.js), given the helpers they share with these.
routes.push(...shelfRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r) }));
routes.push(...recommendRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r) }));
routes.push(...profileRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r), gameName, drawHeader: () => drawHeader() }));

export function navigate(path, replace) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

async function route() {
  if (app.page && app.page.cleanup) app.page.cleanup();
  app.page = null;
  document.body.removeAttribute('data-busy');
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  drawHeader();
  for (const [re, page, needsUser] of routes) {
    const m = path.match(re);
    if (!m) continue;
    if (needsUser && !app.me) {
      navigate('/login?next=' + encodeURIComponent(path + location.search), true);
      return;
    }
    const token = {};
    app.page = token;
    document.title = 'takuge';
    clear(main, h('p', { class: 'muted' }, t('loading')));
    try {
      await ensureGames();
      if (app.page !== token) return;
      const result = await page(m, params);
      if (app.page === token && result) Object.assign(token, result);
      else if (app.page !== token && result && result.cleanup) result.cleanup();
    } catch (e) {
      if (app.page === token) clear(main, h('p', { class: 'error', role: 'alert' }, errorText(e)), link('/', t('nav.lobby')));
    }
    return;
  }
  clear(main, h('h1', null, t('notFound')), link('/', t('nav.lobby')));
}

document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[data-link]');
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

onLang(() => {
  drawHeader();
  if (app.page && app.page.relang) app.page.relang();
  else route();
});

live.onStatus((up) => {
  banner.hidden = up;
  banner.textContent = up ? '' : t('reconnecting');
  document.body.dataset.connected = up ? '1' : '0';
});

// ---- header ----

function drawHeader() {
  clear(
    header,
    h(
      'nav',
      { class: 'topnav', 'aria-label': t('nav.main') },
      link('/', h('strong', { class: 'brand' }, '卓ゲ takuge')),
      app.me && link('/', t('nav.lobby')),
      link('/rules', t('nav.rules')),
      app.me && link('/profile', t('nav.profile')),
      app.me && !app.me.guest && link('/shelf', t('nav.shelf')),
      app.me && !app.me.guest && link('/plays', t('nav.plays')),
      app.me && !app.me.guest && link('/admin', t('nav.admin')),
      app.me && !app.me.guest && link('/for-you', t('nav.forYou')),
      h('span', { class: 'spacer' }),
      app.me &&
        h(
          'a',
          { class: 'me', href: '/profile', 'data-link': '', 'data-me': app.me.name },
          app.me.guest ? t('me.guest', { name: app.me.display_name || app.me.name }) : app.me.display_name || app.me.name,
        ),
      app.me && app.me.guest && link('/login', t('nav.register')),
      app.me && h('button', { class: 'link', onclick: logout }, t('nav.logout')),
      h(
        'span',
        { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
        h('button', { 'data-lang': 'ja', 'aria-pressed': String(lang() === 'ja'), onclick: () => setLang('ja') }, '日本語'),
        h('button', { 'data-lang': 'en', 'aria-pressed': String(lang() === 'en'), onclick: () => setLang('en') }, 'English'),
      ),
    ),
  );
}

async function logout() {
  try {
    await post('/api/logout');
  } catch {
    // Logged out locally either way.
  }
  app.me = null;
  location.href = '/login';
}

// ---- login ----

async function loginPage(m, params) {
  const next = params.get('next') || '/';
  const safeNext = next.startsWith('/') && !next.startsWith('//') ? next : '/';
  const done = (user) => {
    app.me = user;
    live.start();
    navigate(safeNext, true);
  };
  const loginErr = errorBox();
  const regErr = errorBox();
  const guestErr = errorBox();
  const busy = (form, on) => form.querySelectorAll('button,input').forEach((e) => (e.disabled = on));

  const loginForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'login',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        busy(f, true);
        try {
          const r = await post('/api/login', { name: f.name.value.trim(), password: f.password.value });
          done(r.user);
        } catch (e) {
          showError(loginErr, e);
        } finally {
          busy(f, false);
        }
      },
    },
    h('h2', null, t('login.title')),
    h('label', null, t('login.name'), h('input', { name: 'name', autocomplete: 'username', required: true })),
    h('label', null, t('login.password'), h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    loginErr,
    h('button', { type: 'submit', class: 'primary' }, t('login.submit')),
  );

  const guest = app.me && app.me.guest;
  const regForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'register',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        busy(f, true);
        try {
          const r = await post('/api/register', { name: f.name.value.trim(), password: f.password.value });
          done(r.user);
        } catch (e) {
          showError(regErr, e);
        } finally {
          busy(f, false);
        }
      },
    },
    h('h2', null, guest ? t('register.fromGuest') : t('register.title')),
    guest && h('p', { class: 'muted' }, t('register.keeps')),
    h('label', null, t('login.name'), h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 32, pattern: '[A-Za-z0-9_.\\-]+' })),
    h('p', { class: 'hint' }, t('register.nameHint')),
    h('label', null, t('login.password'), h('input', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 256 })),
    regErr,
    h('button', { type: 'submit', class: 'primary' }, t('register.submit')),
  );

  const guestCard = !app.me
    ? h(
        'div',
        { class: 'card' },
        h('h2', null, t('guest.title')),
        h('p', { class: 'muted' }, t('guest.text')),
        guestErr,
        h(
          'button',
          {
            class: 'primary',
            'data-action': 'guest',
            onclick: async (ev) => {
              ev.target.disabled = true;
              try {
                const r = await post('/api/guest');
                done(r.user);
              } catch (e) {
                showError(guestErr, e);
                ev.target.disabled = false;
              }
            },
          },
          t('guest.submit'),
        ),
      )
    : null;

  // A field the browser refuses (too short, a bad character) never reaches the server:
  // the last server error, about an earlier try, must not stay beside it (issue 21).
  for (const [form, box] of [[loginForm, loginErr], [regForm, regErr]]) form.addEventListener('invalid', () => showError(box, null), true);
  clear(main, h('h1', null, t('login.heading')), h('div', { class: 'cards' }, guestCard, guest ? null : loginForm, regForm));
  return {};
}

// ---- lobby ----

async function lobbyPage(m, params) {
  const games = app.games;
  const listBox = h('div', { class: 'tables', 'data-lobby': '' });
  const watchBox = h('div', { class: 'tables', 'data-lobby-playing': '' });
  const listErr = errorBox();
  const gameFilter = h(
    'select',
    { name: 'game', 'data-filter': 'game', onchange: () => refresh() },
    h('option', { value: '' }, t('lobby.allGames')),
    games.map((g) => h('option', { value: g.meta.id, selected: params && params.get('game') === g.meta.id }, gameName(g.meta.id))),
  );
  const playersFilter = h(
    'select',
    { name: 'players', 'data-filter': 'players', onchange: () => refresh() },
    h('option', { value: '' }, t('lobby.anyPlayers')),
    [2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: String(n) }, t('players.n', { n }))),
  );

  // The options of a listed table in words: the board's own option fields where it has
  // them (the create form's labels), every option shown — the memory aids included.
  function optionsText(tb, mod) {
    const g = gameInfo(tb.game);
    if (!g || !tb.options || typeof tb.options !== 'object') return '';
    const mt = (key, params) => t(key, params, mod && mod.messages);
    const fields = mod && mod.optionFields ? mod.optionFields(g.option_sets, tb.players, mt) : defaultOptionFields(g.option_sets, mt);
    return fields
      .filter((f) => f.key in tb.options)
      .map((f) => {
        const v = f.values.find((x) => JSON.stringify(x.value) === JSON.stringify(tb.options[f.key]));
        return `${f.label}: ${v ? v.label : String(tb.options[f.key])}`;
      })
      .join(' · ');
  }

  function seatsText(tb) {
    return (tb.seats || [])
      .map((st) => (st.bot ? botName(st.bot) + ' (' + t('seat.botTag') + ')' : st.name || t('lobby.emptySeat')))
      .join(', ');
  }

  function tableRow(tb, mods, watching) {
    const opts = optionsText(tb, mods.get(tb.game));
    return h(
      'li',
      { 'data-table': tb.id, 'data-game': tb.game, 'data-status': tb.status },
      h('span', { class: 'tname' }, gameName(tb.game)),
      h('span', { class: 'muted', 'data-host': '' }, t('lobby.host', { name: tb.host_name || '' })),
      h('span', { class: 'muted' }, t('lobby.seats', { taken: tb.seats_taken, players: tb.players })),
      h('span', { class: 'muted' }, clockText(tb.clock)),
      opts ? h('span', { class: 'muted lobby-options', 'data-options': '' }, opts) : null,
      h('span', { class: 'muted lobby-seats', 'data-seat-names': '' }, seatsText(tb)),
      link('/t/' + tb.id, watching ? t('lobby.watch') : t('lobby.join')),
    );
  }

  let lastList = null;
  async function refresh() {
    const q = new URLSearchParams();
    if (gameFilter.value) q.set('game', gameFilter.value);
    if (playersFilter.value) q.set('players', playersFilter.value);
    const playing = new URLSearchParams(q);
    playing.set('status', 'playing');
    try {
      const [data, live] = await Promise.all([get('/api/tables?' + q.toString()), get('/api/tables?' + playing.toString())]);
      showError(listErr, null);
      // Redraw only on a change, so the periodic refresh does not steal keyboard focus.
      const key = lang() + JSON.stringify([data.tables, live.tables]);
      if (key === lastList) return;
      lastList = key;
      const mods = new Map();
      for (const tb of [...data.tables, ...live.tables]) {
        if (!mods.has(tb.game)) mods.set(tb.game, await loadBoard(tb.game).catch(() => null));
      }
      clear(
        listBox,
        data.tables.length
          ? h('ul', { class: 'table-list' }, data.tables.map((tb) => tableRow(tb, mods, false)))
          : h('p', { class: 'muted', 'data-empty': '' }, t('lobby.none')),
      );
      clear(
        watchBox,
        live.tables.length
          ? h('ul', { class: 'table-list' }, live.tables.slice(0, 30).map((tb) => tableRow(tb, mods, true)))
          : h('p', { class: 'muted', 'data-empty': '' }, t('lobby.noneInPlay')),
      );
    } catch (e) {
      showError(listErr, e);
    }
  }

  // My tables: the server's list (open and in play), so another browser shows the same.
  const mineBox = h('ul', { class: 'table-list', 'data-my-tables': '' });
  const mineCard = h('section', { class: 'card', hidden: true }, h('h2', null, t('lobby.mine')), mineBox, h('p', null, link('/profile', t('lobby.profile'))));
  get('/api/profiles/me')
    .then((p) => {
      for (const x of p.tables.slice(0, 12)) {
        mineBox.appendChild(
          h(
            'li',
            { 'data-table': x.id },
            h('span', { class: 'tname' }, gameName(x.game)),
            h('span', { class: 'status status-' + x.status }, t('status.' + x.status)),
            x.to_act ? h('strong', { class: 'your-turn' }, t('profile.yourMove')) : null,
            link('/t/' + x.id, t('lobby.go')),
          ),
        );
      }
      mineCard.hidden = p.tables.length === 0;
    })
    .catch(() => {
      // The rest of the lobby works without it.
    });

  const form = await createForm();
  clear(
    main,
    h('h1', null, t('lobby.title')),
    h(
      'div',
      { class: 'lobby' },
      h(
        'section',
        { class: 'card' },
        h('h2', null, t('lobby.open')),
        h('div', { class: 'filters' }, h('label', null, t('lobby.game'), gameFilter), h('label', null, t('lobby.players'), playersFilter), h('button', { onclick: () => refresh() }, t('lobby.refresh'))),
        listErr,
        listBox,
        h('h2', null, t('lobby.inPlay')),
        watchBox,
      ),
      form,
      mineCard,
    ),
  );
  await refresh();
  const timer = setInterval(refresh, 5000);
  return { cleanup: () => clearInterval(timer) };
}

// The default option fields: one select per key of the game's option_sets, with the values
// seen there.
function defaultOptionFields(optionSets, mt) {
  const keys = [];
  for (const set of optionSets || []) for (const k of Object.keys(set)) if (!keys.includes(k)) keys.push(k);
  return keys.map((key) => {
    const seen = [];
    for (const set of optionSets) {
      if (!(key in set)) continue;
      const v = JSON.stringify(set[key]);
      if (!seen.includes(v)) seen.push(v);
    }
    return {
      key,
      label: mt('opt.' + key) === 'opt.' + key ? key : mt('opt.' + key),
      values: seen.map((v) => ({ value: JSON.parse(v), label: valueLabel(key, JSON.parse(v), mt) })),
    };
  });
}

function valueLabel(key, v, mt) {
  const k = `opt.${key}.${JSON.stringify(v)}`;
  const own = mt(k);
  if (own !== k) return own;
  if (v === true) return t('yes');
  if (v === false) return t('no');
  if (v === null) return t('opt.default');
  return String(v);
}

async function createForm() {
  const games = app.games;
  const err = errorBox();
  const gameSel = h('select', { name: 'game', 'data-create': 'game' }, games.map((g) => h('option', { value: g.meta.id }, gameName(g.meta.id))));
  const playersSel = h('select', { name: 'players', 'data-create': 'players' });
  const optionsBox = h('div', { class: 'options', 'data-create': 'options' });
  const clockSel = h(
    'select',
    { name: 'clock', 'data-create': 'clock', onchange: () => drawClock() },
    h('option', { value: 'none' }, t('clock.none')),
    h('option', { value: 'real_time' }, t('clock.kind.real_time')),
    h('option', { value: 'turn_based' }, t('clock.kind.turn_based')),
  );
  const clockBox = h('div', { class: 'clock-fields' });
  let fields = [];

  function drawClock() {
    clear(
      clockBox,
      clockSel.value === 'real_time' && [
        h('label', null, t('clock.perMove'), h('input', { type: 'number', name: 'per_move', min: 1, max: 3600, value: 60 })),
        h('label', null, t('clock.reserve'), h('input', { type: 'number', name: 'reserve', min: 0, max: 86400, value: 300 })),
      ],
      clockSel.value === 'turn_based' && h('label', null, t('clock.hours'), h('input', { type: 'number', name: 'hours', min: 1, max: 336, value: 24 })),
    );
  }

  function drawGame() {
    const g = gameInfo(gameSel.value);
    if (!g) return Promise.resolve();
    const keep = Number(playersSel.value);
    clear(
      playersSel,
      Array.from({ length: g.meta.max_players - g.meta.min_players + 1 }, (_, i) => g.meta.min_players + i).map((n) =>
        h('option', { value: String(n), selected: n === keep || undefined }, t('players.n', { n })),
      ),
    );
    return drawOptions();
  }

  // The option fields depend on the game and the player count (a board's optionFields may
  // offer an option only from some count on). Loading the board module is asynchronous, so
  // a slower earlier drawing must not land over a later one: only the newest is drawn.
  // `data-fields-for` says which game and count the fields on show are for (tests wait on
  // it). A choice the new fields still offer is kept.
  let drawing = 0;
  async function drawOptions() {
    const g = gameInfo(gameSel.value);
    if (!g) return;
    const players = Number(playersSel.value);
    const mine = ++drawing;
    const mod = await loadBoard(g.meta.id);
    if (mine !== drawing) return;
    const chosen = {};
    for (const f of fields) {
      const sel = optionsBox.querySelector(`[data-option="${f.key}"]`);
      const v = sel && f.values[Number(sel.value)];
      if (v) chosen[f.key] = JSON.stringify(v.value);
    }
    const mt = (key, params) => t(key, params, mod.messages);
    fields = mod.optionFields ? mod.optionFields(g.option_sets, players, mt) : defaultOptionFields(g.option_sets, mt);
    const defaults = g.default_options || {};
    const pick = (f, v) => JSON.stringify(v.value) === (f.key in chosen && f.values.some((x) => JSON.stringify(x.value) === chosen[f.key]) ? chosen[f.key] : JSON.stringify(defaults[f.key]));
    clear(
      optionsBox,
      fields.map((f) =>
        h(
          'label',
          null,
          f.label,
          h(
            'select',
            { name: 'opt-' + f.key, 'data-option': f.key, 'data-values': JSON.stringify(f.values.map((v) => v.value)) },
            f.values.map((v, i) => h('option', { value: String(i), selected: pick(f, v) || undefined }, v.label)),
          ),
        ),
      ),
    );
    optionsBox.dataset.fieldsFor = g.meta.id + ':' + players;
  }

  gameSel.addEventListener('change', drawGame);
  playersSel.addEventListener('change', drawOptions);
  await drawGame();
  drawClock();

  return h(
    'form',
    {
      class: 'card',
      'data-form': 'create',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        const options = {};
        for (const fd of fields) {
          const sel = optionsBox.querySelector(`[data-option="${fd.key}"]`);
          const v = fd.values[Number(sel.value)];
          if (v) options[fd.key] = v.value;
        }
        let clock = { kind: 'none' };
        if (clockSel.value === 'real_time') clock = { kind: 'real_time', per_move_seconds: Number(f.per_move.value), reserve_seconds: Number(f.reserve.value) };
        if (clockSel.value === 'turn_based') clock = { kind: 'turn_based', hours_per_move: Number(f.hours.value) };
        const body = { game: gameSel.value, players: Number(playersSel.value), options, private: f.private.checked, clock };
        try {
          const tb = await post('/api/tables', body);
          navigate('/t/' + tb.id + (tb.invite_code ? '?invite=' + encodeURIComponent(tb.invite_code) : ''));
        } catch (e) {
          showError(err, e);
        }
      },
    },
    h('h2', null, t('create.title')),
    h('label', null, t('lobby.game'), gameSel),
    h('label', null, t('lobby.players'), playersSel),
    optionsBox,
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'private', 'data-create': 'private' }), t('create.private')),
    h('label', null, t('clock.title'), clockSel),
    clockBox,
    err,
    h('button', { type: 'submit', class: 'primary', 'data-create': 'submit' }, t('create.submit')),
  );
}

// ---- the table: seating, the game, the result ----

async function tablePage(m, params) {
  const id = Number(m[1]);
  const invite = params.get('invite') || '';
  const q = invite ? '?invite=' + encodeURIComponent(invite) : '';
  let info = await get('/api/tables/' + id + q);
  const mod = await loadBoard(info.game);

  const s = {
    msg: null, // the last table message
    log: new Map(), // index -> entry
    draft: {},
    draftVersion: -1,
    draftKey: null, // the decision the draft belongs to (see decisionKey)
    draftFrom: -1, // the version the draft was started at
    errors: [],
    skew: 0, // ms the browser's clock is known to be behind the server's (measureSkew)
  };

  const top = h('div', { class: 'table-head' });
  const seatsBox = h('div', { class: 'seats', 'data-seats': '' });
  const playActions = h('div', { class: 'row play-actions' });
  const turnBox = h('div', { class: 'turn', 'data-turn': '', 'aria-live': 'polite' });
  const clockBox = h('div', { class: 'clock', 'data-clock': '' });
  const alertBox = h('div', { class: 'table-alerts' }, alertSettings());
  const err = errorBox();
  const boardRoot = h('div', { class: 'board', 'data-board': info.game });
  const logBox = h('ol', { class: 'log', 'data-log': '' });
  const resultBox = h('div', { class: 'result-box' });
  const seatingBox = h('div', { class: 'seating' });
  // On a phone (style.css, max-width 600px) the log is a drawer: hidden behind the dock's
  // "Log" button (with the count of lines not seen yet), drawn over the page when open,
  // closed by its button or Escape. On a wider screen it is the side column's log as ever.
  const logId = 'table-log-' + id;
  const logHead = h('h2', { id: logId + '-title' }, t('game.log'));
  const logClose = h('button', { type: 'button', class: 'log-close', 'data-log-close': '', onclick: () => setLogOpen(false) }, t('game.logClose'));
  const logDrawer = h('section', { class: 'log-drawer', id: logId, 'data-log-drawer': '', 'aria-labelledby': logId + '-title' }, h('div', { class: 'log-drawer-head' }, logHead, logClose), logBox);
  const logToggle = h('button', { type: 'button', class: 'log-toggle', 'data-log-toggle': '', 'aria-expanded': 'false', 'aria-controls': logId, onclick: () => setLogOpen(!logOpen) });
  const dockTurn = h('span', { class: 'dock-turn', 'aria-hidden': 'true' });
  // The phone's bottom bar (hidden on wider screens): the turn in a word and the log button.
  // The board's own action area (`[data-actions]`, docs/WEB.md) sits fixed just above it.
  const dock = h('div', { class: 'phone-dock', 'data-phone-dock': '' }, dockTurn, logToggle);
  const sidePlayers = h('h2', null, t('game.players'));
  const layout = h(
    'div',
    { class: 'game-layout' },
    h('div', { class: 'game-main' }, turnBox, err, resultBox, boardRoot),
    h('aside', { class: 'game-side' }, sidePlayers, seatsBox, playActions, clockBox, alertBox, logDrawer),
    dock,
  );
  clear(main, top, seatingBox, layout);

  function fail(e) {
    showError(err, e);
  }

  let logOpen = false;
  let logSeen = -1; // lines drawn when the log was last in sight (-1: not drawn yet)

  function setLogOpen(open, focus = true) {
    logOpen = open;
    logDrawer.classList.toggle('open', open);
    logToggle.setAttribute('aria-expanded', String(open));
    drawLogToggle();
    if (open) {
      logBox.scrollTop = logBox.scrollHeight;
      if (focus) logClose.focus();
    } else if (focus && logDrawer.contains(document.activeElement)) {
      logToggle.focus();
    }
  }

  function onKey(ev) {
    if (ev.key === 'Escape' && logOpen) {
      ev.preventDefault();
      setLogOpen(false);
      logToggle.focus();
    }
  }
  document.addEventListener('keydown', onKey);

  function drawLogToggle() {
    const n = logDrawn.size;
    if (logSeen < 0 || logOpen) logSeen = n;
    const unseen = Math.max(0, n - logSeen);
    clear(logToggle, t('game.log'), unseen ? h('span', { class: 'log-unseen', 'data-log-unseen': unseen }, t('game.logNew', { n: unseen })) : null);
  }

  // The board's action area is fixed above the dock on a phone: the page keeps room for
  // both at its bottom (--dock-h, --actions-h on the layout), measured by a ResizeObserver
  // rather than read while drawing.
  let docked = null;
  const sizes = new Map();
  const resized = new ResizeObserver((entries) => {
    for (const e of entries) sizes.set(e.target, e.borderBoxSize && e.borderBoxSize[0] ? e.borderBoxSize[0].blockSize : e.target.offsetHeight);
    layout.style.setProperty('--dock-h', (sizes.get(dock) || 0) + 'px');
    layout.style.setProperty('--actions-h', ((docked && sizes.get(docked)) || 0) + 'px');
  });
  resized.observe(dock);

  function watchActions() {
    const a = boardRoot.querySelector('[data-actions]');
    if (a === docked) return;
    if (docked) {
      resized.unobserve(docked);
      sizes.delete(docked);
    }
    docked = a;
    if (a) resized.observe(a);
    else layout.style.setProperty('--actions-h', '0px');
  }

  function send(action) {
    const msg = s.msg;
    if (!msg) return Promise.reject({ code: 'disconnected', message: '' });
    document.body.dataset.busy = '1';
    showError(err, null);
    return live.act(id, msg.version, action, msg.draft).then(
      (ack) => {
        delete document.body.dataset.busy;
        // The ack follows the state that shows this act. A draft kept across it (the seat
        // still pending on an identical set of actions) was the act just made: drop it.
        if (s.msg && s.msg.version === ack.version && s.draftFrom < ack.version) {
          s.draft = {};
          s.draftFrom = ack.version;
          drawBoardNow();
        }
        return ack;
      },
      (e) => {
        delete document.body.dataset.busy;
        fail(e);
        // A refused action leaves the state as it was: draw it again so the player can
        // choose once more (and tests see the page settle).
        draw();
        throw e;
      },
    );
  }

  function drawHead() {
    const status = s.msg ? s.msg.status : info.status;
    clear(
      top,
      h(
        'h1',
        null,
        gameName(info.game),
        ' ',
        h('span', { class: 'muted' }, t('table.n', { n: id })),
        ' ',
        h('span', { class: 'status status-' + status, 'data-status': status }, t('status.' + status)),
      ),
      h(
        'p',
        { class: 'muted' },
        t('players.n', { n: info.players }),
        ' · ',
        clockText(info.clock),
        info.private ? ' · ' + t('create.private') : '',
        ' · ',
        // In a tab of its own: reading the rules must not leave the table (issue 21).
        h('a', { href: '/rules/' + info.game, target: '_blank', rel: 'noopener', 'data-rules-link': '' }, t('nav.rulesOf'), ' ↗'),
      ),
    );
  }

  function seatsList() {
    const msg = s.msg;
    const seats = msg ? msg.seats : info.seats;
    const pending = msg ? msg.pending || [] : [];
    const you = msg ? msg.you : null;
    const host = msg ? msg.host : info.host;
    return h(
      'ul',
      { class: 'seat-list' },
      seats.map((st, k) =>
        h(
          'li',
          {
            'data-seat': k,
            class: [pending.includes(k) ? 'pending' : '', you === k ? 'you' : ''].join(' '),
          },
          h('span', { class: 'seat-no' }, String(k + 1)),
          h('span', { class: 'seat-name' }, seatLabel(st, k)),
          you === k && h('span', { class: 'tag tag-you' }, t('seat.you')),
          st && st.user_id === host && st.user_id !== null && h('span', { class: 'tag' }, t('seat.host')),
          st && st.bot && !st.replaced && h('span', { class: 'tag tag-bot', 'data-bot': st.bot }, t('seat.botTag')),
          st && st.replaced && h('span', { class: 'tag tag-replaced', 'data-replaced': '' }, t('seat.replaced', { bot: st.bot || '' })),
          pending.includes(k) && h('span', { class: 'tag tag-pending', 'data-pending': '' }, t('seat.thinking')),
        ),
      ),
    );
  }

  function drawSeating() {
    const msg = s.msg;
    const status = msg ? msg.status : info.status;
    if (status !== 'open') {
      clear(seatingBox);
      return;
    }
    const seats = msg ? msg.seats : info.seats;
    const seated = seats.some((st) => st && st.user_id === app.me.id);
    const isHost = (msg ? msg.host : info.host) === app.me.id;
    const empty = seats.filter((st) => !st || (!st.user_id && !st.bot)).length;
    const g = gameInfo(info.game);
    const inviteUrl = location.origin + '/t/' + id + (info.invite_code || invite ? '?invite=' + encodeURIComponent(info.invite_code || invite) : '');
    const botSel = h('select', { 'data-bot-select': '' }, ((g && g.bots) || []).map((b) => h('option', { value: b }, botHint(b))));
    const act = (fn) => async (ev) => {
      const b = ev.currentTarget;
      b.disabled = true;
      try {
        await fn(ev);
        info = await get('/api/tables/' + id + q);
        showError(err, null);
      } catch (e) {
        fail(e);
      } finally {
        b.disabled = false;
      }
    };
    clear(
      seatingBox,
      h(
        'section',
        { class: 'card' },
        h('h2', null, t('table.seating')),
        h(
          'ul',
          { class: 'seat-list' },
          seats.map((st, k) =>
            h(
              'li',
              { 'data-seat': k },
              h('span', { class: 'seat-no' }, String(k + 1)),
              h('span', { class: 'seat-name' }, seatLabel(st, k)),
              st && st.bot && h('span', { class: 'tag tag-bot' }, t('seat.botTag')),
              // The host picks each bot seat's level (an empty seat gets a bot, a bot
              // seat changes level); the first bot seat's level also replaces a player
              // who leaves or runs out of time.
              isHost &&
                !(st && st.user_id) &&
                h(
                  'select',
                  {
                    'data-seat-bot': k,
                    'aria-label': t('seat.level', { n: k + 1 }),
                    onchange: act((ev) => post('/api/tables/' + id + '/bots', { bot: ev.target.value, seat: k })),
                  },
                  !(st && st.bot) && h('option', { value: '', selected: true, disabled: true }, t('seat.pickBot')),
                  ((g && g.bots) || []).map((b) => h('option', { value: b, selected: (st && st.bot === b) || undefined }, botHint(b))),
                ),
              !seated &&
                (!st || (!st.user_id && !st.bot)) &&
                h(
                  'button',
                  {
                    'data-sit': k,
                    onclick: act(async () => {
                      await post('/api/tables/' + id + '/sit', { seat: k, invite: invite || undefined });
                    }),
                  },
                  t('table.sit'),
                ),
            ),
          ),
        ),
        h(
          'div',
          { class: 'row' },
          seated && h('button', { 'data-leave': '', onclick: act(() => post('/api/tables/' + id + '/leave')) }, t('table.leave')),
          isHost && empty > 0 && [botSel, h('button', { 'data-fill-bots': '', onclick: act(() => post('/api/tables/' + id + '/bots', { bot: botSel.value })) }, t('table.fillBots'))],
          isHost && h('button', { class: 'primary', 'data-start': '', disabled: empty > 0 || undefined, onclick: act(() => post('/api/tables/' + id + '/start')) }, t('table.start')),
          isHost && h('button', { class: 'danger', 'data-abandon': '', onclick: act(() => post('/api/tables/' + id + '/abandon')) }, t('table.abandon')),
        ),
        h(
          'p',
          { class: 'invite' },
          t('table.invite'),
          ' ',
          h('input', { readonly: true, value: inviteUrl, 'data-invite': '', size: 40, onfocus: (e) => e.target.select() }),
          ' ',
          h(
            'button',
            {
              onclick: (e) => {
                const b = e.currentTarget;
                navigator.clipboard && navigator.clipboard.writeText(inviteUrl).then(() => (b.textContent = t('table.copied')), () => {});
              },
            },
            t('table.copy'),
          ),
        ),
        !isHost && h('p', { class: 'muted' }, t('table.waitHost')),
      ),
    );
  }

  // Leaving a running game hands the seat to a bot for good; abandoning ends it for all.
  function drawPlayActions() {
    const msg = s.msg;
    if (!msg || msg.status !== 'playing') {
      clear(playActions);
      return;
    }
    const mine = msg.you !== null ? msg.seats[msg.you] : null;
    const confirmThen = (question, path) => async () => {
      if (!window.confirm(question)) return;
      try {
        await post(path);
      } catch (e) {
        fail(e);
      }
    };
    clear(
      playActions,
      mine && !mine.replaced && h('button', { 'data-leave-game': '', onclick: confirmThen(t('game.leaveConfirm'), '/api/tables/' + id + '/leave') }, t('game.leave')),
      msg.host === app.me.id && h('button', { class: 'danger', 'data-abandon': '', onclick: confirmThen(t('game.abandonConfirm'), '/api/tables/' + id + '/abandon') }, t('table.abandon')),
    );
  }

  function drawTurn() {
    const msg = s.msg;
    if (!msg || msg.status !== 'playing') {
      dockTurn.textContent = msg && msg.status === 'finished' ? t('game.over') : '';
      clear(turnBox, msg && msg.status === 'finished' ? h('strong', null, t('game.over')) : null);
      return;
    }
    const pending = msg.pending || [];
    const yours = msg.you !== null && pending.includes(msg.you) && msg.legal.length > 0;
    // "Your turn!" already says you are waited for: the others only.
    const names = pending.filter((k) => !(yours && k === msg.you)).map((k) => seatLabel(msg.seats[k], k));
    document.title = (yours ? '● ' : '') + gameName(info.game) + ' — takuge';
    dockTurn.textContent = yours ? t('game.yourTurn') : names.length ? t('game.waitingFor', { names: names.join(', ') }) : '';
    dockTurn.classList.toggle('your-turn', yours);
    clear(
      turnBox,
      yours
        ? h('strong', { class: 'your-turn', 'data-your-turn': '' }, t('game.yourTurn'))
        : null,
      names.length ? h('span', null, ' ', t('game.waitingFor', { names: names.join(', ') })) : null,
    );
  }

  // The clock box is built when a message arrives (drawClock) and then only its texts
  // change each second (tickClock), so a ticking clock never redraws the board or the seats.
  let clockRows = []; // [{seat, left, reserve}] the text nodes tickClock rewrites

  function drawClock() {
    const msg = s.msg;
    const c = info.clock;
    clockRows = [];
    if (!c || c.kind === 'none' || !msg || msg.status !== 'playing') {
      clear(clockBox);
      return;
    }
    const seats = msg.seats || [];
    const rows = seats.map((st, k) => {
      const row = { seat: k, left: h('span', { class: 'clock-left', 'data-clock-left': '' }), reserve: h('span', { class: 'clock-reserve muted', 'data-clock-reserve': '' }) };
      clockRows.push(row);
      return h('li', { 'data-clock-seat': k }, h('span', { class: 'seat-no' }, String(k + 1)), h('span', { class: 'seat-name' }, seatLabel(st, k)), ' ', row.left, ' ', row.reserve);
    });
    clear(clockBox, h('h2', null, t('clock.title')), h('p', null, clockText(c)), h('ul', { class: 'clock-list' }, rows));
    tickClock();
  }

  // What the server allows seat k for this move from its start, in ms (the server's
  // allowance): the reserve in the message is the one the move started with, since the
  // server charges the reserve only when the move ends.
  function allowance(k) {
    const c = info.clock;
    const clock = s.msg && s.msg.clock;
    if (c.kind === 'real_time') return c.per_move_seconds * 1000 + ((clock && clock.reserve_ms && clock.reserve_ms[k]) || 0);
    if (c.kind === 'turn_based') return c.hours_per_move * 3600000;
    return 0;
  }

  // The deadlines are the server's Unix ms. Each message carries the server's clock
  // when it was written (server_time_ms), so s.skew = server − browser clock, read when
  // the message arrives (its time in flight counts against the player, the safe side).
  // A server without it: assume the clocks agree, except that a move's time left can
  // never be more than its allowance.
  function measureSkew(msg) {
    const now = Date.now();
    if (typeof msg.server_time_ms === 'number') {
      s.skew = msg.server_time_ms - now;
      return;
    }
    let skew = 0;
    const dl = (msg.clock && msg.clock.deadline_ms) || [];
    if (info.clock && info.clock.kind !== 'none') {
      dl.forEach((d, k) => {
        if (typeof d === 'number') skew = Math.max(skew, d - allowance(k) - now);
      });
    }
    s.skew = skew;
  }

  function tickClock() {
    const msg = s.msg;
    const c = info.clock;
    if (!msg || !c || !clockRows.length) return;
    const clock = msg.clock || {};
    const dl = clock.deadline_ms || [];
    const reserves = clock.reserve_ms || [];
    const pending = msg.pending || [];
    const now = Date.now() + (s.skew || 0);
    for (const row of clockRows) {
      const k = row.seat;
      const deadline = pending.includes(k) && typeof dl[k] === 'number' ? dl[k] : null;
      const left = deadline === null ? null : Math.max(0, Math.min(deadline - now, allowance(k)));
      let leftText = '';
      let reserveText = '';
      let low = false;
      if (c.kind === 'real_time') {
        const reserve = reserves[k] || 0;
        if (left === null) {
          reserveText = t('clock.reserveLeft', { t: clockTime(reserve) });
        } else {
          // The move's own seconds go first, then the reserve.
          const onMove = left - reserve;
          leftText = onMove > 0 ? t('clock.moveLeft', { t: clockTime(onMove) }) : t('clock.onReserveLeft', { t: clockTime(left) });
          reserveText = t('clock.reserveLeft', { t: clockTime(Math.min(reserve, left)) });
          low = left <= LOW_REAL_MS;
        }
      } else if (c.kind === 'turn_based' && left !== null) {
        const mins = Math.floor(left / 60000);
        leftText = t('clock.hoursLeft', { h: Math.floor(mins / 60), m: mins % 60 });
        low = left <= LOW_TURN_MS;
      }
      if (row.left.textContent !== leftText) row.left.textContent = leftText;
      if (row.reserve.textContent !== reserveText) row.reserve.textContent = reserveText;
      if (left === null) delete row.left.dataset.ms;
      else row.left.dataset.ms = String(left);
      row.left.classList.toggle('clock-low', low);
      if (low) row.left.dataset.clockLow = '';
      else delete row.left.dataset.clockLow;
    }
  }

  // The log grows by a few lines per message, so only the new lines are added; the whole
  // list is drawn again only when what a line shows changes (language, seat names).
  // Following the newest line waits for the next frame: reading the box's geometry while
  // drawing would force a layout of everything drawn so far in this message (the top
  // script cost of a redraw in a profile), whereas a frame lays out anyway. The reader
  // was at the bottom if the view reached the height the log had at the last frame.
  const logDrawn = new Map(); // index -> li
  let logLabels = '';
  let logHeight = 0; // scrollHeight as of the last frame that looked
  let logScroll = 0;

  function followLog() {
    logScroll = 0;
    if (logBox.scrollTop + logBox.clientHeight >= logHeight - 4) logBox.scrollTop = logBox.scrollHeight;
    logHeight = logBox.scrollHeight;
  }

  function logLine(e, you) {
    const seats = s.msg.seats;
    return h('li', { 'data-log-index': e.index, class: e.seat === null ? 'news' : e.seat === you && you !== null ? 'mine' : '' }, h('span', { class: 'log-seat' }, e.seat === null || e.seat === undefined ? '' : seatLabel(seats[e.seat], e.seat) + ': '), logText(e));
  }

  function drawLog() {
    if (!s.msg) return;
    const you = s.msg.you;
    const labels = JSON.stringify([lang(), you, s.msg.seats.map((st, k) => seatLabel(st, k))]);
    if (labels !== logLabels) {
      logLabels = labels;
      logDrawn.clear();
      logHeight = 0;
      clear(logBox);
    }
    const fresh = [];
    for (const e of s.log.values()) if (!logDrawn.has(e.index)) fresh.push(e);
    if (!fresh.length) {
      drawLogToggle();
      return;
    }
    fresh.sort((a, b) => a.index - b.index);
    let last = logBox.lastElementChild ? Number(logBox.lastElementChild.dataset.logIndex) : -Infinity;
    for (const e of fresh) {
      const li = logLine(e, you);
      logDrawn.set(e.index, li);
      if (e.index > last) {
        logBox.appendChild(li);
        last = e.index;
      } else {
        // A line older than the newest drawn (a resubscribe filling a gap): in its place.
        const after = [...logBox.children].find((x) => Number(x.dataset.logIndex) > e.index);
        logBox.insertBefore(li, after || null);
      }
    }
    if (!logScroll) logScroll = requestAnimationFrame(followLog);
    drawLogToggle();
  }

  function drawResult() {
    const msg = s.msg;
    if (!msg || msg.status !== 'finished' || !msg.outcome) {
      clear(resultBox);
      return;
    }
    clear(resultBox, resultPanel(info, msg.seats, msg.outcome, msg.you), h('p', { class: 'row' }, link('/replay/' + id + (msg.you !== null ? '?seat=' + msg.you : ''), t('result.replay')), link('/', t('nav.lobby'))));
  }

  // This seat's decision: null unless it is pending with something to do.
  function decisionKey(msg) {
    const pending = msg.you !== null && (msg.pending || []).includes(msg.you) && msg.legal.length > 0;
    return pending ? JSON.stringify([msg.you, msg.legal.map((l) => l.action)]) : null;
  }

  function drawBoardNow() {
    const msg = s.msg;
    if (!msg || msg.status === 'open' || !msg.view) {
      clear(boardRoot, msg && msg.status === 'abandoned' ? h('p', null, t('table.abandoned')) : null);
      layout.hidden = !msg || msg.status === 'open';
      watchActions();
      return;
    }
    layout.hidden = false;
    // The draft lives while this seat stays pending on the same decision: during a
    // simultaneous choice another seat's move makes a new version without touching this
    // seat's choice, and must not wipe a half-built one (the server accepts an act from
    // an older version on the same grounds, docs/PROTOCOL.md).
    if (s.draftVersion !== msg.version) {
      const key = decisionKey(msg);
      if (key === null || key !== s.draftKey) {
        s.draft = {};
        s.draftFrom = msg.version;
      }
      s.draftKey = key;
      s.draftVersion = msg.version;
    }
    const ctx = makeCtx(
      mod,
      { ...msg, options: info.options, players: info.players },
      { send, draft: s.draft, rerender: () => drawBoardNow() },
    );
    drawBoard(mod, boardRoot, ctx);
    watchActions();
  }

  function draw() {
    drawHead();
    drawSeating();
    clear(seatsBox, seatsList());
    drawPlayActions();
    drawTurn();
    drawClock();
    drawLog();
    drawBoardNow();
    drawResult();
  }

  // "Your turn" when away (notify.js): only when the move comes to this seat, not for
  // the state the page opened on.
  const isYours = (msg) => msg && msg.status === 'playing' && msg.you !== null && (msg.pending || []).includes(msg.you) && msg.legal.length > 0;
  const unsub = live.subscribe(id, invite || info.invite_code, (msg) => {
    if (s.msg && !isYours(s.msg) && isYours(msg)) yourTurn(t('alert.turnTitle'), t('alert.turnBody', { game: gameName(info.game) }));
    // An error belongs to the state it was made in; a new state makes it old news.
    if (s.msg && s.msg.version !== msg.version) showError(err, null);
    s.msg = msg;
    for (const e of msg.log || []) s.log.set(e.index, e);
    measureSkew(msg);
    document.body.dataset.version = String(msg.version);
    // A step of a secret choice of several steps keeps the version (docs/PROTOCOL.md).
    document.body.dataset.draft = String(msg.draft || 0);
    document.body.dataset.status = msg.status;
    draw();
  });
  const offErr = live.onError((e) => {
    if (e.table === id) fail(e);
  });
  const tick = setInterval(tickClock, 1000);
  draw();
  return {
    cleanup: () => {
      unsub();
      offErr();
      clearInterval(tick);
      delete document.body.dataset.version;
      delete document.body.dataset.status;
      if (logScroll) cancelAnimationFrame(logScroll);
      document.removeEventListener('keydown', onKey);
      resized.disconnect();
    },
    relang: () => {
      sidePlayers.textContent = t('game.players');
      logHead.textContent = t('game.log');
      logClose.textContent = t('game.logClose');
      clear(alertBox, alertSettings());
      draw();
    },
  };
}

function resultPanel(info, seats, outcome, you) {
  const g = gameInfo(info.game);
  const teamNames = (g && g.meta.teams) || [];
  const rows = seats.map((st, k) => ({ k, st, rank: (outcome.ranks || [])[k], score: (outcome.scores || [])[k], team: (outcome.teams || [])[k] }));
  rows.sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99) || a.k - b.k);
  const teamName = (i) => (i === null || i === undefined ? '' : teamNames[i] ? teamNames[i][lang()] || teamNames[i].en : t('result.team', { n: i + 1 }));
  const hasTeams = rows.some((r) => r.team !== null && r.team !== undefined);
  return h(
    'section',
    { class: 'card result', 'data-outcome': '' },
    h('h2', null, t('result.title')),
    outcome.winning_team !== null && outcome.winning_team !== undefined && h('p', { class: 'winner', 'data-winning-team': outcome.winning_team }, t('result.teamWins', { team: teamName(outcome.winning_team) })),
    you !== null && you !== undefined && (outcome.ranks || [])[you] === 1 && h('p', { class: 'winner' }, t('result.youWin')),
    h(
      'table',
      null,
      h('thead', null, h('tr', null, h('th', null, t('result.rank')), h('th', null, t('result.player')), h('th', null, t('result.score')), hasTeams && h('th', null, t('result.teamCol')))),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            { 'data-seat': r.k, class: r.k === you ? 'you' : '' },
            h('td', null, r.rank ?? ''),
            h('td', null, seatLabel(r.st, r.k)),
            h('td', null, r.score ?? ''),
            hasTeams && h('td', null, teamName(r.team)),
          ),
        ),
      ),
    ),
  );
}

// ---- replay ----

async function replayPage(m, params) {
  const id = Number(m[1]);
  const seatParam = params.get('seat');
  const seat = seatParam === null || seatParam === '' ? null : Number(seatParam);
  const info = await get('/api/tables/' + id);
  const data = await get('/api/tables/' + id + '/replay' + (seat === null ? '' : '?seat=' + seat));
  const mod = await loadBoard(info.game);
  const steps = data.steps || [];
  let i = Number(params.get('step') || 0);
  if (!(i >= 0 && i < steps.length)) i = 0;

  const boardRoot = h('div', { class: 'board', 'data-board': info.game });
  const logBox = h('ol', { class: 'log', 'data-log': '' });
  const pos = h('span', { 'data-step': '' });
  const range = h('input', { type: 'range', min: 0, max: Math.max(0, steps.length - 1), value: i, 'aria-label': t('replay.position'), oninput: (e) => go(Number(e.target.value)) });
  const seatSel = h(
    'select',
    { 'data-replay-seat': '', onchange: (e) => navigate('/replay/' + id + (e.target.value === '' ? '' : '?seat=' + e.target.value)) },
    h('option', { value: '', selected: seat === null || undefined }, t('replay.spectator')),
    info.seats.map((st, k) => h('option', { value: String(k), selected: seat === k || undefined }, seatLabel(st, k))),
  );
  const btn = (label, attr, f) => h('button', { [attr]: '', onclick: f }, label);
  // The outcome shows at the last step, or when asked: stepping from the start must not
  // spoil the end (issue 21).
  let resultShown = false;
  const resultHost = h('div', { 'data-replay-result': '' });

  function drawResult() {
    if (!info.outcome) {
      clear(resultHost);
      return;
    }
    if (resultShown || i === steps.length - 1) {
      clear(resultHost, resultPanel(info, info.seats, info.outcome, seat));
      return;
    }
    clear(
      resultHost,
      h('p', { class: 'muted' }, t('replay.resultHidden'), ' ', btn(t('replay.showResult'), 'data-replay-show-result', () => {
        resultShown = true;
        drawResult();
      })),
    );
  }

  function go(n) {
    i = Math.max(0, Math.min(steps.length - 1, n));
    draw();
  }

  function draw() {
    const step = steps[i];
    pos.textContent = t('replay.step', { n: i, total: Math.max(0, steps.length - 1) });
    range.value = String(i);
    document.body.dataset.replayStep = String(i);
    drawResult();
    if (!step) {
      clear(boardRoot, h('p', null, t('replay.empty')));
      return;
    }
    // Step k > 0 is action k-1: its actor and the line this perspective reads.
    // A step that revealed something (a reveal's places, cards, exhibits) adds that line.
    const entries = steps.slice(1, i + 1).flatMap((st) => [
      { seat: st.seat, text: st.log, text_ja: st.log_ja },
      ...(st.news ? [{ seat: null, text: st.news, text_ja: st.news_ja }] : []),
    ]);
    clear(
      logBox,
      entries.map((e) =>
        h('li', { class: e.seat === null ? 'news' : e.seat === seat && seat !== null ? 'mine' : '' }, h('span', { class: 'log-seat' }, e.seat === null || e.seat === undefined ? '' : seatLabel(info.seats[e.seat], e.seat) + ': '), logText(e)),
      ),
    );
    logBox.scrollTop = logBox.scrollHeight;
    const ctx = makeCtx(
      mod,
      { game: info.game, view: step.view, legal: [], you: seat, seats: info.seats, pending: [], status: i === steps.length - 1 ? info.status : 'playing', outcome: i === steps.length - 1 ? info.outcome : null, version: step.version, options: info.options, players: info.players, replay: true },
      { send: () => Promise.reject({ code: 'replay', message: '' }), draft: {}, rerender: () => draw() },
    );
    drawBoard(mod, boardRoot, ctx);
  }

  const onKey = (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowRight') go(i + 1);
    if (e.key === 'ArrowLeft') go(i - 1);
  };
  document.addEventListener('keydown', onKey);

  clear(
    main,
    h('h1', null, t('replay.title'), ' — ', gameName(info.game), ' ', h('span', { class: 'muted' }, t('table.n', { n: id }))),
    h(
      'div',
      { class: 'replay-controls row', role: 'toolbar', 'aria-label': t('replay.title') },
      btn('« ' + t('replay.first'), 'data-replay-first', () => go(0)),
      btn('◀ ' + t('replay.back'), 'data-replay-back', () => go(i - 1)),
      btn(t('replay.forward') + ' ▶', 'data-replay-forward', () => go(i + 1)),
      btn(t('replay.last') + ' »', 'data-replay-last', () => go(steps.length - 1)),
      range,
      pos,
      h('label', null, t('replay.perspective'), ' ', seatSel),
    ),
    h('div', { class: 'game-layout' }, h('div', { class: 'game-main' }, boardRoot, resultHost), h('aside', { class: 'game-side' }, h('h2', null, t('game.log')), logBox)),
  );
  draw();
  return {
    cleanup: () => {
      document.removeEventListener('keydown', onKey);
      delete document.body.dataset.replayStep;
    },
    relang: () => route(),
  };
}

// ---- rules ----

async function rulesPage(m) {
  const id = m[1];
  if (!id) {
    clear(
      main,
      h('h1', null, t('rules.title')),
      h(
        'ul',
        { class: 'game-list' },
        app.games.map((g) =>
          h(
            'li',
            null,
            link('/rules/' + g.meta.id, gameName(g.meta.id)),
            ' ',
            h('span', { class: 'muted' }, t('rules.meta', { min: g.meta.min_players, max: g.meta.max_players, m0: g.meta.minutes[0], m1: g.meta.minutes[1], age: g.meta.min_age })),
          ),
        ),
      ),
    );
    return {};
  }
  const g = gameInfo(id);
  if (!g) throw { code: 'unknown_game', message: id };
  const mod = await loadBoard(id);
  const html = mod.rules && (mod.rules[lang()] || mod.rules.en || mod.rules.ja);
  clear(
    main,
    h('h1', null, gameName(id)),
    h('p', { class: 'muted' }, t('rules.meta', { min: g.meta.min_players, max: g.meta.max_players, m0: g.meta.minutes[0], m1: g.meta.minutes[1], age: g.meta.min_age })),
    html ? h('article', { class: 'rules', 'data-rules': id, html }) : h('article', { class: 'rules', 'data-rules': id }, h('p', null, t('rules.none'))),
    link('/rules', t('rules.all')),
  );
  return {};
}

// ---- start ----

async function boot() {
  try {
    app.me = await get('/api/me');
  } catch {
    app.me = null;
  }
  if (app.me) live.start();
  route();
}

// Tests and debugging reach the live connection through here.
window.takuge = { live, navigate, notifier };
boot();
