// The shelf's pages (issue 17): a shelf (one's own or anyone's: the share link), a game's
// page, the BoardGameGeek import, plays (history, per-game numbers, a plot, logging one).
// Every piece of user text goes in as a text node (dom.js `h`), never as HTML.
import { h, clear } from './dom.js';
import { get, post, api } from './api.js';
import { t, lang, errorText } from './i18n.js';
import { reviewSection, adminPage } from './reviews.js';
import { similarBlock } from './recommend.js';

// ctx: {app, main, link, errorBox, showError, navigate}
let ctx = null;

export function shelfRoutes(c) {
  ctx = c;
  return [
    [/^\/shelf$/, (m, p) => shelfPage(null, p), true],
    [/^\/shelf\/([^/]+)$/, (m, p) => shelfPage(decodeURIComponent(m[1]), p), false],
    [/^\/games\/([\w-]+)$/, (m) => gamePage(m[1]), false],
    [/^\/import$/, () => importPage(), true],
    [/^\/plays$/, () => playsPage(null), true],
    [/^\/plays\/([^/]+)$/, (m) => playsPage(decodeURIComponent(m[1])), false],
    [/^\/admin$/, () => adminPage(ctx), true],
  ];
}

const STATUSES = ['own', 'prev_owned', 'want_to_play', 'wishlist', 'played', 'favourite'];

export function displayName(g) {
  if (lang() === 'ja') return g.name_ja || g.name_en;
  return g.name_en || g.name_ja;
}

function range(a, b) {
  if (a == null && b == null) return '–';
  if (a == null || b == null || a === b) return String(a ?? b);
  return a + '–' + b;
}

// ---- a shelf ----

const FILTERS = ['q', 'status', 'players', 'best', 'max_minutes', 'age', 'sort', 'order'];

async function shelfPage(who, params) {
  const { app, main, link, errorBox, showError, navigate } = ctx;
  const own = who === null || (app.me && !app.me.guest && app.me.name === who);
  const base = own ? '/api/collections/me' : '/api/collections/' + encodeURIComponent(who);
  const err = errorBox();
  const listBox = h('div', { class: 'shelf-list', 'data-shelf': '' });
  const field = (name, attrs) => h('input', { name, 'data-filter': name, value: params.get(name) || '', ...attrs });
  const select = (name, options) =>
    h(
      'select',
      { name, 'data-filter': name },
      options.map(([v, label]) => h('option', { value: v, selected: (params.get(name) || '') === v }, label)),
    );
  const form = h(
    'form',
    {
      class: 'filters shelf-filters',
      'data-form': 'shelf-filters',
      onsubmit: (ev) => {
        ev.preventDefault();
        const q = new URLSearchParams();
        for (const n of FILTERS) {
          const el = form.elements[n];
          if (el && el.value.trim()) q.set(n, el.value.trim());
        }
        const path = (own ? '/shelf' : '/shelf/' + encodeURIComponent(who)) + (q.toString() ? '?' + q : '');
        navigate(path, true);
      },
    },
    h('label', null, t('shelf.search'), field('q', { type: 'search' })),
    h('label', null, t('shelf.status'), select('status', [['', t('shelf.any')], ...STATUSES.map((s) => [s, t('status.shelf.' + s)])])),
    h('label', null, t('shelf.players'), field('players', { type: 'number', min: 1, max: 99 })),
    h('label', null, t('shelf.best'), field('best', { type: 'number', min: 1, max: 99 })),
    h('label', null, t('shelf.maxMinutes'), field('max_minutes', { type: 'number', min: 1 })),
    h('label', null, t('shelf.age'), field('age', { type: 'number', min: 0, max: 99 })),
    h(
      'label',
      null,
      t('shelf.sort'),
      select('sort', ['name_ja', 'name_en', 'players', 'minutes', 'age', 'year', 'rating', 'updated'].map((s) => [s, t('shelf.sort.' + s)])),
    ),
    h('label', null, t('shelf.order'), select('order', [['asc', t('shelf.asc')], ['desc', t('shelf.desc')]])),
    h('button', { type: 'submit', class: 'primary' }, t('shelf.apply')),
  );
  if (!params.get('sort')) form.elements.sort.value = lang() === 'ja' ? 'name_ja' : 'name_en';

  const q = new URLSearchParams();
  for (const n of FILTERS) if (params.get(n)) q.set(n, params.get(n));
  if (!q.get('sort')) q.set('sort', lang() === 'ja' ? 'name_ja' : 'name_en');
  q.set('limit', '2000');
  const data = await get(base + '?' + q);
  const owner = data.owner;
  const shareUrl = location.origin + '/shelf/' + encodeURIComponent(owner.name);
  const visibility = own
    ? h(
        'label',
        null,
        t('shelf.visibility'),
        h(
          'select',
          {
            'data-visibility': '',
            onchange: async (ev) => {
              try {
                await api('PUT', '/api/collections/me', { visibility: ev.target.value });
                showError(err, null);
              } catch (e) {
                showError(err, e);
              }
            },
          },
          ['public', 'signed_in', 'private'].map((v) => h('option', { value: v, selected: data.visibility === v }, t('shelf.vis.' + v))),
        ),
      )
    : null;
  clear(
    listBox,
    h('p', { class: 'muted', 'data-total': data.total }, t('shelf.total', { n: data.total })),
    data.entries.length
      ? h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'shelf-table' },
            h(
              'thead',
              null,
              h('tr', null, ['name', 'players', 'best', 'minutes', 'year', 'statuses', 'rating', 'comment'].map((c) => h('th', null, t('shelf.col.' + c)))),
            ),
            h(
              'tbody',
              null,
              data.entries.map((e) =>
                h(
                  'tr',
                  { 'data-entry': e.game.id, 'data-name': e.game.name_en || e.game.name_ja },
                  h('td', null, link('/games/' + e.game.id, displayName(e.game))),
                  h('td', null, range(e.game.min_players, e.game.max_players)),
                  h('td', null, e.game.best_players.join(', ')),
                  h('td', null, range(e.game.min_minutes, e.game.max_minutes)),
                  h('td', null, e.game.year ?? ''),
                  h('td', null, STATUSES.filter((s) => e[s]).map((s) => h('span', { class: 'badge' }, t('status.shelf.' + s)))),
                  h('td', null, e.rating ?? ''),
                  h('td', { class: 'comment' }, e.comment),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-empty': '' }, t('shelf.empty')),
  );
  clear(
    main,
    h('h1', null, own ? t('shelf.mine') : t('shelf.of', { name: owner.name })),
    h(
      'p',
      { class: 'row' },
      t('shelf.share'),
      ' ',
      h('a', { href: shareUrl, 'data-share': '' }, shareUrl),
      visibility,
      own && link('/import', t('shelf.import')),
      link(own ? '/plays' : '/plays/' + encodeURIComponent(owner.name), t('plays.title')),
    ),
    form,
    err,
    listBox,
  );
  return {};
}

// ---- a game ----

async function gamePage(id) {
  const { app, main, link, errorBox, showError } = ctx;
  const data = await get('/api/catalog/' + encodeURIComponent(id));
  const g = data.game;
  const c = data.counts;
  const err = errorBox();
  const fact = (k, v) => (v === '' || v == null ? null : h('div', null, h('dt', null, t('game.' + k)), h('dd', null, v)));
  let entryForm = null;
  if (app.me && !app.me.guest) {
    const mine = await get('/api/collections/me?limit=2000').catch(() => ({ entries: [] }));
    const e = mine.entries.find((x) => x.game.id === g.id) || {};
    entryForm = h(
      'form',
      {
        class: 'card',
        'data-form': 'entry',
        onsubmit: async (ev) => {
          ev.preventDefault();
          const f = ev.target;
          const body = { comment: f.comment.value };
          for (const s of STATUSES) body[s] = f[s].checked;
          if (f.rating.value) body.rating = Number(f.rating.value);
          if (body.wishlist && f.wishlist_priority.value) body.wishlist_priority = Number(f.wishlist_priority.value);
          try {
            await api('PUT', '/api/collections/me/' + g.id, body);
            showError(err, null);
            f.querySelector('[data-saved]').hidden = false;
          } catch (x) {
            showError(err, x);
          }
        },
      },
      h('h2', null, t('game.myShelf')),
      h('div', { class: 'row' }, STATUSES.map((s) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: s, checked: !!e[s] }), t('status.shelf.' + s)))),
      h('label', null, t('game.priority'), h('input', { type: 'number', name: 'wishlist_priority', min: 1, max: 5, value: e.wishlist_priority ?? '' })),
      h('label', null, t('game.rating'), h('input', { type: 'number', name: 'rating', min: 1, max: 10, step: 0.1, value: e.rating ?? '' })),
      h('label', null, t('game.comment'), h('textarea', { name: 'comment', maxlength: 4000 }, e.comment || '')),
      err,
      h('button', { type: 'submit', class: 'primary' }, t('game.save')),
      h('span', { class: 'muted', 'data-saved': '', hidden: true }, t('game.saved')),
    );
  }
  clear(
    main,
    h('h1', { 'data-game': g.id }, displayName(g)),
    g.name_ja && g.name_en ? h('p', { class: 'muted' }, lang() === 'ja' ? g.name_en : g.name_ja) : null,
    g.status !== 'approved' ? h('p', { class: 'muted', 'data-pending': '' }, t('game.pending')) : null,
    g.links
      ? h(
          'p',
          { class: 'row' },
          h('a', { href: g.links.tables, 'data-link': '', class: 'button primary', 'data-play-now': '' }, t('game.playNow')),
          link(g.links.rules, t('nav.rules')),
        )
      : null,
    h(
      'dl',
      { class: 'facts' },
      fact('player_count', range(g.min_players, g.max_players)),
      fact('best', g.best_players.join(', ')),
      fact('minutes', range(g.min_minutes, g.max_minutes)),
      fact('age', g.min_age == null ? '' : g.min_age + '+'),
      fact('year', g.year),
      fact('designers', g.designers.join(', ')),
      fact('publishers', g.publishers.join(', ')),
      fact('mechanics', g.mechanics.concat(g.categories).join(', ')),
      g.bgg_id ? h('div', null, h('dt', null, 'BGG'), h('dd', null, h('a', { href: 'https://boardgamegeek.com/boardgame/' + g.bgg_id, rel: 'noopener' }, String(g.bgg_id)))) : null,
    ),
    h(
      'ul',
      { class: 'counts', 'data-counts': '' },
      ['own', 'want_to_play', 'played', 'favourite', 'wishlist'].map((k) => h('li', { 'data-count': k }, t('status.shelf.' + k), ': ', String(c[k]))),
      h('li', { 'data-count': 'rating' }, t('game.average'), ': ', c.average_rating == null ? '–' : c.average_rating + ' (' + c.ratings + ')'),
    ),
    entryForm,
    reviewSection(ctx, g),
    similarBlock(g.id),
    h('h2', null, t('game.recent')),
    playList(data.recent_plays),
  );
  return {};
}

// `own`: the caller's history, whose manual plays (not a takuge match's) can be deleted.
export function playList(plays, own = false) {
  const { link, navigate } = ctx;
  if (!plays.length) return h('p', { class: 'muted', 'data-no-plays': '' }, t('plays.none'));
  return h(
    'ul',
    { class: 'plays', 'data-plays': '' },
    plays.map((p) =>
      h(
        'li',
        { 'data-play': p.id },
        h('span', { class: 'date' }, p.date),
        ' ',
        link('/games/' + p.game.id, displayName(p.game)),
        ' — ',
        p.players.map((x, i) => [i ? ', ' : '', x.winner ? h('strong', null, x.name) : x.name, x.score == null ? '' : ' ' + x.score]),
        p.minutes ? ' (' + t('plays.minutes', { n: p.minutes }) + ')' : '',
        p.comment ? h('span', { class: 'comment' }, ' ', p.comment) : null,
        p.replay ? [' ', link(p.replay, t('result.replay'))] : null,
        own && p.table_id == null
          ? [
              ' ',
              h(
                'button',
                {
                  type: 'button',
                  class: 'link',
                  'data-delete-play': p.id,
                  onclick: async () => {
                    if (!confirm(t('plays.deleteConfirm'))) return;
                    try {
                      await api('DELETE', '/api/plays/' + p.id);
                      navigate('/plays', true);
                    } catch (x) {
                      alert(errorText(x));
                    }
                  },
                },
                t('plays.delete'),
              ),
            ]
          : null,
      ),
    ),
  );
}

// ---- plays ----

function plot(months) {
  // Plays per month as bars; an SVG made of numbers only.
  const w = 600;
  const hgt = 120;
  const max = Math.max(1, ...months.map((m) => m.plays));
  const bw = months.length ? w / months.length : w;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${hgt + 20}`);
  svg.setAttribute('class', 'plot');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('plays.plot'));
  months.forEach((m, i) => {
    const bh = (m.plays / max) * hgt;
    const r = document.createElementNS(ns, 'rect');
    r.setAttribute('x', String(i * bw + 2));
    r.setAttribute('y', String(hgt - bh));
    r.setAttribute('width', String(Math.max(1, bw - 4)));
    r.setAttribute('height', String(bh));
    const title = document.createElementNS(ns, 'title');
    title.textContent = m.month + ': ' + m.plays;
    r.appendChild(title);
    svg.appendChild(r);
    const label = document.createElementNS(ns, 'text');
    label.setAttribute('x', String(i * bw + bw / 2));
    label.setAttribute('y', String(hgt + 15));
    label.setAttribute('text-anchor', 'middle');
    label.textContent = m.month;
    svg.appendChild(label);
  });
  return svg;
}

async function playsPage(who) {
  const { app, main, errorBox, showError, navigate } = ctx;
  const own = who === null;
  const data = await get('/api/plays' + (own ? '' : '?user=' + encodeURIComponent(who)));
  const err = errorBox();
  let form = null;
  if (own && app.me && !app.me.guest) {
    const catalog = await get('/api/catalog?limit=2000&sort=' + (lang() === 'ja' ? 'name_ja' : 'name_en'));
    const shelf = await get('/api/collections/me?limit=2000');
    const games = new Map();
    for (const g of catalog.games.concat(shelf.entries.map((e) => e.game))) games.set(g.id, g);
    const today = new Date().toISOString().slice(0, 10);
    const playerRow = () =>
      h(
        'div',
        { class: 'row player-row', 'data-player': '' },
        h('input', { name: 'pname', placeholder: t('plays.playerName'), 'aria-label': t('plays.playerName') }),
        h('input', { name: 'pscore', type: 'number', placeholder: t('plays.score'), 'aria-label': t('plays.score') }),
        h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'pwin' }), t('plays.winner')),
      );
    const players = h('div', { 'data-players': '' }, playerRow(), playerRow());
    form = h(
      'form',
      {
        class: 'card',
        'data-form': 'log-play',
        onsubmit: async (ev) => {
          ev.preventDefault();
          const f = ev.target;
          const list = [];
          for (const row of players.querySelectorAll('[data-player]')) {
            const name = row.querySelector('[name=pname]').value.trim();
            if (!name) continue;
            const score = row.querySelector('[name=pscore]').value;
            const p = name.startsWith('@') ? { user: name.slice(1) } : { name };
            if (score !== '') p.score = Number(score);
            p.winner = row.querySelector('[name=pwin]').checked;
            list.push(p);
          }
          const body = { game: f.game.value, date: f.date.value, comment: f.comment.value, players: list };
          if (f.minutes.value) body.minutes = Number(f.minutes.value);
          try {
            await post('/api/plays', body);
            navigate('/plays', true);
          } catch (x) {
            showError(err, x);
          }
        },
      },
      h('h2', null, t('plays.log')),
      h('label', null, t('plays.game'), h('select', { name: 'game', required: true }, [...games.values()].map((g) => h('option', { value: String(g.id) }, displayName(g))))),
      h('label', null, t('plays.date'), h('input', { type: 'date', name: 'date', value: today, required: true })),
      h('label', null, t('plays.minutesLabel'), h('input', { type: 'number', name: 'minutes', min: 1 })),
      h('p', { class: 'hint' }, t('plays.playersHint')),
      players,
      h('button', { type: 'button', onclick: () => players.appendChild(playerRow()) }, t('plays.addPlayer')),
      h('label', null, t('game.comment'), h('textarea', { name: 'comment', maxlength: 4000 })),
      err,
      h('button', { type: 'submit', class: 'primary' }, t('plays.save')),
    );
  }
  clear(
    main,
    h('h1', null, own ? t('plays.mine') : t('plays.of', { name: data.user.name })),
    data.by_month.length ? plot(data.by_month) : null,
    data.stats.length
      ? h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'stats', 'data-stats': '' },
            h('thead', null, h('tr', null, ['game', 'plays', 'wins', 'last'].map((k) => h('th', null, t('plays.col.' + k))))),
            h(
              'tbody',
              null,
              data.stats.map((s) => h('tr', { 'data-stat': s.game.id }, h('td', null, displayName(s.game)), h('td', null, String(s.plays)), h('td', null, String(s.wins)), h('td', null, s.last_played))),
            ),
          ),
        )
      : null,
    form,
    h('h2', null, t('plays.history')),
    playList(data.plays, own && app.me && !app.me.guest),
  );
  return {};
}

// ---- import ----

/** The server's limit on an import's body (crates/server/src/shelf/import.rs). */
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

async function importPage() {
  const { main, errorBox, showError, link } = ctx;
  const err = errorBox();
  const report = h('div', { 'data-report': '' });
  const form = h(
    'form',
    {
      class: 'card',
      'data-form': 'import',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const file = ev.target.file.files[0];
        if (!file) return;
        // Refused here rather than after the upload (the server's limit, MAX_IMPORT_BYTES).
        if (file.size > IMPORT_MAX_BYTES) {
          const mb = (n) => (n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
          showError(err, t('import.too_large', { mb: mb(file.size), max: mb(IMPORT_MAX_BYTES) }));
          return;
        }
        ev.target.querySelector('button').disabled = true;
        try {
          const res = await fetch('/api/collections/import', {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'x-takuge': '1', 'content-type': 'text/csv' },
            body: await file.arrayBuffer(),
          });
          const data = await res.json().catch(() => null);
          if (!res.ok) throw (data && data.error) || { code: 'http_' + res.status, message: String(res.status) };
          showError(err, null);
          clear(
            report,
            h(
              'p',
              { 'data-imported': data.rows },
              t('import.done', {
                rows: data.rows,
                games: data.games_added.length,
                added: data.entries_added,
                updated: data.entries_updated,
                unchanged: data.entries_unchanged,
              }),
            ),
            link('/shelf', t('shelf.mine')),
          );
        } catch (x) {
          showError(err, x.message ? x.message : errorText(x));
        } finally {
          ev.target.querySelector('button').disabled = false;
        }
      },
    },
    h('p', null, t('import.how')),
    h('input', { type: 'file', name: 'file', accept: '.csv,text/csv', required: true }),
    err,
    h('button', { type: 'submit', class: 'primary' }, t('import.submit')),
  );
  clear(main, h('h1', null, t('import.title')), form, report);
  return {};
}
