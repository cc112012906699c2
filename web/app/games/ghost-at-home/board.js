// Ghost at Home (ゴーストアットホーム): every player's haunted house (three floors of two
// rooms under a roof), the deck and the discard pile in the middle, and this seat's hand.
// A turn is built by picking cards from the hand (ctx.draft.sel, undoable) and then clicking
// the place on the table where they go; only steps that lead to a legal action are offered.

import { h } from '../../dom.js';

const FLOORS = ['first', 'second', 'third'];

// ---------------------------------------------------------------- drawing helpers

const svg = (html, cls) => h('span', { class: 'gah-ico ' + (cls || ''), 'aria-hidden': 'true', html });

const ICON = {
  ghost:
    '<svg viewBox="0 0 40 44"><path d="M20 2C10 2 4 10 4 20v22l6-5 5 5 5-5 5 5 5-5 6 5V20C36 10 30 2 20 2z" fill="#f5f2ff" stroke="#5b4a8a" stroke-width="2"/><circle cx="14" cy="18" r="3" fill="#2a1f4a"/><circle cx="26" cy="18" r="3" fill="#2a1f4a"/><ellipse cx="20" cy="28" rx="3.5" ry="4.5" fill="#2a1f4a"/></svg>',
  cat:
    '<svg viewBox="0 0 40 44"><path d="M9 3l6 8h10l6-8v17c0 5-2 9-5 11 5 2 8 6 8 12H6c0-6 3-10 8-12-3-2-5-6-5-11z" fill="#1d1b22"/><path d="M33 40c5-1 5-8 1-10" stroke="#1d1b22" stroke-width="3" fill="none" stroke-linecap="round"/><ellipse cx="15.5" cy="18" rx="2.2" ry="2.6" fill="#ffd23f"/><ellipse cx="24.5" cy="18" rx="2.2" ry="2.6" fill="#ffd23f"/><path d="M19 23h2l-1 1.4z" fill="#ff9bb0"/></svg>',
  bulb:
    '<svg viewBox="0 0 24 24"><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#ffd84a" stroke="#8a6d00" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#8a8a8a"/></svg>',
  bulbOff:
    '<svg viewBox="0 0 24 24"><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#3b3f55" stroke="#9aa0c0" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#6a6a6a"/></svg>',
  space_time_hole:
    '<svg viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#12082a"/><path d="M20 20m-2 0a2 2 0 1 1 4 0a5 5 0 1 1-10 0a8 8 0 1 1 16 0a11 11 0 1 1-22 0a14 14 0 1 1 28 0" fill="none" stroke="#b48cff" stroke-width="2.2"/></svg>',
  light_bulb:
    '<svg viewBox="0 0 24 24"><circle cx="12" cy="10" r="10" fill="#fff3b0" opacity=".6"/><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#ffd84a" stroke="#8a6d00" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#8a8a8a"/></svg>',
  cat_food:
    '<svg viewBox="0 0 40 40"><path d="M4 22h32c0 9-7 14-16 14S4 31 4 22z" fill="#e0553d"/><ellipse cx="20" cy="22" rx="16" ry="4" fill="#a83a28"/><path d="M11 17c4-6 12-6 16 0-4 5-12 5-16 0zm16 0l6-4v8z" fill="#8fc1e3"/><circle cx="15" cy="16" r="1.2" fill="#123"/></svg>',
  elevator:
    '<svg viewBox="0 0 40 40"><rect x="7" y="3" width="26" height="34" rx="3" fill="#8d99ae" stroke="#2b2d42" stroke-width="2"/><line x1="20" y1="3" x2="20" y2="37" stroke="#2b2d42" stroke-width="2"/><path d="M13 16l-4 5h8zM27 24l4-5h-8z" fill="#ffd23f"/></svg>',
  lightning:
    '<svg viewBox="0 0 40 40"><path d="M24 2L8 23h10l-4 15 18-22H21z" fill="#ffe14d" stroke="#8a6d00" stroke-width="1.5" stroke-linejoin="round"/></svg>',
  wild_room:
    '<svg viewBox="0 0 40 40"><rect x="6" y="6" width="28" height="30" rx="2" fill="#fff" stroke="#333" stroke-width="2"/><path d="M6 14h28" stroke="#e63946" stroke-width="4"/><path d="M6 20h28" stroke="#f4a261" stroke-width="4"/><path d="M6 26h28" stroke="#2a9d8f" stroke-width="4"/><text x="20" y="27" text-anchor="middle" font-size="18" font-weight="bold" fill="#222">?</text></svg>',
  roof:
    '<svg viewBox="0 0 200 60" preserveAspectRatio="none"><rect x="146" y="6" width="16" height="30" fill="#4a3a5a"/><path d="M4 58L100 4l96 54z" fill="#5b3f6e" stroke="#2a1d38" stroke-width="3" stroke-linejoin="round"/><circle cx="100" cy="38" r="9" fill="#2a1d38"/><circle cx="100" cy="38" r="6" fill="#ffe9a8" opacity=".5"/></svg>',
  room:
    '<svg viewBox="0 0 40 30"><rect x="3" y="4" width="14" height="12" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.5"/><path d="M10 4v12M3 10h14" stroke="#3a2e22" stroke-width="1.2"/><rect x="23" y="8" width="12" height="20" rx="1" fill="#7a4e2d" stroke="#3a2e22" stroke-width="1.5"/><circle cx="32" cy="18" r="1.2" fill="#ffd23f"/></svg>',
  room2:
    '<svg viewBox="0 0 40 30"><rect x="24" y="2" width="11" height="9" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.3"/><path d="M29.5 2v9" stroke="#3a2e22" stroke-width="1"/><rect x="4" y="15" width="32" height="8" rx="2" fill="#c0504d" stroke="#3a2e22" stroke-width="1.5"/><rect x="5" y="11" width="9" height="6" rx="2" fill="#fff" stroke="#3a2e22" stroke-width="1.2"/><path d="M5 23v5M35 23v5" stroke="#3a2e22" stroke-width="2"/></svg>',
  room3:
    '<svg viewBox="0 0 40 30"><path d="M3 28L20 3l17 25z" fill="#a98b6d" stroke="#3a2e22" stroke-width="1.5" stroke-linejoin="round"/><circle cx="20" cy="18" r="5" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.2"/><path d="M20 13v10M15 18h10" stroke="#3a2e22" stroke-width="1"/><path d="M31 27c0-3 3-3 3-6" stroke="#e6e6e6" stroke-width=".8" fill="none"/><circle cx="34" cy="20" r="1" fill="#222"/></svg>',
  back:
    '<svg viewBox="0 0 40 56"><rect x="1" y="1" width="38" height="54" rx="4" fill="#3d2a5c" stroke="#1c1230" stroke-width="2"/><path d="M20 12c-5 0-8 4-8 9v13l3-2 2.5 2 2.5-2 2.5 2 2.5-2 3 2V21c0-5-3-9-8-9z" fill="#c9b8ff" opacity=".55"/></svg>',
};

// ---------------------------------------------------------------- cards

const isRoom = (c) => /^floor[123]_bulbs[0-3]$/.test(c);
const roomFloor = (c) => (isRoom(c) ? Number(c[5]) : 0);
const roomBulbs = (c) => (isRoom(c) ? Number(c[12]) : 0);
const floorNo = (f) => FLOORS.indexOf(f) + 1;

function cardName(ctx, c) {
  if (isRoom(c)) return ctx.t('gah.roomCard', { floor: ctx.t('gah.floor.' + FLOORS[roomFloor(c) - 1]), bulbs: roomBulbs(c) });
  return ctx.t('gah.card.' + c);
}

function bulbs(n, cls) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(svg(ICON.bulb, 'gah-bulb'));
  return h('span', { class: 'gah-bulbs ' + (cls || '') }, out);
}

// A card face: room cards show their floor in the lower-left corner, as printed, and their
// light-bulb icons; the others their picture and name.
function cardFace(ctx, c, size) {
  const kind = isRoom(c) ? 'room f' + roomFloor(c) : c === 'ghost' || c === 'cat' ? c : 'special ' + c;
  const body = isRoom(c)
    ? [
        h('span', { class: 'gah-card-title' }, ctx.t('gah.room')),
        svg(ICON[roomFloor(c) === 1 ? 'room' : 'room' + roomFloor(c)], 'gah-card-pic'),
        bulbs(roomBulbs(c)),
        h('span', { class: 'gah-card-floor' }, ctx.t('gah.floorMark', { n: roomFloor(c) })),
      ]
    : [h('span', { class: 'gah-card-title' }, ctx.t('gah.card.' + c)), svg(ICON[c], 'gah-card-pic')];
  return h('span', { class: `gah-card gah-card-${size || 'hand'} ${kind}`, 'data-card': c }, body);
}

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

// The cards from the hand an action takes; null for actions that take none.
function needOf(a) {
  switch (a.type) {
    case 'play_rooms':
    case 'light':
    case 'discard_cards':
      return a.cards;
    case 'play_ghost':
      return ['ghost'];
    case 'play_cat':
      return ['cat'];
    case 'play_light_bulb':
      return ['light_bulb'];
    case 'play_lightning':
      return ['lightning'];
    case 'play_cat_food':
      return ['cat_food'];
    case 'play_elevator':
      return ['elevator'];
    case 'play_space_time_hole':
      return ['space_time_hole'];
    default:
      return null;
  }
}

// The highest floor of a house with a room card (where ghosts and lightning strike).
function topRoomFloor(house) {
  for (let i = 2; i >= 0; i--) if (house.floors[i].rooms.length) return FLOORS[i];
  return null;
}

// Where a room play puts its cards: the next free spaces from the bottom, printed rooms on
// their own floor's spaces and wild rooms on the others (as the rules crate plays them).
// Returns [["floor:slot", card]].
function roomPreview(house, cards) {
  const spaces = [];
  for (const fl of house.floors) for (let s = fl.rooms.length; s < 2; s++) spaces.push([fl.floor, s]);
  const free = spaces.slice(0, cards.length);
  const out = new Map();
  const wild = [];
  for (const c of cards) {
    const i = isRoom(c) ? free.findIndex(([f, s]) => floorNo(f) === roomFloor(c) && !out.has(f + ':' + s)) : -1;
    if (i < 0) wild.push(c);
    else out.set(free[i][0] + ':' + free[i][1], c);
  }
  for (const [f, s] of free) if (!out.has(f + ':' + s) && wild.length) out.set(f + ':' + s, wild.shift());
  return [...out];
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

  const cardActions = legal.filter((l) => needOf(l.action));
  const complete = cardActions.filter((l) => sameCards(needOf(l.action), selCards)).map((l) => l.action);
  // The cat or ghost already picked for a two-step special card, kept only while some
  // legal action still starts from it (otherwise the chain could dead-end).
  const fromSrc = (a, sr) => a.type === sr.type && (a.type === 'play_elevator' ? a.from === sr.floor : a.from === sr.from && a.floor === sr.floor);
  const src = draft.src && complete.some((a) => fromSrc(a, draft.src)) ? draft.src : null;

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

  for (const a of complete) {
    switch (a.type) {
      case 'play_rooms': {
        const label = ctx.t('gah.do.playRooms', { n: a.cards.length });
        for (const [k, card] of roomPreview(v.houses[me], a.cards)) slotTargets.set(me + ':' + k, { label, card, act: () => send(a) });
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
        const f = topRoomFloor(v.houses[a.target]);
        if (f) addFloor(a.target, f, { icon: 'ghost', label: ctx.t('gah.do.ghost', { name: ctx.seatName(a.target) }), act: () => send(a) });
        hints.add('gah.hint.ghost');
        break;
      }
      case 'play_cat':
        addFloor(me, a.floor, { icon: 'cat', label: ctx.t('gah.do.cat', { floor: ctx.t('gah.floor.' + a.floor) }), act: () => send(a) });
        hints.add('gah.hint.cat');
        break;
      case 'play_lightning': {
        const f = topRoomFloor(v.houses[a.target]);
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
          const f = topRoomFloor(v.houses[a.to]);
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
          if (buildable && !src && cardActions.some((l) => within(next, needOf(l.action)))) {
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
        h('span', { class: 'gah-floor-no' }, ctx.t('gah.floorMark', { n: i + 1 })),
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

// ---------------------------------------------------------------- words

const messages = {
  ja: {
    'gah.card.ghost': 'ゴースト',
    'gah.card.cat': 'ネコ',
    'gah.card.space_time_hole': '時空の穴',
    'gah.card.light_bulb': '電球',
    'gah.card.cat_food': 'キャットフード',
    'gah.card.elevator': 'エレベーター',
    'gah.card.lightning': '雷',
    'gah.card.wild_room': '部屋ワイルドカード',
    'gah.room': '部屋',
    'gah.roomCard': '{floor}の部屋カード（電球{bulbs}個）',
    'gah.floor.first': '1階',
    'gah.floor.second': '2階',
    'gah.floor.third': '3階',
    'gah.floorMark': '{n}階',
    'gah.floorState': '{floor}：{state}、部屋{rooms}枚、ネコ{cats}匹',
    'gah.lit': '電気が点いている',
    'gah.dark': '電気が消えている（暗い面）',
    'gah.unexplored': '未探索の部屋',
    'gah.coming': 'ゴーストがやってくる',
    'gah.houseOf': '{name}のお化け屋敷',
    'gah.youBadge': 'あなた',
    'gah.turnBadge': '手番',
    'gah.deciding': '選択中',
    'gah.escaping': '脱出中！',
    'gah.escaped': '脱出！',
    'gah.allExplored': '探索完了',
    'gah.handSize': '手札{n}枚',
    'gah.deck': '山札',
    'gah.discardPile': '捨て札',
    'gah.none': 'なし',
    'gah.reshuffles': 'シャッフル{n}回',
    'gah.faceDown': '{name}：伏せて{n}枚',
    'gah.yourFaceDown': 'あなたが伏せて捨てたカード：',
    'gah.yourHand': 'あなたの手札',
    'gah.handOf': '{name}の手札',
    'gah.emptyHand': '手札なし',
    'gah.notStarted': 'ゲームはまだ始まっていません。',
    'gah.unselect': '{card}の選択をやめる',
    'gah.clear': '選択をやめる',
    'gah.back': '戻す',
    'gah.prompt.yourTurn': 'あなたの手番です。手札からカードを選ぶか、カードを捨てます。',
    'gah.prompt.turn': '{name}の手番です。',
    'gah.prompt.discarding': '伏せて捨てるカードを選んでください（同じ枚数を山札から引きます）。',
    'gah.prompt.othersDiscarding': '{name}がカードを伏せて捨てています。',
    'gah.prompt.defendYou': 'ゴーストがあなたの{floor}にやってきます！手札のネコを捨てて防御しますか？',
    'gah.prompt.defend': 'ゴーストが{name}の{floor}にやってきます。{name}はネコで防御できます。',
    'gah.prompt.stopYou': '{name}が脱出しようとしています！ゴーストを出して阻止しますか？（あと{n}体まで）',
    'gah.prompt.escape': '{name}が脱出しようとしています。{asker}がゴーストで阻止できます。',
    'gah.prompt.over': '{name}が脱出して勝利しました！',
    'gah.hint.rooms': '自分の家の光っている空きスペースをクリックして部屋カードを出します。',
    'gah.hint.light': '電気をつける階の電球をクリックします（選んだカードは表向きに捨てます）。',
    'gah.hint.lightBulb': '電気をつける階の電球をクリックします。',
    'gah.hint.ghost': 'ゴーストを出す相手の家の階をクリックします。',
    'gah.hint.cat': 'ネコを置く階をクリックします。',
    'gah.hint.lightning': '電気を消す相手の階の電球をクリックします。',
    'gah.hint.catFood': '連れてくる相手の家のネコをクリックします。',
    'gah.hint.catTo': 'ネコを置く自分の家の階をクリックします。',
    'gah.hint.elevator': '移動させる自分のネコをクリックします。',
    'gah.hint.hole': '移動させるゴーストをクリックします。',
    'gah.hint.ghostTo': 'ゴーストを送る相手の家をクリックします。',
    'gah.hint.discard': '捨てるカードを手札から選びます。',
    'gah.hint.discardGo': '捨て札の「捨てて引く」を押すか、さらにカードを選びます。',
    'gah.hint.more': 'もう1枚選んでください。',
    'gah.do.playRooms': 'ここに部屋カードを出す（{n}枚）',
    'gah.do.placeHere': 'ここに出す',
    'gah.do.light': '{floor}の電気をつける',
    'gah.do.lightShort': '点灯',
    'gah.do.lightningShort': '消灯',
    'gah.do.ghost': '{name}にゴーストを出す',
    'gah.do.cat': '{floor}にネコを出す',
    'gah.do.lightning': '{name}の電気を消す',
    'gah.do.takeCat': '{name}のこのネコを連れてくる',
    'gah.do.moveCat': 'このネコを移動させる',
    'gah.do.catHere': '{floor}にネコを置く',
    'gah.do.moveGhost': 'このゴーストを移動させる',
    'gah.do.ghostTo': '{name}の家へゴーストを送る',
    'gah.do.discard': 'カードを捨てる…',
    'gah.do.discardCards': '{n}枚を伏せて捨て、{n}枚引く',
    'gah.do.defend': 'ネコを捨てて防御する',
    'gah.do.noDefence': '防御しない',
    'gah.do.stopEscape': 'ゴーストを出して脱出を阻止する',
    'gah.do.letEscape': '阻止しない',
    'gah.do.pass': 'パス',
    'gah.opt.special_cards': '特殊カード',
    'gah.opt.special.off': 'なし（初回プレイにおすすめ）',
    'gah.opt.special.on': 'あり（7枚を混ぜる）',
  },
  en: {
    'gah.card.ghost': 'Ghost',
    'gah.card.cat': 'Cat',
    'gah.card.space_time_hole': 'Space-time hole',
    'gah.card.light_bulb': 'Light bulb',
    'gah.card.cat_food': 'Cat food',
    'gah.card.elevator': 'Elevator',
    'gah.card.lightning': 'Lightning',
    'gah.card.wild_room': 'Wild room',
    'gah.room': 'Room',
    'gah.roomCard': '{floor} room ({bulbs} bulbs)',
    'gah.floor.first': '1st floor',
    'gah.floor.second': '2nd floor',
    'gah.floor.third': '3rd floor',
    'gah.floorMark': '{n}F',
    'gah.floorState': '{floor}: {state}, {rooms} rooms, {cats} cats',
    'gah.lit': 'light on',
    'gah.dark': 'dark',
    'gah.unexplored': 'unexplored room',
    'gah.coming': 'a ghost is coming',
    'gah.houseOf': "{name}'s haunted house",
    'gah.youBadge': 'you',
    'gah.turnBadge': 'turn',
    'gah.deciding': 'deciding',
    'gah.escaping': 'Escaping!',
    'gah.escaped': 'Escaped!',
    'gah.allExplored': 'All explored',
    'gah.handSize': '{n} cards in hand',
    'gah.deck': 'Deck',
    'gah.discardPile': 'Discard pile',
    'gah.none': 'empty',
    'gah.reshuffles': 'reshuffled {n}×',
    'gah.faceDown': '{name}: {n} face down',
    'gah.yourFaceDown': 'You discarded face down:',
    'gah.yourHand': 'Your hand',
    'gah.handOf': "{name}'s hand",
    'gah.emptyHand': 'no cards',
    'gah.notStarted': 'The game has not started yet.',
    'gah.unselect': 'Put back {card}',
    'gah.clear': 'Clear selection',
    'gah.back': 'Back',
    'gah.prompt.yourTurn': 'Your turn: pick cards from your hand, or discard.',
    'gah.prompt.turn': "{name}'s turn.",
    'gah.prompt.discarding': 'Choose the cards to discard face down (you draw as many).',
    'gah.prompt.othersDiscarding': '{name} is discarding cards face down.',
    'gah.prompt.defendYou': 'A ghost is coming to your {floor}! Discard a cat from your hand to chase it away?',
    'gah.prompt.defend': "A ghost is coming to {name}'s {floor}. {name} may defend with a cat.",
    'gah.prompt.stopYou': '{name} is escaping! Play a ghost to stop them? ({n} more at most)',
    'gah.prompt.escape': '{name} is escaping. {asker} may play a ghost to stop them.',
    'gah.prompt.over': '{name} escaped and wins!',
    'gah.hint.rooms': 'Click the glowing free space in your house to place the rooms.',
    'gah.hint.light': 'Click the lamp of the floor to light (the chosen cards are discarded face up).',
    'gah.hint.lightBulb': 'Click the lamp of the floor to light.',
    'gah.hint.ghost': "Click the floor of the opponent's house to haunt.",
    'gah.hint.cat': 'Click the floor where the cat goes.',
    'gah.hint.lightning': "Click the lamp of the opponent's floor to put out.",
    'gah.hint.catFood': "Click the opponent's cat to lure away.",
    'gah.hint.catTo': 'Click the floor of your house where the cat goes.',
    'gah.hint.elevator': 'Click the cat of yours to move.',
    'gah.hint.hole': 'Click the ghost to move.',
    'gah.hint.ghostTo': 'Click the house to send the ghost to.',
    'gah.hint.discard': 'Pick the cards to discard from your hand.',
    'gah.hint.discardGo': 'Press “discard and draw” at the discard pile, or pick more cards.',
    'gah.hint.more': 'Pick one more card.',
    'gah.do.playRooms': 'Play {n} room card(s) here',
    'gah.do.placeHere': 'Place',
    'gah.do.light': 'Light the {floor}',
    'gah.do.lightShort': 'Light',
    'gah.do.lightningShort': 'Put out',
    'gah.do.ghost': 'Haunt {name}',
    'gah.do.cat': 'Cat on the {floor}',
    'gah.do.lightning': "Put out {name}'s light",
    'gah.do.takeCat': "Lure {name}'s cat",
    'gah.do.moveCat': 'Move this cat',
    'gah.do.catHere': 'Cat to the {floor}',
    'gah.do.moveGhost': 'Move this ghost',
    'gah.do.ghostTo': 'Send the ghost to {name}',
    'gah.do.discard': 'Discard cards…',
    'gah.do.discardCards': 'Discard {n} face down and draw {n}',
    'gah.do.defend': 'Discard a cat to defend',
    'gah.do.noDefence': 'Let the ghost in',
    'gah.do.stopEscape': 'Play a ghost to stop the escape',
    'gah.do.letEscape': 'Let them escape',
    'gah.do.pass': 'Pass',
    'gah.opt.special_cards': 'Special cards',
    'gah.opt.special.off': 'Off (recommended for a first game)',
    'gah.opt.special.on': 'On (shuffle in the 7 special cards)',
  },
};

// ---------------------------------------------------------------- rules page

const rules = {
  ja: `
<p>自分のお化け屋敷を<strong>1階から3階へ</strong>と探検し、すべての部屋（各階2部屋、計6部屋）を埋めて<strong>最初に脱出した人の勝ち</strong>です。相手の家にはゴーストを送り込んで足止めし、自分の家はネコと電気で守ります。</p>
<h3>準備</h3>
<p>全員が同じお化け屋敷（暗い面を上にしたフロアカード3枚と屋根）を持ちます。カードをシャッフルし、各プレイヤーに3枚ずつ配ります。</p>
<h3>カード</h3>
<ul>
<li><strong>部屋カード</strong>（1階12枚・2階10枚・3階10枚）：左下に印刷された階にだけ置けます。電球アイコン（0〜3個）が描かれています。</li>
<li><strong>ゴースト</strong>（8枚）と<strong>ネコ</strong>（6枚）。</li>
<li><strong>特殊カード</strong>（7枚、オプション）：時空の穴・電球・キャットフード・エレベーター・雷・部屋ワイルドカード2枚。</li>
</ul>
<h3>手番</h3>
<p>手番では次のうち<strong>1つ</strong>を行います。</p>
<ol>
<li><strong>部屋カードを1枚以上出す</strong>：下の階がすべて埋まっている階の空きスペースへ。同じ手番で複数枚を出せます（例：1階を2枚、続けて2階を1枚）。</li>
<li><strong>ゴーストを1枚出す</strong>：相手の家の、部屋カードがある最上階へ（ゴーストがいる階には出せません）。その階にネコがいれば、ゴーストとネコは捨て札に。いなければ相手は手札のネコを捨てて防御できます。防御されなければ、<em>暗い階</em>ではその階の部屋カードがゴーストと一緒に捨てられます。<em>電気が点いた階</em>ではゴーストは留まり、2体目が来ると部屋とゴーストが捨てられ電気が消えます。</li>
<li><strong>ネコを1枚出す</strong>：自分の家の探索済みの部屋へ（ネコの上には置けません）。ゴーストのいる階なら、ネコとゴーストが捨て札になります。それ以外はネコが留まり、その階を守ります。</li>
<li><strong>電気をつける</strong>：電球アイコンが合計5個以上になるよう部屋カード2〜3枚を表向きに捨て、下の階がすべて埋まっている自分の階の電気をつけます（1階はいつでも可）。2枚で5個に届くなら、3枚目は電球0個のカードに限ります。</li>
<li><strong>特殊カードを1枚出す</strong>（オプション）。</li>
<li><strong>カードを1枚以上捨てる</strong>：伏せて捨て、同じ枚数を山札から引きます。何を捨てたかは秘密です。</li>
</ol>
<p>手番の終わりに、家がまだ探索し尽くされていなければ手札を3枚まで補充します。山札が尽きたら捨て札をシャッフルして山札にします。</p>
<h3>脱出</h3>
<p>手番の終わりに家のすべての部屋が埋まっていたら（電気が消えていても）、補充はせず<strong>脱出</strong>を試みます。他の各プレイヤーは順番にゴーストを1体出して阻止できます（2人プレイでは相手が最大2体）。脱出する人はネコで防御できます。阻止されたら、脱出しようとした人から順に全員が手札を補充し、次の人から再開します。阻止されなければ、その人の勝ちです。</p>
<h3>特殊カード（オプション「特殊カード」）</h3>
<ul>
<li><strong>時空の穴</strong>：どの家（自分の家も）のゴーストでも、相手の家の部屋カードがある最上階へ移動させます。</li>
<li><strong>電球</strong>：下の階がすべて探索済みの自分の階の電気をつけます。</li>
<li><strong>キャットフード</strong>：相手の家のネコを自分の家へ移動させます。</li>
<li><strong>エレベーター</strong>：自分の家のネコを別の階へ移動させます。</li>
<li><strong>雷</strong>：相手の探索した最上階の電気を消します。</li>
<li><strong>部屋ワイルドカード</strong>：どの階の部屋としても出せます。他の部屋カードと一緒に出せます。</li>
</ul>
<p>初めてのゲームでは特殊カードを抜いて遊ぶのがおすすめです。</p>
<h3>この画面での遊び方</h3>
<p>手札のカードをクリックして選び、光っている場所（自分の家の空きスペース、電球、相手の家の階、ネコやゴースト）をクリックして出します。選んだカードはもう一度クリックするか「選択をやめる」で戻せます。</p>
<p class="muted">部屋カードの電球アイコンの枚数分布は資料にないため、takuge独自の設定です（1階：0個3枚・1個4枚・2個3枚・3個2枚、2階・3階：0個2枚・1個3枚・2個3枚・3個2枚）。</p>
`,
  en: `
<p>Explore your own haunted house <strong>from the 1st floor up to the 3rd</strong>: the first player whose six rooms (two per floor) are all explored, and who is not stopped while escaping, <strong>wins</strong>. Slow the others down with ghosts; protect your house with cats and lights.</p>
<h3>Setup</h3>
<p>Everyone has the same house: three floor cards, dark side up, under a roof. Shuffle the cards and deal 3 to each player.</p>
<h3>Cards</h3>
<ul>
<li><strong>Room cards</strong> (1st floor 12, 2nd 10, 3rd 10): a room goes only on the floor printed in its lower-left corner. Each shows 0–3 light-bulb icons.</li>
<li><strong>Ghosts</strong> (8) and <strong>cats</strong> (6).</li>
<li><strong>Special cards</strong> (7, optional): space-time hole, light bulb, cat food, elevator, lightning and two wild rooms.</li>
</ul>
<h3>Your turn</h3>
<p>Do <strong>one</strong> of:</p>
<ol>
<li><strong>Play room cards</strong>, one or more, onto free spaces of a floor whose lower floors are all full. Several in one turn is fine (two 1st-floor rooms, then a 2nd-floor room).</li>
<li><strong>Play a ghost</strong> at an opponent's highest floor with rooms (not on a floor that already has a ghost). A cat there: ghost and cat are discarded. Otherwise the opponent may discard a cat from hand to cancel it. If the ghost lands on a <em>dark</em> floor, that floor's rooms are discarded with the ghost. On a <em>lit</em> floor it stays — a second ghost there discards the rooms and both ghosts, and the light goes out.</li>
<li><strong>Play a cat</strong> on an explored room of your house (not on another cat). On a floor with a ghost, cat and ghost are discarded and the rooms stay; otherwise the cat stays and guards the floor.</li>
<li><strong>Turn on a light</strong>: discard 2 or 3 room cards face up with 5 or more light-bulb icons in total, and light a floor of yours whose lower floors are full (the 1st floor always). A third card is allowed only if two fall short — or if it shows no icon.</li>
<li><strong>Play a special card</strong> (with the option).</li>
<li><strong>Discard</strong> one or more cards face down and draw as many. What you discarded stays secret.</li>
</ol>
<p>At the end of your turn, unless your house is fully explored, refill your hand to 3 cards. When the deck runs out, the discard pile is shuffled into a new deck.</p>
<h3>Escape</h3>
<p>If your house is fully explored at the end of your turn (lit or not), you do not refill: you try to <strong>escape</strong>. Every other player in turn may play one ghost to stop you (in a 2-player game the opponent may play up to two); you may defend with cats as usual. If you are stopped, everyone refills to 3 — you first — and play goes on with the next player. If not, you win.</p>
<h3>Special cards (option “special cards”)</h3>
<ul>
<li><strong>Space-time hole</strong>: move a ghost from any house (yours too) to an opponent's highest floor with rooms.</li>
<li><strong>Light bulb</strong>: light a floor of yours whose lower floors are fully explored.</li>
<li><strong>Cat food</strong>: bring a cat from an opponent's house to yours.</li>
<li><strong>Elevator</strong>: move a cat of yours to another floor.</li>
<li><strong>Lightning</strong>: put out the light of an opponent's highest explored floor.</li>
<li><strong>Wild room</strong>: a room of any floor, playable together with other rooms.</li>
</ul>
<p>For a first game, leave the special cards out.</p>
<h3>Playing here</h3>
<p>Click cards in your hand to pick them, then click the glowing place on the table where they go: a free space of your house, a lamp, an opponent's floor, a cat or a ghost. Click a picked card again, or “Clear selection”, to take it back.</p>
<p class="muted">The source does not give how many light-bulb icons each room card shows; takuge uses its own distribution (1st floor: 3 cards with 0, 4 with 1, 3 with 2, 2 with 3; 2nd and 3rd floors: 2 with 0, 3 with 1, 3 with 2, 2 with 3).</p>
`,
};

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
