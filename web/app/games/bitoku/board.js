// Bitoku (美徳): the forest board. The top holds the year, the season and what to do now
// (with the choices that belong to no piece); then this player's board (hand, yokai slots,
// dice, crystals, pilgrims, tokens), the five forest regions (dice, settlement, kodama
// track, lake treasure, forest actions), the Great Spirit's abode, the hills of light, the
// reserve, the path of virtue and the other players. The pieces are named and described
// from the component set (components.js, generated from crates/bitoku/data); what may be
// done is only ever the legal-action list: a die or a yokai card is picked first, then the
// place it goes; everything else is one click on the thing it acts on.
import { h, clear } from '../../dom.js';
import C from './components.js';
import { messages } from './messages.js';
import { rules } from './rules.js';
import { chip, dieFace, TENGU_SEAT } from './art.js';

const RES = ['wood', 'stone', 'jade', 'sake'];
const KINDS = ['building', 'crystal', 'mitama', 'dragonfly'];
const PARTS = ['yokai', 'bitoku', 'effect'];
const NO_REGION = 255;
const DISPLAY = C.board.display_spaces;

// ---------------------------------------------------------------------------------------
// Words for pieces and effects.

const ja = (ctx) => ctx.lang === 'ja';
const sep = (ctx) => (ja(ctx) ? '、' : ', ');
const named = (ctx, o) => (o ? (ja(ctx) ? o.name_ja : o.name_en) : '?');
const regionName = (ctx, r) => named(ctx, C.board.region[r]);

function bundleText(ctx, b, plus = true) {
  if (!b) return '';
  const parts = [];
  const item = (name, n) => (ja(ctx) ? `${name}${plus ? '+' : ''}${n}` : `${plus ? '+' : ''}${n} ${name}`);
  for (const r of RES) if (b[r]) parts.push(item(ctx.t('bk.res.' + r), b[r]));
  if (b.virtue) parts.push(ja(ctx) ? `${ctx.t('bk.virtue')}${plus ? '+' : ''}${b.virtue}` : `${plus ? '+' : ''}${b.virtue} VP`);
  for (const v of [1, 2, 3]) {
    const n = b['amulet' + v];
    if (n) parts.push(ja(ctx) ? `${ctx.t('bk.amulet')}(+${v})${n > 1 ? '×' + n : ''}` : `${n > 1 ? n + '× ' : ''}+${v} amulet`);
  }
  return parts.join(sep(ctx)) || ctx.t('bk.nothing');
}

const costText = (ctx, b) => bundleText(ctx, b, false);

function stepText(ctx, s) {
  const k = Object.keys(s)[0];
  const v = s[k];
  switch (k) {
    case 'gain':
      return bundleText(ctx, v);
    case 'pay':
      return ctx.t('bk.step.pay', { cost: costText(ctx, v.cost), then: effectText(ctx, v.then) });
    case 'choose':
      return v.map((o) => effectText(ctx, o)).join(ctx.t('bk.or'));
    case 'take_tile':
      return ctx.t('bk.step.take_tile', { kind: ctx.t('bk.kind.' + v.kind) }) + (v.discount ? ctx.t('bk.step.discount', { n: v.discount }) : '');
    case 'build':
      return ctx.t('bk.step.build') + (v && v.discount ? ctx.t('bk.step.discount', { n: v.discount }) : '');
    default:
      return ctx.t('bk.step.' + k, { n: v });
  }
}

function effectText(ctx, steps) {
  if (!steps || !steps.length) return ctx.t('bk.nothing');
  return steps.map((s) => stepText(ctx, s)).join(ja(ctx) ? '、' : '; ');
}

function yokaiName(ctx, id) {
  return named(ctx, C.cards.yokai[id]);
}

function yokaiTip(ctx, id) {
  const y = C.cards.yokai[id];
  return y ? `${named(ctx, y)}: ${effectText(ctx, y.effect)} · ${ctx.t('bk.vp', { n: y.virtue })}` : '';
}

function tileTitle(ctx, kind, id) {
  const k = KINDS[kind];
  if (k === 'building') {
    const b = C.tiles.building[id];
    return `${ctx.t('bk.bkind.' + b.kind)} ${b.value}`;
  }
  if (k === 'crystal') return ctx.t('bk.colour.' + C.tiles.crystal[id].colour);
  if (k === 'mitama') return ctx.t('bk.mkind.' + C.tiles.mitama[id].kind);
  return ctx.t('bk.kind.dragonfly');
}

function tileLines(ctx, kind, id) {
  const k = KINDS[kind];
  if (k === 'building') {
    const b = C.tiles.building[id];
    return [`${ctx.t('bk.act.pay', { cost: costText(ctx, b.cost) })}`, `▶ ${effectText(ctx, b.action)}`, `♦ ${effectText(ctx, b.bonus)}`];
  }
  if (k === 'crystal') {
    const c = C.tiles.crystal[id];
    return [ctx.t('bk.act.pay', { cost: costText(ctx, c.cost) }), `▶ ${effectText(ctx, c.effect)}`, c.points ? ctx.t('bk.vp', { n: c.points }) : null];
  }
  if (k === 'mitama') return [effectText(ctx, C.tiles.mitama[id].effect)];
  return [effectText(ctx, C.tiles.dragonfly[id].effect)];
}

function visionText(ctx, id) {
  const v = C.cards.vision[id];
  return v ? ctx.t('bk.vision', { count: ctx.t('bk.count.' + v.count), need: v.need, gain: v.gain, loss: v.loss }) : '?';
}

function bitokuCardText(ctx, id) {
  const b = C.cards.bitoku[id];
  if (!b) return '?';
  const kind = C.cards.bitoku_kind.find((k) => k.id === b.kind);
  return `${named(ctx, kind)} · ${effectText(ctx, b.effect)}`;
}

function rockText(ctx, id) {
  const r = C.tiles.iwakura[id];
  return r ? ctx.t('bk.iwakura', { count: ctx.t('bk.count.' + r.symbol) }) : '?';
}

function phaseName(view) {
  return String(view.phase || '').split(/[\s{]/)[0];
}

// ---------------------------------------------------------------------------------------
// The legal actions, sorted by what they act on.

function kindOf(action) {
  return typeof action === 'string' ? action : Object.keys(action)[0];
}

function index(legal) {
  const L = { all: legal, by: new Map() };
  for (const l of legal) {
    const k = kindOf(l.action);
    if (!L.by.has(k)) L.by.set(k, []);
    L.by.get(k).push(l);
  }
  L.of = (k) => L.by.get(k) || [];
  L.find = (k, pred) => L.of(k).find((l) => pred(l.action[k]));
  L.filter = (k, pred) => L.of(k).filter((l) => pred(l.action[k]));
  return L;
}

function send(st, action) {
  const { ctx } = st;
  for (const k of Object.keys(ctx.draft)) delete ctx.draft[k];
  ctx.draft.sending = true;
  ctx.send(action).catch(() => {
    for (const k of Object.keys(ctx.draft)) delete ctx.draft[k];
    ctx.rerender();
  });
  ctx.rerender();
}

// A button on a piece that sends one legal action (marked as drawn, so the panel does not
// repeat it).
function act(st, l, label, cls = '') {
  if (!l) return null;
  st.drawn.add(l);
  return h(
    'button',
    { type: 'button', class: `bk-act ${cls}`, 'data-choice': '', disabled: st.sending || undefined, onclick: () => send(st, l.action), title: label },
    label,
  );
}

function pick(st, field, value) {
  st.ctx.draft[field] = value;
  st.ctx.rerender();
  // The board is drawn anew: focus (and bring into sight, on a phone far below) the first
  // place the picked piece may go.
  const el = document.querySelector('.bk-board .bk-act.target[data-choice]');
  if (el) {
    el.focus({ preventScroll: true });
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: 'center' });
  }
}

function undo(st) {
  const d = st.ctx.draft;
  delete d.die;
  delete d.card;
  st.ctx.rerender();
}

// ---------------------------------------------------------------------------------------

export default {
  messages,
  rules,

  render(root, ctx) {
    const view = ctx.view;
    if (!view || !view.players) {
      clear(root, h('p', { class: 'bk-empty' }, ctx.t('bk.notStarted')));
      return;
    }
    const legal = ctx.replay ? [] : ctx.legal || [];
    const L = index(legal);
    const draft = ctx.draft || {};
    // A pick that no longer leads anywhere is dropped.
    if (draft.die !== undefined && !L.filter('place', (a) => a.die === draft.die).length && !L.filter('cross', (a) => a.die === draft.die).length) delete draft.die;
    if (draft.card !== undefined && !L.filter('play', (a) => a.yokai === draft.card).length) delete draft.card;
    const st = {
      ctx,
      view,
      L,
      draft,
      sending: !!draft.sending,
      drawn: new Set(),
      me: view.viewer === null || view.viewer === undefined ? null : view.viewer,
      phase: phaseName(view),
      small: view.players.length <= 2,
    };
    const mine = st.me !== null ? view.players[st.me] : null;
    const others = view.players.filter((p) => p.seat !== st.me);
    // The sections are drawn first, so the panel knows which choices they hold.
    const myArea = mine ? playerArea(st, mine, true) : null;
    const forest = forestSection(st);
    const abode = abodeSection(st);
    const hills = hillsSection(st);
    const reserve = reserveSection(st);
    const path = pathSection(st);
    const misc = miscSection(st);
    const rest = others.map((p) => playerArea(st, p, false));
    const panel = panelSection(st);
    clear(
      root,
      h(
        'div',
        { class: `bk-board bk-players-${view.players.length}`, 'data-game': 'bitoku', 'data-phase': st.phase },
        header(st),
        panel,
        myArea,
        forest,
        h('div', { class: 'bk-row2' }, abode, hills),
        reserve,
        path,
        rest.length ? h('section', { class: 'bk-others', 'aria-label': ctx.t('bk.others') }, h('h3', null, ctx.t('bk.others')), rest) : null,
        misc,
      ),
    );
  },
};

function seatChip(st, seat) {
  return chip(seat, seat === TENGU_SEAT ? st.ctx.t('bk.tengu') : st.ctx.seatName(seat));
}

function header(st) {
  const { ctx, view } = st;
  const title = view.solo_title ? (ja(ctx) ? view.solo_title[1] : view.solo_title[0]) : null;
  return h(
    'header',
    { class: 'bk-header' },
    h('span', { class: 'bk-year' }, ctx.t('bk.year', { n: Math.min(view.year, C.board.years), of: C.board.years })),
    h('span', { class: `bk-season season-${st.phase}` }, ctx.t('bk.season.' + st.phase)),
    h(
      'span',
      { class: 'bk-order', title: ctx.t('bk.order') },
      ctx.t('bk.order') + ': ',
      view.order.map((s) => h('span', { class: `bk-order-seat${view.pending === s ? ' now' : ''}` }, seatChip(st, s))),
    ),
    title ? h('strong', { class: 'bk-title', 'data-solo-title': '' }, ctx.t('bk.soloTitle', { title })) : null,
  );
}

// ---------------------------------------------------------------------------------------
// The panel: what to do now, and the choices that belong to no piece on the board.

function prompt(st) {
  const { ctx, view, L } = st;
  if (!L.all.length) {
    if (view.pending === null || view.pending === undefined) return ctx.t('bk.season.' + st.phase);
    const what = view.decision && view.decision.kind === 'step' ? ` ${ctx.t('bk.todo.step', { what: stepText(ctx, view.decision.step) })}` : '';
    return ctx.t('bk.waiting', { name: ctx.seatName(view.pending) }) + what;
  }
  if (st.draft.die !== undefined) {
    const die = view.players[st.me] && view.players[st.me].dice[st.draft.die];
    return ctx.t('bk.todo.pickTarget') + (die && die.at === 'red' ? ctx.t('bk.todo.sacrifice') : '');
  }
  if (st.draft.card !== undefined) return ctx.t('bk.todo.pickSlot');
  const d = view.decision;
  if (!d) return ctx.t('bk.todo.' + st.phase);
  switch (d.kind) {
    case 'step': {
      const left = d.left > 1 ? ctx.t('bk.todo.left', { n: d.left - 1 }) : '';
      return ctx.t('bk.todo.step', { what: stepText(ctx, d.step) }) + left;
    }
    case 'amulets':
      return ctx.t('bk.todo.amulets', { n: d.die + 1 });
    case 'discount':
      return ctx.t('bk.todo.discount', { cost: costText(ctx, Object.fromEntries(RES.map((r, i) => [r, d.buy.cost[i]]))) });
    case 'building':
      return ctx.t('bk.todo.building', { region: regionName(ctx, d.region), value: d.value });
    case 'socket': {
      const c = C.tiles.crystal[d.crystal];
      return ctx.t('bk.todo.socket', { crystal: c ? `${ctx.t('bk.colour.' + c.colour)} (${effectText(ctx, c.effect)})` : '?' });
    }
    default:
      return ctx.t('bk.todo.' + d.kind);
  }
}

function taskText(st, task) {
  const { ctx } = st;
  if (task.kind === 'building') return ctx.t('bk.task.building', { region: regionName(ctx, task.region), value: task.value });
  const what = effectText(ctx, task.steps);
  return task.region !== NO_REGION ? ctx.t('bk.task.in', { region: regionName(ctx, task.region), what }) : what;
}

function jumpToChoice() {
  const el = document.querySelector('.bk-board > :not(.bk-panel) [data-choice]');
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  el.focus({ preventScroll: true });
}

function panelButton(st, l, label, cls = '') {
  st.drawn.add(l);
  return h(
    'button',
    { type: 'button', class: `bk-choice ${cls}`, 'data-choice': '', 'data-kind': kindOf(l.action), disabled: st.sending || undefined, onclick: () => send(st, l.action) },
    label,
  );
}

function panelSection(st) {
  const { ctx, view, L } = st;
  const d = view.decision;
  const buttons = [];
  const onPieces = new Set(st.drawn);
  const add = (l, label, cls) => {
    if (!st.drawn.has(l)) buttons.push(panelButton(st, l, label, cls));
  };
  // Visions drawn: the two cards themselves.
  let cards = null;
  if (d && d.kind === 'keep') {
    cards = h(
      'div',
      { class: 'bk-keep' },
      [...new Set([d.a, d.b])].map((v) => {
        const l = L.find('keep', (a) => a.vision === v);
        return h('div', { class: 'bk-card bk-vision' }, h('span', null, visionText(ctx, v)), l ? act(st, l, ctx.t('bk.pick.keep')) : null);
      }),
    );
  }
  // Swapping the Iwakura rock: the face-up rocks (drawn at the bottom of the board) here.
  if (L.of('swap').length) {
    const mine = view.players[st.me];
    cards = h(
      'div',
      { class: 'bk-keep' },
      mine && mine.rock !== null ? h('div', { class: 'bk-card' }, h('span', { class: 'bk-card-name' }, ctx.t('bk.rockSecret')), h('span', { 'data-secret': `rock ${mine.rock}` }, rockText(ctx, mine.rock))) : null,
      L.of('swap').map((l) => {
        const r = view.face_up_rocks[l.action.swap.rock];
        return h('div', { class: 'bk-card bk-rock-tile' }, h('span', null, r === null ? '—' : rockText(ctx, r)), act(st, l, ctx.t('bk.pick.swap')));
      }),
    );
  }
  for (const l of L.of('next')) {
    const task = d && d.kind === 'tasks' ? d.tasks[l.action.next.task] : null;
    add(l, ctx.t('bk.act.next', { what: task ? taskText(st, task) : l.label }));
  }
  for (const l of L.of('choose')) {
    const opts = d && d.kind === 'step' && d.step.choose ? d.step.choose : null;
    const o = opts ? opts[l.action.choose.option] : null;
    add(l, ctx.t('bk.act.choose', { what: o ? effectText(ctx, o) : l.label }));
  }
  for (const l of L.of('pay')) {
    const pay = d && d.kind === 'step' && d.step.pay ? d.step.pay : null;
    add(l, pay ? ctx.t('bk.step.pay', { cost: costText(ctx, pay.cost), then: effectText(ctx, pay.then) }) : l.label, 'primary');
  }
  for (const l of L.of('amulet')) add(l, ctx.t('bk.act.amulet', { v: l.action.amulet.value }));
  for (const l of L.of('done')) add(l, ctx.t('bk.act.done'));
  for (const l of L.of('discount')) add(l, ctx.t('bk.act.discount', { res: ctx.t('bk.res.' + l.action.discount.resource) }));
  for (const l of L.of('retire')) {
    const y = C.cards.yokai[l.action.retire.yokai];
    add(l, ctx.t('bk.act.retire', { name: named(ctx, y), n: y ? y.virtue : '?' }));
  }
  for (const l of L.of('arrange')) {
    const [a, b, c] = l.action.arrange.dice;
    add(l, ctx.t('bk.act.arrange', { a, b, c }), 'bk-arrange');
  }
  // Whatever no piece offered (so every legal action stays reachable).
  for (const l of L.all) {
    const k = kindOf(l.action);
    if (['pass', 'skip'].includes(k)) continue;
    add(l, l.label, 'bk-raw');
  }
  for (const l of L.of('skip')) add(l, ctx.t('bk.act.skip'));
  for (const l of L.of('pass')) add(l, ctx.t('bk.act.pass'), 'bk-pass');
  const picking = st.draft.die !== undefined || st.draft.card !== undefined;
  // Choices drawn on the pieces, outside this panel: a button brings the first into sight.
  const onBoard = !ctx.replay && onPieces.size > 0 && !picking;
  const mineNow = L.all.length > 0;
  return h(
    'section',
    { class: `bk-panel${mineNow ? ' yours' : ''}`, 'aria-live': 'polite', 'data-actions': '' },
    h('p', { class: 'bk-prompt', 'data-prompt': '' }, prompt(st)),
    cards,
    buttons.length || picking
      ? h(
          'div',
          { class: 'bk-choices' },
          buttons,
          picking ? h('button', { type: 'button', class: 'bk-choice bk-undo', 'data-undo': '', onclick: () => undo(st) }, ctx.t('bk.act.cancel')) : null,
        )
      : null,
    onBoard ? h('button', { type: 'button', class: 'bk-jump', onclick: () => jumpToChoice() }, ctx.t('bk.jump')) : null,
  );
}

// ---------------------------------------------------------------------------------------
// A player's board.

function dieWhere(st, die) {
  const { ctx } = st;
  const at = die.at;
  if (typeof at === 'string') return ctx.t('bk.at.' + at);
  if ('forest' in at) return ctx.t('bk.at.forest', { region: regionName(ctx, at.forest) });
  if ('abode' in at) return ctx.t('bk.at.abode', { n: at.abode + 1 });
  if ('hill' in at) return ctx.t('bk.at.hill', { n: at.hill + 1 });
  return '';
}

function diceRow(st, p, own) {
  const { ctx, L, draft } = st;
  return h(
    'div',
    { class: 'bk-dice' },
    p.dice.map((d, i) => {
      const where = dieWhere(st, d);
      const targets = own ? [...L.filter('place', (a) => a.die === i), ...L.filter('cross', (a) => a.die === i)] : [];
      // Reached by picking the die first: the panel need not list them.
      for (const l of targets) st.drawn.add(l);
      const moves = targets.length;
      const picked = (own && draft.die === i) || (own && st.view.decision && st.view.decision.kind === 'amulets' && st.view.decision.die === i);
      const body = [dieFace(d.value, p.seat), h('span', { class: 'bk-die-where' }, where)];
      const cls = `bk-die-slot at-${typeof d.at === 'string' ? d.at : Object.keys(d.at)[0]}${picked ? ' picked' : ''}`;
      if (moves && draft.die === undefined && draft.card === undefined && !st.sending) {
        return h('button', { type: 'button', class: cls + ' choosable', 'data-choice': '', 'data-die': i, title: ctx.t('bk.dieN', { n: i + 1 }), onclick: () => pick(st, 'die', i) }, body);
      }
      if (picked && draft.die === i) return h('button', { type: 'button', class: cls, 'data-undo': '', 'data-die': i, onclick: () => undo(st) }, body);
      return h('div', { class: cls, 'data-die': i }, body);
    }),
  );
}

function yokaiCard(st, id, extra = [], attrs = {}) {
  const { ctx } = st;
  const y = C.cards.yokai[id];
  return h(
    'div',
    { class: 'bk-card bk-yokai', title: yokaiTip(st.ctx, id), ...attrs },
    h('span', { class: 'bk-card-name' }, named(ctx, y)),
    h('span', { class: 'bk-card-text' }, y ? effectText(ctx, y.effect) : ''),
    h('span', { class: 'bk-card-vp' }, y ? ctx.t('bk.vp', { n: y.virtue }) : ''),
    extra,
  );
}

function handCards(st, p) {
  const { ctx, L, draft } = st;
  const seen = new Set();
  return h(
    'div',
    { class: 'bk-hand', 'data-secret': 'hand' },
    (p.hand || []).length ? null : h('span', { class: 'bk-muted' }, '—'),
    (p.hand || []).map((id) => {
      const first = !seen.has(id);
      seen.add(id);
      const extra = [];
      if (first) {
        const discard = L.find('discard', (a) => a.yokai === id);
        if (discard) extra.push(act(st, discard, ctx.t('bk.pick.discard')));
        const plays = L.filter('play', (a) => a.yokai === id);
        if (plays.length && draft.card === undefined && draft.die === undefined) {
          for (const l of plays) st.drawn.add(l);
          extra.push(
            plays.length === 1
              ? act(st, plays[0], ctx.t('bk.pick.play'))
              : h('button', { type: 'button', class: 'bk-act', 'data-choice': '', disabled: st.sending || undefined, onclick: () => pick(st, 'card', id) }, ctx.t('bk.pick.play')),
          );
        } else if (plays.length) for (const l of plays) st.drawn.add(l);
        if (draft.card === id) extra.push(h('button', { type: 'button', class: 'bk-act', 'data-undo': '', onclick: () => undo(st) }, '×'));
      }
      return yokaiCard(st, id, extra, { class: `bk-card bk-yokai${draft.card === id && first ? ' picked' : ''}`, 'data-yokai': id });
    }),
  );
}

function slotsRow(st, p, own) {
  const { ctx, L, draft } = st;
  const n = C.board.player_board.yokai_slots;
  const cells = [];
  for (let s = 0; s < n; s++) {
    const y = p.slots[s];
    const extra = [];
    if (own) {
      if (draft.card !== undefined) {
        const l = L.find('play', (a) => a.yokai === draft.card && a.slot === s);
        if (l) extra.push(act(st, l, ctx.t('bk.pick.play'), 'target'));
      }
      const r = L.find('retire_slot', (a) => a.slot === s);
      if (r) extra.push(act(st, r, ctx.t('bk.pick.retire')));
    }
    cells.push(
      y === null || y === undefined
        ? h('div', { class: 'bk-card bk-slot empty', 'data-slot': s }, h('span', { class: 'bk-card-name' }, ctx.t('bk.slotN', { n: s + 1 })), h('span', { class: 'bk-card-text' }, ctx.t('bk.emptySlot')), extra)
        : yokaiCard(st, y, extra, { 'data-slot': s }),
    );
  }
  return h('div', { class: 'bk-slots' }, cells);
}

function crystalsRow(st, p, own) {
  const { ctx, L } = st;
  return h(
    'div',
    { class: 'bk-crystals' },
    p.crystals.map((c, s) => {
      const l = own ? L.find('socket', (a) => a.socket === s) : null;
      const cr = c === null || c === undefined ? null : C.tiles.crystal[c];
      return h(
        'div',
        { class: `bk-socket${cr ? ' colour-' + cr.colour : ''}`, 'data-socket': s, title: cr ? `${ctx.t('bk.colour.' + cr.colour)}: ${effectText(ctx, cr.effect)}` : '' },
        h('span', { class: 'bk-socket-n' }, ctx.t('bk.socketN', { n: s + 1 })),
        cr ? h('span', { class: 'bk-card-text' }, `${ctx.t('bk.colour.' + cr.colour)}: ${effectText(ctx, cr.effect)}${cr.points ? ' · ' + ctx.t('bk.vp', { n: cr.points }) : ''}`) : h('span', { class: 'bk-muted' }, '—'),
        l ? act(st, l, ctx.t('bk.pick.socket'), 'target') : null,
      );
    }),
  );
}

function pilgrimsRow(st, p, own) {
  const { ctx, L } = st;
  const pts = C.board.player_board.pilgrim_space_points;
  const touch = C.board.player_board.iwakura_touches;
  return h(
    'div',
    { class: 'bk-pilgrims' },
    h('span', { class: 'bk-awake' }, ctx.t('bk.awake', { n: p.awake_pilgrims })),
    pts.map((v, s) => {
      const asleep = (p.asleep >> s) & 1;
      const l = own ? L.find('pilgrim', (a) => a.space === s) : null;
      return h(
        'span',
        { class: `bk-pilgrim${asleep ? ' asleep' : ' woken'}${touch.includes(s) ? ' touches' : ''}`, 'data-pilgrim': s, title: `${asleep ? ctx.t('bk.asleep') : ctx.t('bk.woken')} · ${ctx.t('bk.vp', { n: v })}` },
        asleep ? '☾' : `+${v}`,
        l ? act(st, l, ctx.t('bk.pick.wake'), 'target') : null,
      );
    }),
  );
}

function tokens(st, p) {
  const { ctx } = st;
  return h(
    'div',
    { class: 'bk-tokens' },
    RES.map((r, i) => h('span', { class: `bk-res res-${r}`, title: ctx.t('bk.res.' + r) }, h('i', null), `${ctx.t('bk.res.' + r)} ${p.resources[i]}`)),
    h('span', { class: 'bk-res res-amulet', title: ctx.t('bk.amulets') }, `${ctx.t('bk.amulets')} ${p.amulets.map((n, i) => (n ? `+${i + 1}×${n}` : '')).filter(Boolean).join(' ') || '0'}`),
    p.raise ? h('span', { class: 'bk-res bk-raise' }, ctx.t('bk.raise', { n: p.raise })) : null,
  );
}

function tileChips(st, list, kind, used, own, actKind) {
  const { ctx, L } = st;
  return list.map((id, i) => {
    const isUsed = used !== undefined && (used >> i) & 1;
    const l = own ? L.find(actKind, (a) => a.index === i) : null;
    return h(
      'div',
      { class: `bk-card bk-tile kind-${KINDS[kind]}${isUsed ? ' used' : ''}` },
      h('span', { class: 'bk-card-name' }, tileTitle(ctx, kind, id) + (isUsed ? ` (${ctx.t('bk.used')})` : '')),
      tileLines(ctx, kind, id).filter(Boolean).map((t) => h('span', { class: 'bk-card-text' }, t)),
      l ? act(st, l, ctx.t('bk.pick.use1')) : null,
    );
  });
}

function playerArea(st, p, own) {
  const { ctx, view } = st;
  const name = ctx.seatName(p.seat);
  const acting = view.pending === p.seat;
  const rock = p.rock === null || p.rock === undefined ? null : p.rock;
  const group = (title, ...body) => h('div', { class: 'bk-group' }, h('h4', null, title), body);
  return h(
    'section',
    { class: `bk-player seat-${p.seat}${own ? ' mine' : ''}${acting ? ' acting' : ''}${p.passed ? ' passed' : ''}`, 'data-seat': p.seat, 'aria-label': name },
    h(
      'div',
      { class: 'bk-player-head' },
      seatChip(st, p.seat),
      h('span', { class: 'bk-player-name' }, own ? `${name} (${ctx.t('bk.you')})` : name),
      p.passed ? h('span', { class: 'bk-badge' }, ctx.t('bk.passed')) : null,
      acting ? h('span', { class: 'bk-badge now' }, ctx.t('bk.thinking')) : null,
      h('span', { class: 'bk-vp', 'data-virtue': p.virtue }, ctx.t('bk.vp', { n: p.virtue })),
    ),
    tokens(st, p),
    own ? group(ctx.t('bk.hand'), handCards(st, p)) : h('p', { class: 'bk-muted' }, ctx.t('bk.handCount', { n: p.hand_count })),
    group(ctx.t('bk.slots'), slotsRow(st, p, own)),
    group(ctx.t('bk.dice'), diceRow(st, p, own)),
    group(ctx.t('bk.crystals'), crystalsRow(st, p, own)),
    group(ctx.t('bk.pilgrims'), pilgrimsRow(st, p, own)),
    h(
      'div',
      { class: 'bk-group bk-rock' },
      h('h4', null, own ? ctx.t('bk.rockSecret') : ctx.t('bk.rock')),
      rock !== null ? h('span', own ? { 'data-secret': `rock ${rock}` } : { 'data-fact': `rock ${p.seat} ${rock}` }, rockText(ctx, rock)) : h('span', { class: 'bk-muted' }, ctx.t('bk.rockHidden')),
    ),
    p.mitama.length ? group(ctx.t('bk.mitama'), h('div', { class: 'bk-tiles' }, tileChips(st, p.mitama, 2, undefined, own, 'mitama'))) : null,
    p.dragonflies.length ? group(ctx.t('bk.dragonflies'), h('div', { class: 'bk-tiles' }, tileChips(st, p.dragonflies, 3, p.dragonflies_used, own, 'dragonfly'))) : null,
    p.visions.length ? group(ctx.t('bk.visions'), h('ul', { class: 'bk-list' }, p.visions.map((v) => h('li', null, visionText(ctx, v))))) : null,
    p.bitoku.length ? group(ctx.t('bk.bitokuCards'), h('ul', { class: 'bk-list' }, p.bitoku.map((b) => h('li', null, bitokuCardText(ctx, b))))) : null,
    h(
      'p',
      { class: 'bk-muted bk-counts' },
      [
        ctx.t('bk.deckCount', { n: p.deck_count }),
        `${ctx.t('bk.discard')}: ${p.discard.map((y) => yokaiName(ctx, y)).join(sep(ctx)) || '—'}`,
        p.retired.length ? `${ctx.t('bk.retired')}: ${p.retired.map((y) => yokaiName(ctx, y)).join(sep(ctx))}` : null,
        ctx.t('bk.buildings', { n: p.buildings_built }),
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  );
}

// ---------------------------------------------------------------------------------------
// The shared board.

function forestSection(st) {
  const { ctx, view, L, draft } = st;
  const spaces = st.small ? C.board.side.small.forest_dice_spaces : C.board.side.large.forest_dice_spaces;
  const len = C.board.kodama.track_length;
  return h(
    'section',
    { class: 'bk-forest', 'aria-label': ctx.t('bk.forest') },
    h('h3', null, ctx.t('bk.forest')),
    h(
      'div',
      { class: 'bk-regions' },
      C.board.region.map((reg, r) => {
        const dice = view.forest[r] || [];
        const extra = [];
        if (draft.die !== undefined) {
          const l = L.find('place', (a) => a.die === draft.die && a.at.forest === r);
          if (l) extra.push(act(st, l, ctx.t('bk.pick.place'), 'target'));
        }
        const track = L.find('track', (a) => a.region === r);
        const build = L.find('region', (a) => a.region === r);
        const diceCells = [];
        for (let i = 0; i < spaces; i++) {
          const x = dice[i];
          diceCells.push(x ? dieFace(x[2], x[0], 'placed') : h('span', { class: 'bk-die empty' }, ''));
        }
        // The kodama on this region's track, by space.
        const onTrack = Array.from({ length: len }, () => []);
        for (const p of view.players) onTrack[Math.min(p.kodama[r], len - 1)].push(p.seat);
        if (view.tengu) onTrack[Math.min(view.tengu.kodama[r], len - 1)].push(TENGU_SEAT);
        if (view.neutral_kodama) onTrack[C.board.kodama.neutral_space].push('n');
        const lake = C.tiles.lake_treasure[view.lake[r]];
        return h(
          'article',
          { class: 'bk-region', 'data-region': r },
          h('h4', null, named(ctx, reg)),
          h('div', { class: 'bk-region-dice', title: ctx.t('bk.dieSpaces') }, diceCells, extra),
          h(
            'div',
            { class: 'bk-settlement', title: ctx.t('bk.settlement') },
            (view.settlements[r] || []).map((s, i) => settlementSpace(st, r, i, s)),
          ),
          h(
            'div',
            { class: 'bk-track', title: ctx.t('bk.kodamaTrack') },
            onTrack.map((who, i) =>
              h(
                'span',
                { class: `bk-track-space${i === len - 1 ? ' last' : ''}` },
                who.map((s) => (s === 'n' ? h('span', { class: 'bk-kodama neutral', title: ctx.t('bk.neutral') }, '●') : h('span', { class: `bk-kodama seat-${s}`, title: s === TENGU_SEAT ? ctx.t('bk.tengu') : ctx.seatName(s) }, '●'))),
              ),
            ),
            track ? act(st, track, ctx.t('bk.pick.track'), 'target') : null,
          ),
          h('div', { class: 'bk-lake', title: ctx.t('bk.lake') }, `${ctx.t('bk.lake')}: ${lake ? lake.points.join('/') : '?'}`),
          build ? act(st, build, ctx.t('bk.pick.build'), 'target') : null,
          h(
            'details',
            { class: 'bk-actions-list' },
            h('summary', null, ctx.t('bk.forestActions')),
            h('ol', null, reg.actions.map((a, v) => h('li', { value: v + 1 }, `${v + 1}: ${effectText(ctx, a)}`))),
          ),
        );
      }),
    ),
  );
}

function settlementSpace(st, r, i, s) {
  const { ctx, L, view } = st;
  const d = view.decision;
  const l = d && d.kind === 'building' && d.region === r ? L.find('use_building', (a) => a.space === i) : null;
  let body;
  if (!s) body = [h('span', { class: 'bk-muted' }, '—')];
  else if (s[0] === null) {
    const a = C.tiles.ancient[s[1]];
    body = [h('span', { class: 'bk-card-name' }, `${named(ctx, a)} ${a.value}`), h('span', { class: 'bk-card-text' }, effectText(ctx, a.action))];
  } else {
    const b = C.tiles.building[s[1]];
    body = [
      h('span', { class: 'bk-card-name' }, seatChip(st, s[0]), ` ${ctx.t('bk.bkind.' + b.kind)} ${b.value}`),
      h('span', { class: 'bk-card-text' }, `▶ ${effectText(ctx, b.action)}`),
      h('span', { class: 'bk-card-text' }, `♦ ${effectText(ctx, b.bonus)}`),
    ];
  }
  return h('div', { class: `bk-building${s ? '' : ' empty'}${s && s[0] === null ? ' ancient' : ''}`, 'data-space': i }, body, l ? act(st, l, ctx.t('bk.pick.use'), 'target') : null);
}

function abodeSection(st) {
  const { ctx, view, L, draft } = st;
  return h(
    'section',
    { class: 'bk-abode', 'aria-label': ctx.t('bk.abode') },
    h('h3', null, ctx.t('bk.abode')),
    h(
      'ol',
      { class: 'bk-abode-spaces' },
      view.abode.map((a, s) => {
        const l = draft.die !== undefined ? L.find('place', (x) => x.die === draft.die && x.at.abode === s) : null;
        return h(
          'li',
          { class: 'bk-abode-space', 'data-abode': s },
          a ? dieFace(a[1], a[0], 'placed') : h('span', { class: 'bk-die empty' }, ''),
          h('span', { class: 'bk-card-text' }, effectText(ctx, C.board.abode[s].reward)),
          l ? act(st, l, ctx.t('bk.pick.place'), 'target') : null,
        );
      }),
    ),
  );
}

function hillsSection(st) {
  const { ctx, view, L, draft } = st;
  return h(
    'section',
    { class: 'bk-hills', 'aria-label': ctx.t('bk.hills') },
    h('h3', null, ctx.t('bk.hills')),
    h(
      'div',
      { class: 'bk-hill-list' },
      view.hills.map((hill, i) => {
        const part = (k, title, text) => {
          const taken = hill.taken[PARTS.indexOf(k)];
          const l = draft.die !== undefined ? L.find('cross', (a) => a.die === draft.die && a.hill === i && a.take === k) : null;
          return h(
            'div',
            { class: `bk-hill-part${taken ? ' taken' : ''}`, 'data-part': k },
            h('span', { class: 'bk-card-name' }, title, taken ? ` (${ctx.t('bk.taken')})` : ''),
            h('span', { class: 'bk-card-text' }, text),
            l ? act(st, l, ctx.t('bk.pick.cross'), 'target') : null,
          );
        };
        return h(
          'article',
          { class: 'bk-hill', 'data-hill': i },
          h('h4', null, ctx.t('bk.hillN', { n: i + 1 }), ' ', h('span', { class: 'bk-muted' }, `${ctx.t('bk.dieSpaces')} ${hill.dice}/${C.board.hill_dice_spaces}`)),
          part('yokai', ctx.t('bk.yokaiCard'), hill.yokai === null ? '—' : `${yokaiName(ctx, hill.yokai)}: ${effectText(ctx, C.cards.yokai[hill.yokai].effect)}`),
          part('bitoku', ctx.t('bk.bitokuCard'), hill.bitoku === null ? '—' : bitokuCardText(ctx, hill.bitoku)),
          part('effect', ctx.t('bk.hillEffect'), effectText(ctx, C.board.hill[i].effect)),
        );
      }),
    ),
  );
}

function reserveSection(st) {
  const { ctx, view, L } = st;
  const d = view.decision;
  // Which kind a `tile` action takes: the step's (take_tile, build).
  let kindNow = null;
  if (d && d.kind === 'step') {
    if (d.step.take_tile) kindNow = KINDS.indexOf(d.step.take_tile.kind);
    else if (d.step.build !== undefined) kindNow = 0;
  }
  return h(
    'section',
    { class: 'bk-reserve', 'aria-label': ctx.t('bk.reserve') },
    h('h3', null, ctx.t('bk.reserve')),
    h(
      'div',
      { class: 'bk-kinds' },
      view.rows.map((rows, k) =>
        h(
          'div',
          { class: `bk-kind kind-${KINDS[k]}${kindNow === k ? ' now' : ''}` },
          h('h4', null, ctx.t('bk.kind.' + KINDS[k])),
          rows.map((row, ri) =>
            h(
              'div',
              { class: 'bk-tile-row' },
              h('span', { class: 'bk-stack' }, ctx.t('bk.stack', { n: row.stack })),
              row.display.map((id, pos) => {
                const slot = ri * DISPLAY + pos;
                const l = kindNow === k ? L.find('tile', (a) => a.slot === slot) : null;
                if (id === null || id === undefined) return h('div', { class: 'bk-card bk-tile empty' }, '—');
                return h(
                  'div',
                  { class: `bk-card bk-tile kind-${KINDS[k]}`, 'data-tile': `${k}-${slot}` },
                  h('span', { class: 'bk-card-name' }, tileTitle(ctx, k, id)),
                  tileLines(ctx, k, id).filter(Boolean).map((t) => h('span', { class: 'bk-card-text' }, t)),
                  l ? act(st, l, ctx.t('bk.pick.take'), 'target') : null,
                );
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

function pathSection(st) {
  const { ctx, view } = st;
  const vp = C.board.virtue_path;
  const spaces = vp.rewards.length + 1;
  return h(
    'section',
    { class: 'bk-path', 'aria-label': ctx.t('bk.path') },
    h('h3', null, ctx.t('bk.path')),
    h(
      'ol',
      { class: 'bk-path-spaces' },
      Array.from({ length: spaces }, (_, i) => {
        const torii = i === vp.torii_a ? 0 : i === vp.torii_b ? 1 : null;
        const here = view.players.filter((p) => p.path === i);
        return h(
          'li',
          { class: `bk-path-space${torii !== null ? ' torii' : ''}` },
          h('span', { class: 'bk-path-n' }, String(i)),
          h('span', { class: 'bk-card-text' }, i === 0 ? '' : effectText(ctx, vp.rewards[i - 1])),
          torii !== null ? h('span', { class: 'bk-card-text bk-torii' }, `⛩ ${ctx.t('bk.torii', { side: 'AB'[torii] })}: ${effectText(ctx, C.tiles.torii[view.torii[torii]].reward)}`) : null,
          h('span', { class: 'bk-markers' }, here.map((p) => seatChip(st, p.seat))),
        );
      }),
    ),
  );
}

function miscSection(st) {
  const { ctx, view } = st;
  return h(
    'section',
    { class: 'bk-misc' },
    h('h3', null, ctx.t('bk.rocks')),
    h(
      'div',
      { class: 'bk-rocks' },
      view.face_up_rocks.map((r, i) => {
        return h('div', { class: 'bk-card bk-rock-tile', 'data-rock': i }, r === null ? '—' : rockText(ctx, r));
      }),
    ),
    h('h3', null, ctx.t('bk.decks')),
    h(
      'p',
      { class: 'bk-muted' },
      [
        ctx.t('bk.deckYokai', { n: view.yokai_deck, d: view.yokai_discard.length }),
        ctx.t('bk.deckBitoku', { n: view.bitoku_deck, d: view.bitoku_discard.length }),
        ctx.t('bk.deckVision', { n: view.vision_deck, d: view.vision_discard.length }),
      ].join(' · '),
    ),
    view.tengu ? h('p', { class: 'bk-tengu', 'data-tengu': '' }, seatChip(st, TENGU_SEAT), ' ', ctx.t('bk.tenguInfo', { n: view.tengu.deck, d: view.tengu.discard.length })) : null,
  );
}
