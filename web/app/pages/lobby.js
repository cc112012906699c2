// /: the lobby — open tables and games in play (with filters, refreshed every 5 s), the
// create-table form (create.js) and "my tables" from the server.
import { h, clear } from '../dom.js';
import { get } from '../api.js';
import { t, lang } from '../i18n.js';
import { loadBoard, botName } from '../board-host.js';
import { app, main, link, errorBox, showError, gameInfo, gameName, clockText } from '../shell.js';
import { createForm, defaultOptionFields } from './create.js';

export async function lobbyPage(m, params) {
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
