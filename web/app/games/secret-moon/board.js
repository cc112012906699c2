// Secret Moon (シークレットムーン): the night garden. Every player's area holds their
// character card (人物カード) and action-order card (行動順カード) with the eye markers and
// answer markers placed on them; the centre holds the NPC cards, the discard pile and the
// round track. A turn is built by clicking a card on the table and an action (either
// order), then, for a nomination, the role named.
import { h, clear } from '../../dom.js';
import { messages } from './messages.js';
import { rules } from './rules.js';
import { roleArt, cardBack, orderArt, eyeIcon, shieldIcon, moonIcon } from './art.js';

const ROLES = ['princess', 'traveller', 'minister', 'monk', 'soldier', 'thief'];
// The seven turn actions in the order the document lists them.
const KINDS = ['observe', 'question', 'nominate', 'protect', 'sabotage', 'capture', 'pass'];
const ROUNDS = 3;

const cardKey = (ref) => (ref && 'player' in ref ? `p${ref.player}` : `n${ref ? ref.npc : '?'}`);

// One legal action as the parts a player picks on the table.
function parts(action) {
  switch (action.type) {
    case 'observe':
    case 'protect':
    case 'capture':
      return { kind: action.type, card: cardKey(action.card) };
    case 'nominate':
      return { kind: 'nominate', card: cardKey(action.card), role: action.role };
    case 'question':
    case 'sabotage':
      return { kind: action.type, card: `p${action.target}` };
    case 'pass':
      return { kind: 'pass' };
    case 'take_order_card':
      return { kind: 'take', number: action.number };
    case 'answer':
      return { kind: 'answer', answer: action.answer };
    default:
      return { kind: action.type };
  }
}

// The legal turn actions that agree with what the draft has picked so far.
function matching(turn, draft) {
  return turn.filter(
    (p) =>
      (!draft.kind || p.kind === draft.kind) &&
      (!draft.card || p.card === draft.card) &&
      (!draft.role || p.role === draft.role),
  );
}

// Whether the draft names every part of this action (so clicking may send it).
function complete(p, draft) {
  if (!draft.kind) return false;
  if (p.card && !draft.card) return false;
  if (p.role && !draft.role) return false;
  return true;
}

function send(ctx, action) {
  ctx.draft.sending = true;
  ctx.rerender();
  ctx.send(action).catch(() => {
    // The shell shows the error in words; the turn is built again from scratch.
    for (const k of Object.keys(ctx.draft)) delete ctx.draft[k];
    ctx.rerender();
  });
}

// A step of the turn: record it, and send when it completes exactly one legal action.
function pick(ctx, turn, field, value) {
  const draft = ctx.draft;
  draft[field] = value;
  draft.steps = [...(draft.steps || []), field];
  const left = matching(turn, draft);
  const done = left.length === 1 && complete(left[0], draft);
  if (done) send(ctx, left[0].action);
  else {
    ctx.rerender();
    focusNext();
  }
}

// The board is redrawn whole, so keyboard focus would fall back to the page: after a
// step of one's own, it goes to the next choice (the panel's first, else a card).
function focusNext() {
  const el = document.querySelector('.sm-panel [data-choice]') || document.querySelector('.sm-board [data-choice]');
  if (el) el.focus({ preventScroll: true });
}

function undo(ctx) {
  const draft = ctx.draft;
  const steps = draft.steps || [];
  const last = steps[steps.length - 1];
  if (last) delete draft[last];
  draft.steps = steps.slice(0, -1);
  ctx.rerender();
  focusNext();
}

function seatOrder(view, you) {
  const n = view.players;
  const all = Array.from({ length: n }, (_, i) => i);
  if (you === null || you === undefined || you >= n) return { me: null, others: all };
  return { me: you, others: all.slice(you + 1).concat(all.slice(0, you)) };
}

function roleName(ctx, role) {
  return ctx.t(`sm.role.${role}`);
}

// Seat numbers too, where names may repeat (every bot is called after its kind).
function chipName(ctx, key) {
  return key[0] === 'p' ? `${Number(key.slice(1)) + 1}. ${ctx.seatName(Number(key.slice(1)))}` : cardName(ctx, key);
}

function cardName(ctx, key) {
  const n = Number(key.slice(1));
  return key[0] === 'p' ? ctx.seatName(n) : ctx.t('sm.npcN', { n: n + 1 });
}

export default {
  messages,
  rules,

  // The thief needs six players (盗賊を加える場合は6人以上); its label says so, and a smaller
  // table asking for it is refused by the server in words. It is not filtered by `players`
  // because the form keeps these fields when only the player count changes.
  optionFields(optionSets, players, t) {
    const sets = Array.isArray(optionSets) ? optionSets : [];
    const games = [...new Set(sets.map((o) => o.games))].filter((g) => g !== undefined);
    // 盗賊を加える場合は6人以上: below six the thief is not offered (the server refuses it).
    const thief = [...new Set(sets.map((o) => o.thief))].filter((v) => v !== undefined && (v !== true || !(players < 6)));
    // 「行動順カードによる順番は公開されません」: off is the rules; on shows the card being played.
    const publicOrder = [...new Set(sets.map((o) => o.public_order))].filter((v) => v !== undefined);
    return [
      {
        key: 'games',
        label: t('sm.opt.games'),
        values: games.map((g) => ({ value: g, label: t(g === 1 ? 'sm.opt.games1' : 'sm.opt.gamesN', { n: g }) })),
      },
      {
        key: 'thief',
        label: t('sm.opt.thief'),
        values: thief.map((v) => ({ value: v, label: t(v ? 'sm.opt.thiefOn' : 'sm.opt.thiefOff') })),
      },
      {
        key: 'public_order',
        label: t('sm.opt.publicOrder'),
        values: publicOrder.map((v) => ({ value: v, label: t(v ? 'sm.opt.publicOrderOn' : 'sm.opt.publicOrderOff') })),
      },
    ].filter((f) => f.values.length);
  },

  render(root, ctx) {
    const view = ctx.view;
    if (!view) {
      clear(root, h('p', { class: 'sm-empty' }, ctx.t('sm.notStarted')));
      return;
    }
    const legal = ctx.replay ? [] : (ctx.legal || []).map((l) => ({ ...parts(l.action), action: l.action, label: l.label }));
    const draft = ctx.draft || {};
    const turn = legal.filter((p) => KINDS.includes(p.kind));
    // A draft left from another decision (or made impossible) is dropped.
    if (draft.kind || draft.card || draft.role) {
      if (!matching(turn, draft).length) for (const k of Object.keys(draft)) delete draft[k];
    }
    const st = {
      ctx,
      view,
      legal,
      turn,
      draft,
      sending: !!draft.sending,
      left: matching(turn, draft),
      byKey: new Map(view.cards.map((c) => [cardKey(c.card), c])),
      seat: new Map(view.seats.map((s) => [s.seat, s])),
      final: view.phase.phase === 'match_over' ? view.results[view.results.length - 1] : null,
      // Each role's side, as the view gives it (printed on the role cards).
      sides: new Map((view.roles || []).map((r) => [r.role, r.side])),
    };
    const { me, others } = seatOrder(view, ctx.you);
    const npcs = view.cards.filter((c) => 'npc' in c.card);

    clear(
      root,
      h(
        'div',
        { class: `sm-board sm-players-${view.players}`, 'data-game': 'secret-moon' },
        header(st),
        h('section', { class: 'sm-others', 'aria-label': ctx.t('sm.otherPlayers') }, others.map((k) => playerArea(st, k, false))),
        centre(st, npcs),
        h(
          'section',
          { class: 'sm-bottom' },
          me !== null ? playerArea(st, me, true) : null,
          actionPanel(st),
        ),
        results(st),
      ),
    );
  },
};

function header(st) {
  const { ctx, view } = st;
  const round = Math.min(view.round, ROUNDS);
  return h(
    'header',
    { class: 'sm-header' },
    h('div', { class: 'sm-gamecount' }, ctx.t('sm.gameOf', { n: view.game, of: view.games })),
    h(
      'ol',
      { class: 'sm-rounds', 'aria-label': ctx.t('sm.roundOf', { n: round, of: ROUNDS }) },
      Array.from({ length: ROUNDS }, (_, i) =>
        h(
          'li',
          { class: `sm-round ${i + 1 < round ? 'past' : i + 1 === round ? 'now' : 'future'}`, title: ctx.t('sm.roundN', { n: i + 1 }) },
          moonIcon(i),
          h('span', null, ctx.t('sm.roundN', { n: i + 1 })),
        ),
      ),
    ),
    view.thief_in_box ? h('div', { class: 'sm-thief-note', title: ctx.t('sm.thiefInBoxTip') }, ctx.t('sm.thiefInBox')) : null,
    view.public_order ? h('div', { class: 'sm-thief-note sm-public-order-note', title: ctx.t('sm.publicOrderTip') }, ctx.t('sm.publicOrder')) : null,
  );
}

// Which parts of the current turn this card may be picked for.
function cardChoosable(st, key) {
  if (st.sending || st.draft.card) return false;
  return st.left.some((p) => p.card === key);
}

function characterCard(st, c, opts = {}) {
  const { ctx, view, draft } = st;
  const key = cardKey(c.card);
  const finalRole = st.final ? st.final.roles[view.cards.indexOf(c)] : null;
  const role = c.role || finalRole || null;
  const faceUp = c.status !== 'hidden' || !!finalRole;
  const secret =
    !!c.role && c.status === 'hidden' && !st.final && !(c.possible && c.possible.length === 1);
  const classes = ['sm-card', 'sm-character', `status-${c.status}`];
  if (role) classes.push(`role-${role}`, `team-${st.sides.get(role)}`);
  else classes.push('back');
  if (c.protected) classes.push('protected');
  if (role && !faceUp) classes.push('peek');
  if (draft.card === key) classes.push('picked');
  const choosable = cardChoosable(st, key);
  // Before an action is chosen nearly every card is a target: a quiet outline then, the
  // glow once the action narrows the choice.
  if (choosable) classes.push(draft.kind ? 'choosable' : 'targetable');
  const statusText =
    c.status === 'captured' ? ctx.t('sm.captured') : c.status === 'revealed' ? ctx.t('sm.revealed') : null;
  const label = [
    cardName(ctx, key),
    role ? roleName(ctx, role) : ctx.t('sm.faceDown'),
    statusText,
    c.protected ? ctx.t('sm.protected') : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const attrs = {
    class: classes.join(' '),
    'data-card': key,
    'data-fact': role && !st.final ? `role ${key} ${role}` : undefined,
    'data-secret': secret ? `role ${key} ${role}` : undefined,
    title: label,
    'aria-label': label,
    role: 'img',
  };
  const inner = [
    h(
      'span',
      { class: 'sm-card-face' },
      role ? roleArt(role) : cardBack(),
      role ? h('span', { class: 'sm-card-name' }, roleName(ctx, role)) : null,
      role && !faceUp ? h('span', { class: 'sm-peek-tag' }, ctx.t(peekTag(st, c, key))) : null,
    ),
    c.protected ? h('span', { class: 'sm-shield', title: ctx.t('sm.protected') }, shieldIcon()) : null,
    c.status === 'captured' ? h('span', { class: 'sm-stamp' }, ctx.t('sm.captured')) : null,
    c.status === 'revealed' ? h('span', { class: 'sm-stamp revealed' }, ctx.t('sm.revealed')) : null,
  ];
  if (choosable) {
    return h('button', { ...attrs, role: undefined, type: 'button', 'data-choice': '', onclick: () => pick(ctx, st.turn, 'card', key) }, inner);
  }
  return h('div', attrs, inner);
}

// Why this face-down card's role is drawn for this seat.
function peekTag(st, c, key) {
  const { view } = st;
  if (key === `p${view.viewer}`) return 'sm.yours';
  if (view.partner && view.partner.player !== undefined && key === `p${view.partner.player}`) return 'sm.partner';
  if (c.possible && c.possible.length === 1) return 'sm.deduced';
  return 'sm.onlyYouKnow';
}

// Eye markers (目), answer markers and the deduction chips under a card.
function markers(st, c) {
  const { ctx } = st;
  const eyes = (c.observed_by || []).map((s) =>
    h('span', { class: `sm-eye seat-color-${s}`, title: ctx.t('sm.observedBy', { name: ctx.seatName(s) }) }, eyeIcon()),
  );
  const answers = (c.answers || []).map((a) =>
    h(
      'span',
      {
        class: `sm-answer-marker answer-${a} marker-${a === 'silence' ? 'red' : 'blue'}`,
        title: ctx.t(`sm.answer.${a}`),
      },
      h('span', { class: 'sm-marker-disc' }),
      h('span', { class: 'sm-marker-words' }, ctx.t(`sm.answerShort.${a}`)),
    ),
  );
  // What everyone can deduce it may be, when that narrows it and the card is still unknown.
  let chips = null;
  const possible = c.possible || [];
  const full = ROLES.filter((r) => r !== 'thief' || st.view.thief_in_box).length;
  if (!c.role && !st.final && c.status === 'hidden' && possible.length > 0 && possible.length < full) {
    chips = h(
      'span',
      { class: 'sm-possible', title: ctx.t('sm.possibleTip') },
      possible.map((r) => h('span', { class: `sm-chip team-${st.sides.get(r)}` }, roleName(ctx, r))),
    );
  }
  if (!eyes.length && !answers.length && !chips) return null;
  return h('div', { class: 'sm-markers' }, eyes, answers, chips);
}

function orderCard(st, k) {
  const { ctx, view } = st;
  const s = st.seat.get(k);
  if (!s) return null;
  const phase = view.phase;
  const acting = (phase.phase === 'turn' && phase.actor === k) || ((phase.phase === 'answer') && phase.asker === k) || (phase.phase === 'take_order_card' && phase.actor === k);
  const items = [];
  if (s.holds_card) {
    const number = s.number;
    const known = number !== null && number !== undefined;
    // 「行動順カードによる順番は公開されません」: a number is this seat's secret unless the view
    // says everyone sees it (a card taken by a pass; with the option public_order, the card
    // being played). Others' numbers are not in the view at all: their cards show the back.
    const isCurrent = acting;
    const isPublic = known && (s.number_public === undefined ? k !== view.viewer : s.number_public);
    const secret = known && !isPublic;
    const label = known ? ctx.t('sm.orderCardN', { n: number }) : ctx.t('sm.orderCardHidden');
    items.push(
      h(
        'div',
        {
          class: `sm-card sm-order ${known ? 'face' : 'back'} ${isCurrent || acting ? 'current' : ''}`,
          title: label,
          'aria-label': label,
          'data-fact': isPublic ? `order ${k} ${number}` : undefined,
          'data-secret': secret ? `order ${k} ${number}` : undefined,
        },
        known ? orderArt(number) : cardBack(true),
      ),
    );
  }
  if (s.reserved !== null && s.reserved !== undefined) {
    const label = ctx.t('sm.reservedN', { n: s.reserved });
    items.push(
      h('div', { class: 'sm-card sm-order face reserved', title: label, 'aria-label': label, 'data-fact': `reserved ${k} ${s.reserved}` }, orderArt(s.reserved)),
    );
  }
  if (!items.length) {
    items.push(h('div', { class: 'sm-order-slot', title: ctx.t('sm.noOrderCard') }));
  }
  return h('div', { class: 'sm-orders' }, items);
}

function playerArea(st, k, mine) {
  const { ctx, view } = st;
  const c = st.byKey.get(`p${k}`);
  const s = st.seat.get(k) || {};
  const phase = view.phase;
  const acting = (phase.phase === 'turn' || phase.phase === 'take_order_card') && phase.actor === k;
  const asked = phase.phase === 'answer' && phase.target === k;
  const asking = phase.phase === 'answer' && phase.asker === k;
  const partner = view.partner && view.partner.player === k;
  const vp = (view.victory_points || [])[k] || 0;
  const classes = ['sm-player', `seat-color-${k}`];
  if (mine) classes.push('mine');
  if (acting || asking) classes.push('acting');
  if (asked) classes.push('asked');
  if (s.captured) classes.push('out');
  const bubble = asking
    ? h('div', { class: 'sm-bubble ask' }, ctx.t('sm.questionWords'))
    : asked
      ? h('div', { class: 'sm-bubble wait' }, '…?')
      : null;
  return h(
    'article',
    { class: classes.join(' '), 'data-seat': k, 'aria-label': ctx.seatName(k) },
    h(
      'div',
      { class: 'sm-player-head' },
      h('span', { class: `sm-seat-no seat-color-${k}` }, String(k + 1)),
      h('span', { class: 'sm-player-name' }, ctx.seatName(k)),
      mine ? h('span', { class: 'sm-badge you' }, ctx.t('sm.you')) : null,
      partner ? h('span', { class: 'sm-badge partner', 'data-secret': `partner ${view.viewer} ${k}` }, ctx.t('sm.partner')) : null,
      view.games > 1 || st.final ? h('span', { class: 'sm-vp', title: ctx.t('sm.victoryPoints') }, `★ ${vp}`) : null,
    ),
    bubble,
    h('div', { class: 'sm-player-cards' }, c ? characterCard(st, c) : null, orderCard(st, k)),
    c ? markers(st, c) : null,
    mine && view.your_role && !st.final ? yourRoleLine(st) : null,
  );
}

function yourRoleLine(st) {
  const { ctx, view } = st;
  const role = view.your_role;
  const lines = [h('span', { 'data-secret': `yourrole ${view.viewer} ${role}` }, ctx.t('sm.youAre', { role: roleName(ctx, role), team: ctx.t(`sm.team.${st.sides.get(role)}`) }))];
  if (view.partner && view.partner.player !== undefined) {
    lines.push(h('span', { 'data-secret': `partner ${view.viewer} ${view.partner.player}` }, ctx.t('sm.partnerIs', { name: chipName(ctx, `p${view.partner.player}`), role: roleName(ctx, role === 'princess' ? 'traveller' : 'princess') })));
  } else if (view.partner === 'in_centre') {
    lines.push(h('span', { 'data-secret': `partner ${view.viewer} centre` }, ctx.t('sm.partnerInCentre', { role: roleName(ctx, role === 'princess' ? 'traveller' : 'princess') })));
  }
  return h('p', { class: 'sm-your-role' }, lines);
}

function centre(st, npcs) {
  const { ctx, view } = st;
  const d = view.discard;
  const takes = st.legal.filter((p) => p.kind === 'take');
  const takeable = new Set(takes.map((p) => p.number));
  const pile = [];
  const seen = new Set(d.face_down_seen || []);
  for (const n of d.face_up) pile.push({ n, up: true });
  for (const n of d.face_down_seen || []) pile.push({ n, up: false });
  pile.sort((a, b) => a.n - b.n);
  const unseenDown = Math.max(0, d.face_down - seen.size);
  const pileCards = pile.map(({ n, up }) => {
    const label = up ? ctx.t('sm.discardUp', { n }) : ctx.t('sm.discardSeen', { n });
    const attrs = {
      class: `sm-card sm-order face ${up ? '' : 'seen-down'} ${takeable.has(n) ? 'choosable' : ''}`,
      title: label,
      'aria-label': label,
      'data-fact': up ? `discard ${n}` : undefined,
      'data-secret': up ? undefined : `seen ${view.viewer} ${n}`,
    };
    if (takeable.has(n) && !st.sending) {
      const p = takes.find((x) => x.number === n);
      return h('button', { ...attrs, type: 'button', 'data-choice': '', onclick: () => send(ctx, p.action) }, orderArt(n));
    }
    return h('div', attrs, orderArt(n));
  });
  // Face-down numbers the table offers but this seat has not seen cannot happen (a pass
  // looks through the pile first); a stray one is still offered so no choice is lost.
  const extra = takes
    .filter((p) => !pile.some((x) => x.n === p.number))
    .map((p) =>
      h(
        'button',
        { class: 'sm-card sm-order face choosable', type: 'button', 'data-choice': '', disabled: st.sending || undefined, onclick: () => send(ctx, p.action) },
        orderArt(p.number),
      ),
    );
  const downLabel = ctx.t('sm.discardDown', { n: unseenDown });
  return h(
    'section',
    { class: 'sm-centre', 'aria-label': ctx.t('sm.centre') },
    h('div', { class: 'sm-moon-sky' }),
    h(
      'div',
      { class: 'sm-npcs' },
      h('h3', null, ctx.t('sm.npcs')),
      npcs.length
        ? h(
            'div',
            { class: 'sm-npc-row' },
            npcs.map((c) =>
              h(
                'div',
                { class: 'sm-npc' },
                characterCard(st, c),
                h('span', { class: 'sm-npc-label' }, cardName(ctx, cardKey(c.card))),
                markers(st, c),
              ),
            ),
          )
        : h('p', { class: 'sm-muted' }, ctx.t('sm.noNpcs')),
      view.card_removed ? h('p', { class: 'sm-muted sm-removed' }, ctx.t('sm.cardRemoved')) : null,
    ),
    h(
      'div',
      { class: `sm-discard ${takes.length ? 'taking' : ''}` },
      h('h3', null, ctx.t('sm.discardPile')),
      h(
        'div',
        { class: 'sm-pile' },
        unseenDown > 0
          ? h('div', { class: 'sm-card sm-order back stack', title: downLabel, 'aria-label': downLabel }, cardBack(true), h('span', { class: 'sm-count' }, `×${unseenDown}`))
          : null,
        pileCards,
        extra,
      ),
    ),
  );
}

function actionPanel(st) {
  const { ctx, view, draft } = st;
  const phase = view.phase;
  const kids = [];
  const undoBtn =
    (draft.steps || []).length && !st.sending
      ? h('button', { type: 'button', class: 'sm-undo', 'data-undo': '', onclick: () => undo(ctx) }, ctx.t('sm.undo'))
      : null;

  if (phase.phase === 'match_over') {
    const last = st.final;
    kids.push(h('p', { class: 'sm-prompt' }, ctx.t('sm.matchOver')));
    if (last) {
      kids.push(
        h('p', { class: `sm-final winner-${last.winner}` }, ctx.t(`sm.win.${last.winner}`), ' — ', ctx.t(`sm.reason.${last.reason}`)),
      );
    }
  } else if (st.turn.length) {
    kids.push(h('p', { class: 'sm-prompt your-turn' }, turnPrompt(st)));
    const kinds = KINDS.filter((k) => st.left.some((p) => p.kind === k));
    if (!draft.kind && !st.sending) {
      kids.push(
        h(
          'div',
          { class: 'sm-actions', role: 'group', 'aria-label': ctx.t('sm.actions') },
          kinds.map((k) =>
            h(
              'button',
              { type: 'button', class: `sm-action action-${k}`, 'data-choice': '', title: ctx.t(`sm.actionTip.${k}`), onclick: () => pick(ctx, st.turn, 'kind', k) },
              h('span', { class: 'sm-action-name' }, ctx.t(`sm.action.${k}`)),
              h('span', { class: 'sm-action-tip' }, ctx.t(`sm.actionTip.${k}`)),
            ),
          ),
        ),
      );
    }
    if (draft.kind === 'nominate' && draft.card && !st.sending) {
      const roles = ROLES.filter((r) => st.left.some((p) => p.role === r));
      kids.push(
        h(
          'div',
          { class: 'sm-roles', role: 'group', 'aria-label': ctx.t('sm.nameRole') },
          roles.map((r) =>
            h(
              'button',
              { type: 'button', class: `sm-role-choice role-${r} team-${st.sides.get(r)}`, 'data-choice': '', onclick: () => pick(ctx, st.turn, 'role', r) },
              roleArt(r),
              h('span', null, roleName(ctx, r)),
            ),
          ),
        ),
      );
    }
  } else if (st.legal.some((p) => p.kind === 'answer')) {
    const answers = st.legal.filter((p) => p.kind === 'answer');
    kids.push(h('p', { class: 'sm-prompt your-turn' }, ctx.t('sm.youAreAsked', { name: ctx.seatName(phase.asker) })));
    kids.push(
      h(
        'div',
        { class: 'sm-answers', role: 'group' },
        answers.map((p) =>
          h(
            'button',
            { type: 'button', class: `sm-answer-choice marker-${p.answer === 'silence' ? 'red' : 'blue'}`, 'data-choice': '', disabled: st.sending || undefined, onclick: () => send(ctx, p.action) },
            ctx.t(`sm.answer.${p.answer}`),
          ),
        ),
      ),
    );
  } else if (st.legal.some((p) => p.kind === 'take')) {
    kids.push(h('p', { class: 'sm-prompt your-turn' }, ctx.t('sm.takePrompt')));
  } else if (st.legal.length) {
    // An action of a kind this board does not draw: still offered, never lost.
    kids.push(
      h(
        'div',
        { class: 'sm-actions' },
        st.legal.map((p) => h('button', { type: 'button', 'data-choice': '', onclick: () => send(ctx, p.action) }, p.label)),
      ),
    );
  } else {
    kids.push(h('p', { class: 'sm-prompt' }, waitingPrompt(st)));
  }
  if (st.sending) kids.push(h('p', { class: 'sm-muted' }, ctx.t('sm.sending')));
  if (undoBtn) kids.push(undoBtn);
  kids.push(legend(ctx));
  return h('div', { class: 'sm-panel', 'aria-live': 'polite', 'data-actions': '' }, kids);
}

// What the marks on the table mean.
function legend(ctx) {
  return h(
    'ul',
    { class: 'sm-legend' },
    h('li', null, h('span', { class: 'sm-eye seat-color-1' }, eyeIcon()), ctx.t('sm.legend.eye')),
    h('li', null, h('span', { class: 'sm-answer-marker marker-red' }, h('span', { class: 'sm-marker-disc' })), ctx.t('sm.legend.red')),
    h('li', null, h('span', { class: 'sm-answer-marker marker-blue' }, h('span', { class: 'sm-marker-disc' })), ctx.t('sm.legend.blue')),
    h('li', null, h('span', { class: 'sm-legend-card sideways' }), ctx.t('sm.legend.protected')),
    h('li', null, h('span', { class: 'sm-legend-card upside' }, '▼'), ctx.t('sm.legend.captured')),
  );
}

function turnPrompt(st) {
  const { ctx, view, draft } = st;
  const number = view.phase.number;
  if (draft.kind === 'nominate' && draft.card) return ctx.t('sm.promptRole', { card: cardName(ctx, draft.card) });
  if (draft.kind && !draft.card) return ctx.t('sm.promptTarget', { action: ctx.t(`sm.action.${draft.kind}`) });
  if (draft.card && !draft.kind) return ctx.t('sm.promptAction', { card: cardName(ctx, draft.card) });
  return number === null || number === undefined ? ctx.t('sm.yourTurnHidden') : ctx.t('sm.yourTurn', { n: number });
}

function waitingPrompt(st) {
  const { ctx, view } = st;
  const p = view.phase;
  if (p.phase === 'turn') {
    return p.number === null || p.number === undefined
      ? ctx.t('sm.theirTurnHidden', { name: ctx.seatName(p.actor) })
      : ctx.t('sm.theirTurn', { name: ctx.seatName(p.actor), n: p.number });
  }
  if (p.phase === 'answer') return ctx.t('sm.waitAnswer', { asker: ctx.seatName(p.asker), target: ctx.seatName(p.target) });
  if (p.phase === 'take_order_card') return ctx.t('sm.waitTake', { name: ctx.seatName(p.actor) });
  return '';
}

function results(st) {
  const { ctx, view } = st;
  if (!view.results || !view.results.length) return null;
  const cards = view.cards.map((c) => cardKey(c.card));
  return h(
    'section',
    { class: 'sm-results', 'aria-label': ctx.t('sm.results') },
    h('h3', null, ctx.t('sm.results')),
    h(
      'ol',
      null,
      view.results.map((r, i) =>
        h(
          'li',
          { class: `sm-result winner-${r.winner}` },
          h('strong', null, ctx.t('sm.gameN', { n: i + 1 }), ' — ', ctx.t(`sm.win.${r.winner}`)),
          ' ',
          h('span', { class: 'sm-muted' }, ctx.t(`sm.reason.${r.reason}`), ' · ', ctx.t('sm.roundN', { n: r.round })),
          h(
            'div',
            { class: 'sm-result-roles' },
            r.roles.map((role, j) =>
              h(
                'span',
                { class: `sm-chip team-${st.sides.get(role)}` },
                `${chipName(ctx, cards[j] || `n${j}`)}: ${roleName(ctx, role)}`,
              ),
            ),
            r.removed ? h('span', { class: 'sm-chip removed' }, ctx.t('sm.removedWas', { role: roleName(ctx, r.removed) })) : null,
          ),
        ),
      ),
    ),
  );
}
