// Ghost at Home (ゴーストアットホーム): every player's haunted house (three floors of two
// rooms under a roof), the deck and the discard pile in the middle, and this seat's hand.
// A turn is built by picking cards from the hand (ctx.draft.sel, undoable) and then clicking
// the place on the table where they go; only steps that lead to a legal action are offered.
// What an action takes and where it lands come from its `facts` (crates/ghost-at-home
// src/facts.rs: the cards of the hand it uses, the spaces a room play fills, the floor a
// ghost or lightning strikes), a card's floor and bulbs from `view.cards`: the board works
// out no rule itself.

import { h } from '../../dom.js';
import { messages } from './messages.js';
import { rules } from './rules.js';
import { svg, ICON, cardFace as face, cardName as nameOf, floorNumber } from './art.js';

// ---------------------------------------------------------------- cards

// The view's card facts by card id, built once per view's list.
const books = new WeakMap();
function factsOf(v, c) {
  let book = books.get(v.cards || books);
  if (!book) {
    book = new Map((v.cards || []).map((f) => [f.card, f]));
    books.set(v.cards || books, book);
  }
  return book.get(c) || { card: c, floor: null, bulbs: 0, special: false };
}
const cardFace = (ctx, c, size) => face(ctx, factsOf(ctx.view, c), size);
const cardName = (ctx, c) => nameOf(ctx, factsOf(ctx.view, c));

// ---------------------------------------------------------------- multisets of cards

const count = (list) => {
  const m = new Map();
  for (const c of list) m.set(c, (m.get(c) || 0) + 1);
  return m;
};
const within = (part, whole) => {
  const w = count(whole);
  for (const [c, n] of count(part)) if ((w.get(c) || 0) < n) return false;
  return true;
};
const sameCards = (a, b) => a.length === b.length && within(a, b);

// The cards of the hand a legal entry takes (its facts); null for one that takes none.
function needOf(l) {
  const uses = l.facts && l.facts.uses;
  return uses && uses.length ? uses : null;
}

// ---------------------------------------------------------------- the board

function render(root, ctx) {
  const v = ctx.view;
  if (!v) {
    root.replaceChildren(h('p', { class: 'gah-empty' }, ctx.t('gah.notStarted')));
    return;
  }
  const me = ctx.you !== null && ctx.you !== undefined && ctx.you < v.players ? ctx.you : null;
  // Every element showing this seat's own hidden cards names the seat, so a test can tell
  // whose secret an element is.
  const secretTag = 'seat' + me;
  // A replay draws the table only: nothing is offered.
  const legal = ctx.replay ? [] : ctx.legal || [];
  const draft = ctx.draft || {};
  const hand = v.hand || [];
  // Selected hand positions; dropped if the hand no longer has them.
  const sel = (Array.isArray(draft.sel) ? draft.sel : []).filter((i) => Number.isInteger(i) && i >= 0 && i < hand.length);
  const selCards = sel.map((i) => hand[i]);
  const send = (action) => {
    draft.sel = [];
    draft.src = null;
    ctx.send(action).catch(() => {});
  };
  const redraw = () => ctx.rerender();
  const phase = v.phase || { kind: 'choose' };

  const cardActions = legal.filter((l) => needOf(l));
  const complete = cardActions.filter((l) => sameCards(needOf(l), selCards));
  // The cat or ghost already picked for a two-step special card, kept only while some
  // legal action still starts from it (otherwise the chain could dead-end).
  const fromSrc = (a, sr) => a.type === sr.type && (a.type === 'play_elevator' ? a.from === sr.floor : a.from === sr.from && a.floor === sr.floor);
  const src = draft.src && complete.some((l) => fromSrc(l.action, draft.src)) ? draft.src : null;

  // Where choices go: keyed by seat and floor, filled below and drawn by the houses.
  const floorTargets = new Map(); // "seat:floor" -> [{label, icon, act}]
  const lampTargets = new Map(); // "seat:floor" -> {label, act}
  const slotTargets = new Map(); // "seat:floor" -> {label, act}
  const catSources = new Map(); // "seat:floor" -> {label, act}
  const ghostSources = new Map(); // "seat:floor" -> {label, act}
  const addFloor = (seat, floor, t) => {
    const k = seat + ':' + floor;
    if (!floorTargets.has(k)) floorTargets.set(k, []);
    floorTargets.get(k).push(t);
  };
  const pileTargets = [];
  const hints = new Set();

  for (const l of complete) {
    const a = l.action;
    const facts = l.facts || {};
    switch (a.type) {
      case 'play_rooms': {
        const label = ctx.t('gah.do.playRooms', { n: a.cards.length });
        for (const p of facts.places || []) slotTargets.set(`${me}:${p.floor}:${p.space}`, { label, card: p.card, act: () => send(a) });
        hints.add('gah.hint.rooms');
        break;
      }
      case 'light':
        lampTargets.set(me + ':' + a.floor, { label: ctx.t('gah.do.light', { floor: ctx.t('gah.floor.' + a.floor) }), act: () => send(a) });
        hints.add('gah.hint.light');
        break;
      case 'play_light_bulb':
        lampTargets.set(me + ':' + a.floor, { label: ctx.t('gah.do.light', { floor: ctx.t('gah.floor.' + a.floor) }), act: () => send(a) });
        hints.add('gah.hint.lightBulb');
        break;
      case 'play_ghost': {
        const f = facts.floor;
        if (f) addFloor(a.target, f, { icon: 'ghost', label: ctx.t('gah.do.ghost', { name: ctx.seatName(a.target) }), act: () => send(a) });
        hints.add('gah.hint.ghost');
        break;
      }
      case 'play_cat':
        addFloor(me, a.floor, { icon: 'cat', label: ctx.t('gah.do.cat', { floor: ctx.t('gah.floor.' + a.floor) }), act: () => send(a) });
        hints.add('gah.hint.cat');
        break;
      case 'play_lightning': {
        const f = facts.floor;
        if (f) lampTargets.set(a.target + ':' + f, { label: ctx.t('gah.do.lightning', { name: ctx.seatName(a.target) }), act: () => send(a) });
        hints.add('gah.hint.lightning');
        break;
      }
      case 'play_cat_food':
        if (!src) {
          catSources.set(a.from + ':' + a.floor, {
            label: ctx.t('gah.do.takeCat', { name: ctx.seatName(a.from) }),
            act: () => {
              draft.src = { type: a.type, from: a.from, floor: a.floor };
              redraw();
            },
          });
          hints.add('gah.hint.catFood');
        } else if (fromSrc(a, src)) {
          addFloor(me, a.to, { icon: 'cat', label: ctx.t('gah.do.catHere', { floor: ctx.t('gah.floor.' + a.to) }), act: () => send(a) });
          hints.add('gah.hint.catTo');
        }
        break;
      case 'play_elevator':
        if (!src) {
          catSources.set(me + ':' + a.from, {
            label: ctx.t('gah.do.moveCat'),
            act: () => {
              draft.src = { type: a.type, floor: a.from };
              redraw();
            },
          });
          hints.add('gah.hint.elevator');
        } else if (fromSrc(a, src)) {
          addFloor(me, a.to, { icon: 'cat', label: ctx.t('gah.do.catHere', { floor: ctx.t('gah.floor.' + a.to) }), act: () => send(a) });
          hints.add('gah.hint.catTo');
        }
        break;
      case 'play_space_time_hole':
        if (!src) {
          ghostSources.set(a.from + ':' + a.floor, {
            label: ctx.t('gah.do.moveGhost'),
            act: () => {
              draft.src = { type: a.type, from: a.from, floor: a.floor };
              redraw();
            },
          });
          hints.add('gah.hint.hole');
        } else if (fromSrc(a, src)) {
          const f = facts.floor;
          if (f) addFloor(a.to, f, { icon: 'ghost', label: ctx.t('gah.do.ghostTo', { name: ctx.seatName(a.to) }), act: () => send(a) });
          hints.add('gah.hint.ghostTo');
        }
        break;
      case 'discard_cards':
        pileTargets.push({ label: ctx.t('gah.do.discardCards', { n: a.cards.length }), act: () => send(a) });
        hints.add('gah.hint.discardGo');
        break;
      default:
        break;
    }
  }

  const byType = (type) => legal.find((l) => l.action.type === type);
  const reply = (type, key, cls) => {
    const l = byType(type);
    return l ? h('button', { class: 'gah-btn ' + (cls || ''), 'data-choice': '', onclick: () => send(l.action) }, ctx.t(key)) : null;
  };

  // ---------- the prompt above the table: what is happening and, when asked, the answers
  const name = (k) => ctx.seatName(k);
  let promptText;
  let promptButtons = [];
  const mine = me !== null && (v.to_move || []).includes(me) && legal.length > 0;
  switch (phase.kind) {
    case 'choose':
      promptText = mine ? ctx.t('gah.prompt.yourTurn') : ctx.t('gah.prompt.turn', { name: name(v.active) });
      if (mine && sel.length && !hints.size) hints.add('gah.hint.more');
      break;
    case 'discarding':
      promptText = mine ? ctx.t('gah.prompt.discarding') : ctx.t('gah.prompt.othersDiscarding', { name: name(v.active) });
      if (mine && !sel.length) hints.add('gah.hint.discard');
      else if (mine && !complete.length) hints.add('gah.hint.more');
      break;
    case 'defence': {
      const fl = ctx.t('gah.floor.' + phase.floor);
      promptText = phase.target === me ? ctx.t('gah.prompt.defendYou', { floor: fl }) : ctx.t('gah.prompt.defend', { name: name(phase.target), floor: fl });
      if (phase.target === me) promptButtons = [reply('defend_with_cat', 'gah.do.defend', 'gah-yes'), reply('no_defence', 'gah.do.noDefence')];
      break;
    }
    case 'escape':
      promptText =
        phase.asking === me
          ? ctx.t('gah.prompt.stopYou', { name: name(v.active), n: phase.ghosts_left })
          : ctx.t('gah.prompt.escape', { name: name(v.active), asker: name(phase.asking) });
      if (phase.asking === me) promptButtons = [reply('stop_escape', 'gah.do.stopEscape', 'gah-yes'), reply('let_escape', 'gah.do.letEscape')];
      break;
    case 'over':
      promptText = ctx.t('gah.prompt.over', { name: name(phase.winner) });
      break;
    default:
      promptText = '';
  }
  const passBtn = reply('pass', 'gah.do.pass');
  if (passBtn) promptButtons.push(passBtn);

  const prompt = h(
    'div',
    { class: 'gah-prompt' + (mine ? ' gah-prompt-mine' : ''), role: 'status', 'data-actions': '' },
    h('p', { class: 'gah-prompt-text' }, promptText),
    [...hints].map((k) => h('p', { class: 'gah-hint' }, ctx.t(k))),
    promptButtons.length ? h('div', { class: 'gah-prompt-buttons' }, promptButtons) : null,
  );

  // ---------- the houses, this seat's first
  const order = [];
  for (let i = 0; i < v.players; i++) order.push(((me ?? 0) + i) % v.players);
  const houses = h(
    'div',
    { class: 'gah-houses gah-n' + v.players },
    order.map((seat) =>
      drawHouse(ctx, v, seat, me, { floorTargets, lampTargets, slotTargets, catSources, ghostSources, chosen: src ? (src.from ?? me) + ':' + src.floor : null }, phase),
    ),
  );

  // ---------- the middle of the table: deck, discard pile, face-down discards
  const discardStart = byType('discard');
  const pile = h(
    'div',
    { class: 'gah-centre' },
    h(
      'div',
      { class: 'gah-deck' },
      h('div', { class: 'gah-stack' }, svg(ICON.back, 'gah-back'), h('span', { class: 'gah-stack-n' }, v.deck_size)),
      h('span', { class: 'gah-cap' }, ctx.t('gah.deck')),
      v.reshuffles ? h('span', { class: 'gah-small' }, ctx.t('gah.reshuffles', { n: v.reshuffles })) : null,
    ),
    h(
      'div',
      { class: 'gah-pile' },
      h('span', { class: 'gah-cap' }, ctx.t('gah.discardPile')),
      h(
        'div',
        { class: 'gah-pile-cards' },
        (v.discards || []).length
          ? v.discards.map(([c, n]) =>
              h('span', { class: 'gah-pile-entry', title: cardName(ctx, c) }, cardFace(ctx, c, 'mini'), n > 1 ? h('span', { class: 'gah-times' }, '×' + n) : null),
            )
          : h('span', { class: 'gah-small' }, ctx.t('gah.none')),
      ),
      h(
        'div',
        { class: 'gah-facedown' },
        (v.secret_discard_counts || []).map((n, seat) =>
          n ? h('span', { class: 'gah-small gah-fd' }, ctx.t('gah.faceDown', { name: name(seat), n })) : null,
        ),
      ),
      v.my_secret_discards && v.my_secret_discards.length
        ? h(
            'div',
            { class: 'gah-my-fd', 'data-secret': secretTag },
            h('span', { class: 'gah-small' }, ctx.t('gah.yourFaceDown')),
            [...count(v.my_secret_discards)].map(([c, n]) =>
              h('span', { class: 'gah-pile-entry', title: cardName(ctx, c), 'data-count': n }, cardFace(ctx, c, 'mini'), n > 1 ? h('span', { class: 'gah-times' }, '×' + n) : null),
            ),
          )
        : null,
      pileTargets.map((t) => h('button', { class: 'gah-btn gah-yes gah-pile-go', 'data-choice': '', onclick: t.act }, t.label)),
    ),
    discardStart
      ? h('button', { class: 'gah-btn gah-discard-start', 'data-choice': '', onclick: () => send(discardStart.action) }, ctx.t('gah.do.discard'))
      : null,
  );

  // ---------- this seat's hand
  let handEl = null;
  if (me !== null) {
    const buildable = phase.kind === 'choose' || phase.kind === 'discarding';
    handEl = h(
      'div',
      { class: 'gah-hand-area' },
      h('div', { class: 'gah-cap' }, ctx.replay ? ctx.t('gah.handOf', { name: ctx.seatName(me) }) : ctx.t('gah.yourHand')),
      h(
        'div',
        { class: 'gah-hand' },
        hand.map((c, i) => {
          const label = cardName(ctx, c);
          if (sel.includes(i)) {
            return h(
              'button',
              {
                class: 'gah-hand-card gah-selected',
                'data-undo': '',
                'data-secret': secretTag,
                'aria-pressed': 'true',
                title: ctx.t('gah.unselect', { card: label }),
                'aria-label': ctx.t('gah.unselect', { card: label }),
                onclick: () => {
                  draft.sel = sel.filter((j) => j !== i);
                  draft.src = null;
                  redraw();
                },
              },
              cardFace(ctx, c),
            );
          }
          const next = [...selCards, c];
          let choice = null;
          if (buildable && !src && cardActions.some((l) => within(next, needOf(l)))) {
            choice = () => {
              draft.sel = [...sel, i];
              draft.src = null;
              redraw();
            };
          } else if (phase.kind === 'defence' && c === 'cat' && byType('defend_with_cat')) {
            choice = () => send(byType('defend_with_cat').action);
          } else if (phase.kind === 'escape' && c === 'ghost' && byType('stop_escape')) {
            choice = () => send(byType('stop_escape').action);
          }
          if (choice) {
            return h(
              'button',
              { class: 'gah-hand-card gah-can', 'data-choice': '', 'data-secret': secretTag, 'aria-pressed': 'false', 'aria-label': label, title: label, onclick: choice },
              cardFace(ctx, c),
            );
          }
          return h('div', { class: 'gah-hand-card' + (mine ? ' gah-cannot' : ''), 'data-secret': secretTag, title: label }, cardFace(ctx, c));
        }),
        hand.length ? null : h('span', { class: 'gah-small' }, ctx.t('gah.emptyHand')),
      ),
      sel.length || src
        ? h(
            'button',
            {
              class: 'gah-btn gah-undo',
              'data-undo': '',
              onclick: () => {
                if (src) draft.src = null;
                else draft.sel = [];
                redraw();
              },
            },
            ctx.t(src ? 'gah.back' : 'gah.clear'),
          )
        : null,
    );
  }

  root.replaceChildren(
    h('div', { class: 'gah', 'data-phase': phase.kind, lang: ctx.lang }, prompt, h('div', { class: 'gah-table' }, houses, pile), handEl),
  );
}

function drawHouse(ctx, v, seat, me, targets, phase) {
  const house = v.houses[seat];
  const pending = (v.to_move || []).includes(seat);
  const escaping = phase.kind === 'escape' && v.active === seat;
  const winner = v.winner === seat;
  const floors = [];
  for (let i = 2; i >= 0; i--) {
    const fl = house.floors[i];
    const key = seat + ':' + fl.floor;
    const slots = [0, 1].map((s) => {
      const room = fl.rooms[s];
      const cat = s < fl.cats;
      const catSrc = cat && s === 0 ? targets.catSources.get(key) : null;
      const slotTarget = !room ? targets.slotTargets.get(key + ':' + s) : null;
      let catEl = null;
      if (cat) {
        catEl = catSrc
          ? h('button', { class: 'gah-token gah-cat gah-pick', 'data-choice': '', title: catSrc.label, 'aria-label': catSrc.label, onclick: catSrc.act }, svg(ICON.cat))
          : h('span', { class: 'gah-token gah-cat' + (s === 0 && targets.chosen === key ? ' gah-chosen' : ''), title: ctx.t('gah.card.cat') }, svg(ICON.cat));
      }
      if (slotTarget) {
        return h(
          'button',
          { class: 'gah-slot gah-slot-go', 'data-choice': '', title: slotTarget.label, 'aria-label': slotTarget.label, onclick: slotTarget.act },
          cardFace(ctx, slotTarget.card, 'slot'),
          h('span', { class: 'gah-slot-label' }, ctx.t('gah.do.placeHere')),
        );
      }
      return h(
        'div',
        { class: 'gah-slot' + (room ? ' gah-filled' : ''), title: room ? cardName(ctx, room) : ctx.t('gah.unexplored') },
        room ? cardFace(ctx, room, 'slot') : h('span', { class: 'gah-door' }, '?'),
        catEl,
      );
    });
    const lamp = targets.lampTargets.get(key);
    const lampEl = lamp
      ? h('button', { class: 'gah-lamp gah-lamp-go', 'data-choice': '', title: lamp.label, 'aria-label': lamp.label, onclick: lamp.act }, svg(fl.lit ? ICON.bulb : ICON.bulbOff), h('span', { class: 'gah-lamp-label' }, ctx.t(lamp.short || 'gah.do.lightShort')))
      : h('span', { class: 'gah-lamp', title: ctx.t(fl.lit ? 'gah.lit' : 'gah.dark') }, svg(fl.lit ? ICON.bulb : ICON.bulbOff));
    const gSrc = targets.ghostSources.get(key);
    const ghostEl = fl.ghost
      ? gSrc
        ? h('button', { class: 'gah-token gah-ghost gah-pick', 'data-choice': '', title: gSrc.label, 'aria-label': gSrc.label, onclick: gSrc.act }, svg(ICON.ghost))
        : h('span', { class: 'gah-token gah-ghost' + (targets.chosen === key ? ' gah-chosen' : ''), title: ctx.t('gah.card.ghost') }, svg(ICON.ghost))
      : null;
    const incoming = phase.kind === 'defence' && phase.target === seat && phase.floor === fl.floor;
    const ft = targets.floorTargets.get(key) || [];
    floors.push(
      h(
        'div',
        {
          class: `gah-floor ${fl.lit ? 'gah-lit' : 'gah-dark'}${incoming ? ' gah-incoming' : ''}`,
          'data-floor': fl.floor,
          'aria-label': ctx.t('gah.floorState', {
            floor: ctx.t('gah.floor.' + fl.floor),
            state: ctx.t(fl.lit ? 'gah.lit' : 'gah.dark'),
            rooms: fl.rooms.length,
            cats: fl.cats,
          }),
        },
        h('span', { class: 'gah-floor-no' }, ctx.t('gah.floorMark', { n: floorNumber(fl.floor) })),
        lampEl,
        h('div', { class: 'gah-slots' }, slots),
        ghostEl,
        incoming ? h('span', { class: 'gah-token gah-ghost gah-coming', title: ctx.t('gah.coming') }, svg(ICON.ghost)) : null,
        ft.length
          ? h(
              'div',
              { class: 'gah-floor-go' },
              ft.map((t) => h('button', { class: 'gah-btn gah-target', 'data-choice': '', onclick: t.act }, svg(ICON[t.icon]), h('span', null, t.label))),
            )
          : null,
      ),
    );
  }
  const n = v.hand_sizes[seat] || 0;
  const backs = [];
  for (let i = 0; i < n; i++) backs.push(svg(ICON.back, 'gah-back-mini'));
  return h(
    'section',
    {
      class: `gah-house${seat === me ? ' gah-me' : ''}${v.active === seat ? ' gah-active' : ''}${pending ? ' gah-pending' : ''}${winner ? ' gah-winner' : ''}`,
      'data-seat': seat,
      'aria-label': ctx.t('gah.houseOf', { name: ctx.seatName(seat) }),
    },
    h(
      'header',
      { class: 'gah-house-head' },
      h('span', { class: 'gah-name', title: ctx.seatName(seat) }, ctx.seatName(seat)),
      seat === me && !ctx.replay ? h('span', { class: 'gah-badge gah-you' }, ctx.t('gah.youBadge')) : null,
      v.active === seat ? h('span', { class: 'gah-badge gah-turn' }, ctx.t('gah.turnBadge')) : null,
      pending && v.active !== seat ? h('span', { class: 'gah-badge gah-wait' }, ctx.t('gah.deciding')) : null,
    ),
    h(
      'div',
      { class: 'gah-roof' },
      svg(ICON.roof, 'gah-roof-pic'),
      winner ? h('span', { class: 'gah-badge gah-won' }, ctx.t('gah.escaped')) : escaping ? h('span', { class: 'gah-badge gah-esc' }, ctx.t('gah.escaping')) : house.fully_explored ? h('span', { class: 'gah-badge gah-esc' }, ctx.t('gah.allExplored')) : null,
    ),
    h('div', { class: 'gah-floors' }, floors),
    h('div', { class: 'gah-ground' }),
    h('footer', { class: 'gah-house-foot', title: ctx.t('gah.handSize', { n }) }, h('span', { class: 'gah-backs' }, backs), h('span', { class: 'gah-small' }, ctx.t('gah.handSize', { n }))),
  );
}

function optionFields(optionSets, players, t) {
  const seen = [...new Set((optionSets || []).map((o) => !!o.special_cards))];
  const values = seen.length ? seen : [false, true];
  return [
    {
      key: 'special_cards',
      label: t('gah.opt.special_cards'),
      values: values.map((value) => ({ value, label: t(value ? 'gah.opt.special.on' : 'gah.opt.special.off') })),
    },
  ];
}

export default { messages, rules, optionFields, render };
