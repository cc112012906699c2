// The create-table form of the lobby: game, players, the game's options (the board's
// optionFields, else one select per option key), private, clock.
import { h, clear } from '../dom.js';
import { post } from '../api.js';
import { t } from '../i18n.js';
import { loadBoard } from '../board-host.js';
import { app, navigate, errorBox, showError, gameInfo, gameName } from '../shell.js';

// The default option fields: one select per key of the game's option_sets, with the values
// seen there.
export function defaultOptionFields(optionSets, mt) {
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

export async function createForm() {
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
