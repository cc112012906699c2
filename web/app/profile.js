// The profile (issue 21): `/profile` (one's own) and `/u/<name>` (anyone's, as their
// shelf's visibility allows) — the display name (one's own: the form to change it), the
// "your turn" alerts, the tables waiting for one's move, the tables open and in play,
// per-game numbers (played, won, win rate; by seat and by team or role), a plot of the
// results over time, and the finished games with their replays. Everything comes from
// the server (`GET /api/profiles/...`), so another browser shows the same history.
// User text (names) goes in as text nodes (dom.js `h`).
import { h, clear } from './dom.js';
import { get, api } from './api.js';
import { t, lang } from './i18n.js';
import { displayName, playList } from './shelf.js';
import { alertSettings } from './notify.js';

// ctx: {app, main, link, errorBox, showError, navigate, gameName, drawHeader}
let ctx = null;

export function profileRoutes(c) {
  ctx = c;
  return [
    [/^\/profile$/, () => profilePage(null), true],
    [/^\/u\/([^/]+)$/, (m) => profilePage(decodeURIComponent(m[1])), false],
  ];
}

function pct(wins, plays) {
  return plays ? Math.round((100 * wins) / plays) + '%' : '–';
}

function split(label, s) {
  return t('profile.split', { label, wins: s.wins, plays: s.plays, rate: pct(s.wins, s.plays) });
}

function deadlineText(ms) {
  if (!ms) return '';
  const left = ms - Date.now();
  if (left <= 0) return t('profile.deadlinePast');
  const mins = Math.round(left / 60000);
  return t('profile.deadline', { h: Math.floor(mins / 60), m: mins % 60 });
}

function tableList(tables, attr, empty) {
  const { link, gameName } = ctx;
  if (!tables.length) return h('p', { class: 'muted', 'data-empty': '' }, empty);
  return h(
    'ul',
    { class: 'table-list', [attr]: '' },
    tables.map((tb) =>
      h(
        'li',
        { 'data-table': tb.id, 'data-status': tb.status, 'data-to-act': tb.to_act ? '1' : null },
        h('span', { class: 'tname' }, gameName(tb.game)),
        h('span', { class: 'status status-' + tb.status }, t('status.' + tb.status)),
        h('span', { class: 'muted' }, t('profile.seat', { n: tb.seat + 1 })),
        tb.private ? h('span', { class: 'muted' }, t('profile.private')) : null,
        tb.to_act ? h('strong', { class: 'your-turn' }, t('profile.yourMove')) : null,
        tb.to_act && tb.deadline_ms ? h('span', { class: 'muted' }, deadlineText(tb.deadline_ms)) : null,
        link('/t/' + tb.id, tb.to_act ? t('profile.play') : t('lobby.go')),
      ),
    ),
  );
}

function statsTable(stats) {
  if (!stats.length) return h('p', { class: 'muted', 'data-empty': '' }, t('plays.none'));
  return h(
    'div',
    { class: 'wide-scroll' },
    h(
      'table',
      { class: 'stats', 'data-profile-stats': '' },
      h('thead', null, h('tr', null, ['game', 'plays', 'wins', 'rate', 'split'].map((k) => h('th', null, t('profile.col.' + k))))),
      h(
        'tbody',
        null,
        stats.map((s) =>
          h(
            'tr',
            { 'data-stat': s.game.slug || s.game.id },
            h('td', null, displayName(s.game)),
            h('td', { 'data-played': '' }, String(s.plays)),
            h('td', { 'data-won': '' }, String(s.wins)),
            h('td', { 'data-rate': '' }, pct(s.wins, s.plays)),
            h(
              'td',
              { class: 'splits' },
              s.by_seat.length
                ? h('div', { 'data-by-seat': '' }, s.by_seat.map((x, i) => [i ? ' · ' : '', split(t('profile.seat', { n: x.seat + 1 }), x)]))
                : null,
              s.by_team.length
                ? h('div', { 'data-by-team': '' }, s.by_team.map((x, i) => [i ? ' · ' : '', split(lang() === 'ja' ? x.name_ja : x.name_en, x)]))
                : null,
            ),
          ),
        ),
      ),
    ),
  );
}

// The results over time: the running win rate as a line over the games in order, each
// game a dot (filled: won). Numbers only go into the SVG.
function resultsPlot(results) {
  const ns = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const w = 600;
  const top = 10;
  const hgt = 120;
  const left = 34;
  const svg = el('svg', { viewBox: `0 0 ${w + left + 10} ${top + hgt + 24}`, class: 'plot results-plot', role: 'img', 'data-results-plot': '' });
  svg.setAttribute('aria-label', t('profile.plotLabel', { n: results.length }));
  const y = (rate) => top + hgt - rate * hgt;
  for (const r of [0, 0.5, 1]) {
    svg.appendChild(el('line', { x1: left, x2: left + w, y1: y(r), y2: y(r), class: 'grid' }));
    const lab = el('text', { x: left - 4, y: y(r) + 3, 'text-anchor': 'end' });
    lab.textContent = Math.round(r * 100) + '%';
    svg.appendChild(lab);
  }
  const n = results.length;
  const x = (i) => left + (n > 1 ? (i * w) / (n - 1) : w / 2);
  let wins = 0;
  const pts = results.map((r, i) => {
    if (r.won) wins += 1;
    return [x(i), y(wins / (i + 1))];
  });
  if (pts.length > 1) svg.appendChild(el('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: 'rate' }));
  results.forEach((r, i) => {
    const c = el('circle', { cx: pts[i][0], cy: pts[i][1], r: 3.5, class: r.won ? 'won' : 'lost', 'data-result': r.won ? 'won' : 'lost' });
    const tt = el('title', {});
    tt.textContent = r.date + ' — ' + (r.won ? t('profile.won') : t('profile.lost')) + (r.rank ? ' (' + t('profile.rank', { n: r.rank, of: r.players }) + ')' : '');
    c.appendChild(tt);
    svg.appendChild(c);
  });
  if (n) {
    for (const [i, anchor] of [
      [0, 'start'],
      [n - 1, 'end'],
    ]) {
      const d = el('text', { x: n > 1 ? x(i) : left + w / 2, y: top + hgt + 18, 'text-anchor': n > 1 ? anchor : 'middle' });
      d.textContent = results[i].date;
      svg.appendChild(d);
      if (n === 1) break;
    }
  }
  return svg;
}

function nameForm(data, onDone) {
  const { errorBox, showError } = ctx;
  const err = errorBox();
  const input = h('input', { name: 'display_name', maxlength: 64, required: true, value: data.user.display_name, 'aria-label': t('profile.displayName') });
  const saved = h('span', { class: 'muted', 'aria-live': 'polite', 'data-saved': '' });
  return h(
    'form',
    {
      class: 'inline-form',
      'data-form': 'display-name',
      onsubmit: async (ev) => {
        ev.preventDefault();
        showError(err, null);
        saved.textContent = '';
        try {
          const user = await api('PUT', '/api/me', { display_name: input.value });
          saved.textContent = t('profile.saved');
          onDone(user);
        } catch (e) {
          showError(err, e);
        }
      },
    },
    h('label', null, t('profile.displayName'), input),
    h('button', { type: 'submit' }, t('profile.save')),
    saved,
    h('p', { class: 'hint' }, t('profile.displayNameHint')),
    err,
  );
}

async function profilePage(who) {
  const { app, main, link } = ctx;
  const data = await get(who === null ? '/api/profiles/me' : '/api/profiles/' + encodeURIComponent(who));
  const u = data.user;
  const heading = h('h1', { 'data-profile-name': '' }, u.display_name);
  document.title = u.display_name + ' — takuge';
  const login = u.name ? h('p', { class: 'muted', 'data-login-name': '' }, '@' + u.name) : null;
  const own = data.own;
  const history = u.name ? link(own ? '/plays' : '/plays/' + encodeURIComponent(u.name), t('profile.allPlays')) : null;
  const shelf = u.name ? link(own ? '/shelf' : '/shelf/' + encodeURIComponent(u.name), t('nav.shelf')) : null;
  clear(
    main,
    heading,
    login,
    h('div', { class: 'profile' },
      own
        ? h('section', { class: 'card', 'data-waiting-card': '' }, h('h2', null, t('profile.waiting')), tableList(data.waiting, 'data-waiting', t('profile.noneWaiting')))
        : null,
      h('section', { class: 'card' }, h('h2', null, t('profile.tables')), tableList(data.tables, 'data-profile-tables', t('profile.noTables'))),
      h(
        'section',
        { class: 'card' },
        h('h2', null, t('profile.stats')),
        statsTable(data.stats),
        h('h3', null, t('profile.plot')),
        data.results.length ? resultsPlot(data.results) : h('p', { class: 'muted' }, t('plays.none')),
      ),
      h('section', { class: 'card', 'data-profile-finished': '' }, h('h2', null, t('profile.finished')), playList(data.finished), h('p', null, history, ' ', shelf)),
      own
        ? h(
            'section',
            { class: 'card' },
            h('h2', null, t('profile.settings')),
            u.guest
              ? h('p', { class: 'hint' }, t('profile.guestHint'), ' ', link('/login', t('nav.register')))
              : nameForm(data, (user) => {
                  heading.textContent = user.display_name;
                  if (app.me && app.me.id === user.id) app.me = { ...app.me, display_name: user.display_name };
                  ctx.drawHeader();
                }),
            h('h3', null, t('alert.title')),
            h('p', { class: 'hint' }, t('alert.hint')),
            alertSettings(),
            h('p', { class: 'hint' }, t('profile.visibility.' + data.visibility), ' ', u.name ? link('/shelf', t('profile.visibilityChange')) : null),
          )
        : null,
    ),
  );
  return {};
}
