// Collectors & Thieves (art-heist, seed 001): the track with its castles, the auction house
// (two piles, the safe) and the castle (the cage, this turn's exhibits) in the centre, each
// player's area around them, and your hand below. You act by clicking the places, your
// cards, a pile or an exhibit. An exhibit is picked card by card in a local draft and sent
// as the game's steps (its letters, then the cards of each letter) once it is complete.
import { h, clear } from '../../dom.js';
import { messages } from './messages.js';
import { rules } from './rules.js';
import { money, actionLabel, actionCard, artLabel, artCard, artBack, pawn } from './art.js';

const letterIndex = (c) => String(c).charCodeAt(0) - 65;
const letterOf = (i) => String.fromCharCode(65 + i);
const kindOf = (a) => (typeof a === 'string' ? a : Object.keys(a)[0]);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The last ctx drawn, so an ack can redraw with the newest state.
let latest = null;
// The local draft of the decision under way, keyed by decision. The shell's ctx.draft now
// survives other seats' choices during a simultaneous step too (it was dropped at every
// version when this was written); the key also tells turns and steps apart.
let kept = null;

// The seats' accounts tell one table from another (the module outlives a table page).
const tableKey = (ctx) => (ctx.seats || []).map((s) => s.user_id).join(',');

function decisionKey(ctx) {
  const v = ctx.view;
  return JSON.stringify([tableKey(ctx), ctx.you, v.turn, v.step, ctx.legal.map((l) => l.action)]);
}

function localDraft(ctx) {
  const key = decisionKey(ctx);
  if (!kept || kept.key !== key) kept = { key, d: {} };
  if (ctx.draft) ctx.draft.ah = kept.d;
  return kept.d;
}

function resetDraft(d) {
  for (const k of Object.keys(d)) delete d[k];
}

function redraw() {
  if (latest) latest.rerender();
}

function send(ctx, d, action) {
  d.sending = true;
  ctx.rerender();
  return ctx.send(action).catch(() => {
    // The shell shows the refusal in words; the choice is made again.
    resetDraft(d);
    redraw();
  });
}

function startExhibit(ctx, d, sel, art) {
  const letters = sel.map((id) => letterIndex(art.get(id).series));
  const lo = Math.min(...letters);
  const hi = Math.max(...letters);
  const actions = [{ exhibit: { from: letterOf(lo), to: letterOf(hi) } }];
  for (let l = lo; l <= hi; l++) {
    actions.push({ cards: sel.filter((id) => letterIndex(art.get(id).series) === l).sort((a, b) => a - b) });
  }
  // The host sends the steps one by one as the table asks for them (ctx.sendSequence).
  d.sending = true;
  ctx.sendSequence(actions);
}

// ---- card faces ----

// ---- the table ----

function colourName(ctx, c) {
  return ctx.t(`ah.colour.${c}`);
}

function placeName(ctx, place) {
  return ctx.t(place === 'castle' ? 'ah.castle' : 'ah.auction');
}

function statusLine(ctx) {
  const v = ctx.view;
  const s = v.step;
  const who = (k) => ctx.seatName(k);
  const step = ctx.t(`ah.step.${s.step}`, { who: who(s.winner ?? s.thief ?? 0), from: who(s.from ?? 0) });
  return h(
    'div',
    { class: 'ah-status' },
    h('span', { class: 'ah-turn' }, ctx.t('ah.turn', { n: v.turn + 1, max: v.max_turns })),
    h('span', { class: 'ah-stepname' }, step),
    h('span', { class: 'ah-castle-now' }, ctx.t('ah.castleNumbers', { a: v.castle[0], b: v.castle[1] })),
  );
}

function prompt(ctx, d, me, kinds) {
  const v = ctx.view;
  let text = null;
  const s = v.step.step;
  // A replay is watched, not played: no prompt to act or wait.
  if (ctx.replay && s !== 'over') return null;
  if (s === 'over') text = ctx.t('ah.prompt.over');
  else if (kinds.has('go')) text = ctx.t('ah.prompt.place');
  else if (kinds.has('play')) text = ctx.t(d.card === undefined ? 'ah.prompt.card' : 'ah.prompt.confirm');
  else if (kinds.has('take')) text = ctx.t('ah.prompt.pile');
  else if (kinds.has('steal')) text = ctx.t('ah.prompt.steal', { who: ctx.seatName(v.step.from) });
  else if (kinds.has('exhibit') || kinds.has('cards') || kinds.has('show_nothing') || !!ctx.sequence)
    text = ctx.t(s === 'final_exhibit' ? 'ah.prompt.final' : 'ah.prompt.exhibit');
  else if (me && me.resting) text = ctx.t('ah.prompt.rest');
  else if (me) text = ctx.t('ah.prompt.wait');
  if (!text) return null;
  return h('p', { class: `ah-prompt${ctx.legal.length ? ' is-yours' : ''}`, role: 'status' }, text);
}

function track(ctx) {
  const v = ctx.view;
  const positions = v.players.map((p) => p.position);
  const last = Math.max(v.goal, ...positions);
  const lead = Math.max(...positions);
  // The castles as the view gives them: [first space, last space, first place, second place].
  const segs = (v.castles || []).map((c) => [c.first_space, c.last_space, c.numbers[0], c.numbers[1]]);
  const tail = segs[segs.length - 1];
  tail[1] = Math.max(tail[1], last);
  const current = segs.findIndex((c) => lead >= c[0] && lead <= c[1]);
  return h(
    'section',
    { class: 'ah-track', 'aria-label': ctx.t('ah.goal') },
    segs.map(([a, b, first, second], i) =>
      h(
        'div',
        { class: `ah-seg${i === current ? ' is-current' : ''}` },
        h('div', { class: 'ah-seg-castle', title: ctx.t('ah.castleNumbers', { a: first, b: second }) }, h('span', { class: 'ah-ico i-castle' }), `${first}|${second}`),
        h(
          'div',
          { class: 'ah-spaces' },
          Array.from({ length: b - a + 1 }, (_, k) => a + k).map((n) =>
            h(
              'div',
              {
                class: `ah-space${n === 0 ? ' is-start' : ''}${n === v.goal ? ' is-goal' : ''}${n > v.goal ? ' is-beyond' : ''}`,
                title: n === v.goal ? ctx.t('ah.goal') : n === 0 ? ctx.t('ah.start') : ctx.t('ah.space', { n }),
              },
              h('span', { class: 'ah-space-n' }, n === v.goal ? `${n}★` : String(n)),
              h('span', { class: 'ah-pawns' }, v.players.filter((p) => p.position === n).map((p) => pawn(ctx, p))),
            ),
          ),
        ),
      ),
    ),
  );
}

function pileView(ctx, d, v, i, kinds, busy) {
  const pile = v.piles[i];
  const side = i === 0 ? 'left' : 'right';
  const action = { take: side };
  const canTake = !busy && kinds.has('take') && ctx.legal.some((l) => same(l.action, action));
  const label = ctx.t(`ah.pile.${side}`);
  const top = pile.top
    ? canTake
      ? artCard(ctx, pile.top, { 'data-choice': '', class: 'is-choice', 'aria-label': `${ctx.t('ah.take')}: ${label} — ${artLabel(ctx, pile.top)}`, onclick: () => send(ctx, d, action) }, 'button')
      : artCard(ctx, pile.top)
    : h('div', { class: 'ah-card ah-empty' }, ctx.t('ah.pile.empty'));
  return h(
    'div',
    { class: `ah-pile${pile.size > 1 ? ' is-stacked' : ''}` },
    h('div', { class: 'ah-pile-name' }, label),
    top,
    h('div', { class: 'ah-pile-size' }, ctx.t('ah.pile.size', { n: pile.size })),
  );
}

function presence(ctx, v, place) {
  const here = v.players.filter((p) => p.place === place);
  if (!here.length) return null;
  return h(
    'div',
    { class: 'ah-present' },
    here.map((p) => {
      const secret = p.seat === ctx.you && v.step.step === 'choose_place';
      return h(
        'div',
        { class: `ah-visitor col-${p.colour}`, ...(secret ? { 'data-secret': `place-${place}` } : {}) },
        pawn(ctx, p),
        h('span', { class: 'ah-visitor-name' }, ctx.seatName(p.seat)),
        p.played
          ? actionCard(ctx, p.played, { class: 'is-small', ...(isSecretPlay(ctx, v, p) ? { 'data-secret': `play-${p.played.id}` } : {}) })
          : p.has_chosen
            ? h('span', { class: 'ah-facedown', title: ctx.t('ah.chosen') })
            : null,
      );
    }),
  );
}

// Own card chosen and not yet revealed to the others.
function isSecretPlay(ctx, v, p) {
  if (p.seat !== ctx.you) return false;
  const s = v.step.step;
  return (s === 'auction_cards' && p.place === 'auction_house') || (s === 'castle_cards' && p.place === 'castle');
}

function goButton(ctx, d, place, kinds, busy) {
  const action = { go: place };
  if (busy || !kinds.has('go') || !ctx.legal.some((l) => same(l.action, action))) return null;
  return h(
    'button',
    { type: 'button', class: 'ah-go', 'data-choice': '', 'data-place': place, 'data-focus-key': `go ${place}`, onclick: () => send(ctx, d, action) },
    h('span', { class: `ah-ico i-${place === 'castle' ? 'castle' : 'auction'}` }),
    ctx.t(`ah.go.${place}`),
  );
}

function auctionHouse(ctx, d, kinds, busy) {
  const v = ctx.view;
  const a = v.auction;
  let sale = null;
  if (a) {
    sale = h(
      'div',
      { class: 'ah-sale' },
      h('span', null, ctx.t('ah.sale', { who: ctx.seatName(a.winner) })),
      actionCard(ctx, a.money, { class: 'is-small' }),
      a.art ? artCard(ctx, a.art, { class: 'is-small' }) : null,
      a.stolen_by !== null && a.stolen_by !== undefined ? h('span', { class: 'ah-stolen' }, ctx.t('ah.saleStolen', { who: ctx.seatName(a.stolen_by) })) : null,
    );
  }
  return h(
    'section',
    { class: 'ah-venue ah-auction', 'aria-label': ctx.t('ah.auction') },
    h('h3', null, h('span', { class: 'ah-ico i-auction' }), ctx.t('ah.auction')),
    h('div', { class: 'ah-piles' }, pileView(ctx, d, v, 0, kinds, busy), pileView(ctx, d, v, 1, kinds, busy)),
    sale,
    h(
      'div',
      { class: 'ah-safe' },
      h('h4', null, h('span', { class: 'ah-ico i-safe' }), ctx.t('ah.safe'), ' ', h('span', { class: 'muted', 'data-safe-size': String(v.safe_size) }, ctx.t('ah.safeSize', { n: v.safe_size }))),
      h('div', { class: 'ah-safe-cards' }, v.safe.length ? v.safe.map((c) => actionCard(ctx, c, { class: 'is-tiny' })) : h('span', { class: 'muted' }, '—')),
    ),
    presence(ctx, v, 'auction_house'),
    goButton(ctx, d, 'auction_house', kinds, busy),
  );
}

function castle(ctx, d, kinds, busy) {
  const v = ctx.view;
  const cells = [];
  for (let i = 0; i < v.cage_cells; i++) {
    const c = v.cage[i];
    cells.push(h('div', { class: 'ah-cell' }, c ? actionCard(ctx, c, { class: 'is-small' }) : h('span', { class: 'ah-cell-n' }, String(i + 1))));
  }
  const s = v.step;
  const stealing = !busy && kinds.has('steal');
  // Exhibits on show: everyone's once revealed; your own one while you put it together
  // is drawn with your hand.
  const building = s.step === 'exhibiting' || s.step === 'final_exhibit';
  const shown = v.players.filter((p) => p.exhibit && !(building && p.seat === ctx.you) && (p.exhibit.length || p.exhibit_failed));
  const exhibits = shown.map((p) =>
    h(
      'div',
      { class: `ah-exhibit col-${p.colour}${s.step === 'stealing' && s.from === p.seat ? ' is-robbed' : ''}` },
      h('div', { class: 'ah-exhibit-name' }, pawn(ctx, p), ctx.seatName(p.seat), p.exhibit_failed ? h('span', { class: 'ah-failed' }, ctx.t('ah.exhibitFailed')) : null),
      h(
        'div',
        { class: 'ah-row' },
        p.exhibit.map((a) => {
          const action = { steal: a.id };
          if (stealing && s.from === p.seat && ctx.legal.some((l) => same(l.action, action))) {
            return artCard(ctx, a, { 'data-choice': '', class: 'is-choice', 'aria-label': `${ctx.t('ah.steal')}: ${artLabel(ctx, a)}`, onclick: () => send(ctx, d, action) }, 'button');
          }
          return artCard(ctx, a, { class: 'is-small' });
        }),
      ),
    ),
  );
  return h(
    'section',
    { class: 'ah-venue ah-castle', 'aria-label': ctx.t('ah.castle') },
    h('h3', null, h('span', { class: 'ah-ico i-castle' }), ctx.t('ah.castle'), h('span', { class: 'ah-numbers' }, `+${v.castle[0]} | +${v.castle[1]}`)),
    exhibits.length ? h('div', { class: 'ah-exhibits' }, exhibits) : null,
    h('div', { class: 'ah-cage' }, h('h4', null, h('span', { class: 'ah-ico i-cage' }), ctx.t('ah.cage')), h('div', { class: 'ah-cells' }, cells)),
    presence(ctx, v, 'castle'),
    goButton(ctx, d, 'castle', kinds, busy),
  );
}

function secretStep(s) {
  return ['choose_place', 'auction_cards', 'castle_cards', 'exhibiting', 'final_exhibit'].includes(s);
}

function playerArea(ctx, p) {
  const v = ctx.view;
  const own = p.seat === ctx.you;
  const waiting = ctx.pending.includes(p.seat) && secretStep(v.step.step);
  const badges = [
    h('span', { class: 'ah-badge' }, ctx.t('ah.rank', { n: p.rank })),
    h('span', { class: 'ah-badge' }, ctx.t('ah.space', { n: p.position })),
    p.resting ? h('span', { class: 'ah-badge is-warn' }, ctx.t('ah.resting')) : null,
    p.resting_next ? h('span', { class: 'ah-badge is-warn' }, ctx.t('ah.restingNext')) : null,
    p.place && !(own && v.step.step === 'choose_place')
      ? h('span', { class: 'ah-badge is-place' }, h('span', { class: `ah-ico i-${p.place === 'castle' ? 'castle' : 'auction'}` }), placeName(ctx, p.place))
      : null,
    p.has_chosen ? h('span', { class: 'ah-badge is-chosen' }, h('span', { class: 'ah-ico i-back' }), ctx.t('ah.chosen')) : waiting ? h('span', { class: 'ah-badge is-waiting' }, ctx.t('ah.choosing')) : null,
    v.step.step === 'over' && p.final_strength ? h('span', { class: 'ah-badge' }, ctx.t('ah.finalStrength', { n: p.final_strength })) : null,
  ];
  return h(
    'section',
    { class: `ah-player col-${p.colour}${own ? ' is-you' : ''}${ctx.pending.includes(p.seat) ? ' is-pending' : ''}`, 'data-seat': p.seat },
    h(
      'header',
      null,
      pawn(ctx, p),
      h('strong', null, ctx.seatName(p.seat)),
      own ? h('span', { class: 'ah-you' }, `(${ctx.t('ah.you')})`) : null,
      h('span', { class: 'ah-colour' }, colourName(ctx, p.colour)),
    ),
    h('div', { class: 'ah-badges' }, badges),
    own
      ? null
      : h(
          'div',
          { class: 'ah-player-art' },
          p.art.map((a) => artCard(ctx, a, { class: 'is-small' })),
          p.hidden_art ? artBack(p.hidden_art, 'is-small') : null,
        ),
    own
      ? null
      : h(
          'div',
          { class: 'ah-player-cards', 'aria-label': ctx.t('ah.actionCards') },
          p.cards.length ? p.cards.map((c) => actionCard(ctx, c, { class: 'is-tiny' })) : h('span', { class: 'muted', 'data-card-count': String(p.card_count) }, ctx.t('ah.cardCount', { n: p.card_count })),
        ),
  );
}

// ---- your hand ----

function actionHand(ctx, d, me, kinds, busy) {
  const v = ctx.view;
  const choosing = !busy && kinds.has('play');
  // Each playable card's legal entry: its facts say whether it acts where this seat is.
  const playable = new Map(ctx.legal.filter((l) => kindOf(l.action) === 'play').map((l) => [l.action.play, l]));
  const chosen = choosing ? d.card : undefined;
  const cards = me.cards.map((c) => {
    const secret = isSecretPlay(ctx, v, me) && me.played && me.played.id === c.id;
    const entry = playable.get(c.id);
    const note = choosing && entry && entry.facts && entry.facts.of_use === false ? h('span', { class: 'ah-note' }, ctx.t('ah.noUse')) : null;
    if (choosing && chosen === undefined && playable.has(c.id)) {
      return actionCard(ctx, c, { 'data-choice': '', class: `is-choice${note ? ' is-useless' : ''}`, ...(note ? { 'aria-label': `${actionLabel(ctx, c)} (${ctx.t('ah.noUse')})` } : {}), onclick: () => { d.card = c.id; ctx.rerender(); } }, 'button', note);
    }
    if (choosing && chosen === c.id) {
      return actionCard(ctx, c, { 'data-undo': '', class: 'is-selected', 'data-secret': `play-${c.id}`, onclick: () => { delete d.card; ctx.rerender(); } }, 'button', note);
    }
    return actionCard(ctx, c, {
      class: `${secret ? 'is-selected' : ''}${choosing ? ' is-dim' : ''}`,
      ...(secret ? { 'data-secret': `play-${c.id}` } : {}),
    });
  });
  const controls = [];
  if (choosing && chosen !== undefined) {
    controls.push(h('button', { type: 'button', class: 'ah-primary', 'data-choice': '', onclick: () => send(ctx, d, { play: chosen }) }, ctx.t('ah.playFaceDown')));
    controls.push(h('button', { type: 'button', 'data-undo': '', onclick: () => { delete d.card; ctx.rerender(); } }, ctx.t('ah.undo')));
  }
  return h('div', { class: 'ah-hand-part' }, h('h4', null, ctx.t('ah.actionCards')), h('div', { class: 'ah-row ah-hand-cards' }, cards), controls.length ? h('div', { class: 'ah-controls', 'data-actions': '' }, controls) : null);
}

function artHand(ctx, d, me, kinds, busy) {
  const v = ctx.view;
  const art = new Map(me.art.map((a) => [a.id, a]));
  const sorted = [...me.art].sort((a, b) => a.series.localeCompare(b.series) || a.year - b.year);
  const secretBuild = v.step.step === 'exhibiting' || v.step.step === 'final_exhibit';
  const controls = [];
  let hint = null;
  let offer = () => null; // 'add' | 'remove' | null for a card
  const sel = d.sel || [];
  const runs = ctx.legal.filter((l) => kindOf(l.action) === 'exhibit').map((l) => [letterIndex(l.action.exhibit.from), letterIndex(l.action.exhibit.to)]);
  const sets = ctx.legal.filter((l) => kindOf(l.action) === 'cards').map((l) => l.action.cards);
  if (!busy && runs.length) {
    // Letters not chosen yet: any selection that still fits a run the hand can show.
    const span = (ids) => {
      const ls = ids.map((id) => letterIndex(art.get(id).series));
      return [Math.min(...ls), Math.max(...ls), new Set(ls)];
    };
    const fits = (ids) => {
      const [lo, hi] = span(ids);
      return runs.some(([f, t]) => f <= lo && hi <= t);
    };
    const complete = (ids) => {
      if (ids.length < 3) return false;
      const [lo, hi, ls] = span(ids);
      for (let l = lo; l <= hi; l++) if (!ls.has(l)) return false;
      return runs.some(([f, t]) => f === lo && t === hi);
    };
    offer = (id) => (sel.includes(id) ? 'remove' : fits([...sel, id]) ? 'add' : null);
    hint = ctx.t('ah.exhibitHint');
    if (complete(sel)) {
      controls.push(h('button', { type: 'button', class: 'ah-primary', 'data-choice': '', onclick: () => startExhibit(ctx, d, sel, art) }, ctx.t('ah.showExhibit', { n: sel.length })));
    }
  } else if (!busy && sets.length) {
    // Resumed half-way (after a reload): the cards of the letter the game asks for now.
    const within = (ids) => sets.some((s) => ids.every((x) => s.includes(x)));
    offer = (id) => (sel.includes(id) ? 'remove' : within([...sel, id]) ? 'add' : null);
    const exact = sets.find((s) => s.length === sel.length && sel.every((x) => s.includes(x)));
    if (exact) controls.push(h('button', { type: 'button', class: 'ah-primary', 'data-choice': '', onclick: () => send(ctx, d, { cards: exact }) }, ctx.t('ah.showCards', { n: sel.length })));
  }
  if (!busy && kinds.has('show_nothing')) {
    controls.push(h('button', { type: 'button', 'data-choice': '', onclick: () => send(ctx, d, 'show_nothing') }, ctx.t(v.step.step === 'final_exhibit' ? 'ah.showNothing' : 'ah.showNothingPenalty')));
  }
  if (sel.length && !busy && (runs.length || sets.length)) {
    controls.push(h('button', { type: 'button', 'data-undo': '', onclick: () => { d.sel = []; ctx.rerender(); } }, ctx.t('ah.clear')));
  }
  const toggle = (id, add) => {
    d.sel = add ? [...sel, id] : sel.filter((x) => x !== id);
    ctx.rerender();
  };
  const cards = sorted.map((a) => {
    const o = offer(a.id);
    const secret = { 'data-secret': `art-${a.id}` };
    if (o === 'add') return artCard(ctx, a, { ...secret, 'data-choice': '', class: 'is-choice', onclick: () => toggle(a.id, true) }, 'button');
    if (o === 'remove') return artCard(ctx, a, { ...secret, 'data-undo': '', class: 'is-selected', onclick: () => toggle(a.id, false) }, 'button');
    return artCard(ctx, a, { ...secret, class: runs.length || sets.length ? 'is-dim' : '' });
  });
  // The exhibit being put together (sent steps), secret until all are revealed.
  const building = secretBuild && (me.exhibit_letters || (me.exhibit && me.exhibit.length) || !!ctx.sequence);
  const progress = building
    ? h(
        'div',
        { class: 'ah-building', 'data-secret': 'exhibit' },
        me.exhibit_letters ? h('span', null, ctx.t('ah.exhibitLetters', { from: me.exhibit_letters[0], to: me.exhibit_letters[1] })) : null,
        h('div', { class: 'ah-row' }, (me.exhibit || []).map((a) => artCard(ctx, a, { class: 'is-small', 'data-secret': `exhibit-${a.id}` }))),
        ctx.sequence ? h('span', { class: 'muted' }, ctx.t('ah.sending')) : null,
      )
    : null;
  return h(
    'div',
    { class: 'ah-hand-part' },
    h('h4', null, ctx.t('ah.yourArt')),
    hint ? h('p', { class: 'ah-hint' }, hint) : null,
    h('div', { class: 'ah-row ah-hand-art' }, cards.length ? cards : h('span', { class: 'muted' }, '—')),
    progress,
    controls.length ? h('div', { class: 'ah-controls', 'data-actions': '' }, controls) : null,
  );
}

function hand(ctx, d, me, kinds, busy) {
  return h(
    'section',
    { class: `ah-hand col-${me.colour}`, 'aria-label': ctx.t('ah.yourHand') },
    h('h3', null, pawn(ctx, me), ctx.t('ah.yourHand'), h('span', { class: 'ah-colour' }, colourName(ctx, me.colour))),
    me.place && ctx.view.step.step === 'choose_place'
      ? h('p', { class: 'ah-myplace', 'data-secret': `place-${me.place}` }, ctx.t('ah.yourPlace', { place: placeName(ctx, me.place) }))
      : null,
    artHand(ctx, d, me, kinds, busy),
    actionHand(ctx, d, me, kinds, busy),
  );
}

function result(ctx) {
  const v = ctx.view;
  const o = ctx.outcome;
  const order = v.players
    .map((p) => ({ p, rank: o && o.ranks ? o.ranks[p.seat] : p.rank }))
    .sort((a, b) => a.rank - b.rank || b.p.final_strength - a.p.final_strength);
  return h(
    'section',
    { class: 'ah-result' },
    h('h3', null, ctx.t('ah.result')),
    h(
      'ol',
      null,
      order.map(({ p, rank }) =>
        h(
          'li',
          { class: `col-${p.colour}` },
          h('span', { class: 'ah-result-rank' }, ctx.t('ah.place', { n: rank })),
          pawn(ctx, p),
          h('strong', null, ctx.seatName(p.seat)),
          h('span', null, ctx.t('ah.space', { n: p.position })),
          p.final_strength ? h('span', { class: 'muted' }, ctx.t('ah.finalStrength', { n: p.final_strength })) : null,
        ),
      ),
    ),
  );
}

// Redrawing the whole table on every message is most of a slow phone's (or a loaded
// machine's) time per move, and a typical message changes one player's "has chosen". So the
// table is kept in parts, each rebuilt only when what it is drawn from changed; the result
// is the same as a full redraw.
function part(cache, name, key, build) {
  if (cache.keys.get(name) !== key || !cache.nodes.has(name)) {
    cache.keys.set(name, key);
    cache.nodes.set(name, build() || document.createComment(name));
  }
  return cache.nodes.get(name);
}

function fill(box, nodes) {
  nodes.forEach((node, i) => {
    const at = box.childNodes[i];
    if (at === node) return;
    if (at) box.replaceChild(node, at);
    else box.appendChild(node);
  });
  while (box.childNodes.length > nodes.length) box.lastChild.remove();
}

export default {
  messages,
  rules,
  render(root, ctx) {
    latest = ctx;
    const v = ctx.view;
    if (!v || !v.players) {
      root.__ah = null;
      clear(root, h('p', { class: 'muted' }, '…'));
      return;
    }
    if (ctx.replay) ctx = { ...ctx, legal: [] };
    const d = localDraft(ctx);
    const kinds = new Set(ctx.legal.map((l) => kindOf(l.action)));
    const queued = !!ctx.sequence;
    const busy = !!d.sending || queued;
    const me = ctx.you === null || ctx.you === undefined ? null : v.players.find((p) => p.seat === ctx.you) || null;
    const order = me ? [...v.players.slice(me.seat + 1), ...v.players.slice(0, me.seat + 1)] : v.players;

    let cache = root.__ah;
    if (!cache || cache.box.parentNode !== root) {
      cache = { box: h('div', { class: 'ah' }), players: h('div', { class: 'ah-players' }), centre: h('div', { class: 'ah-centre' }), keys: new Map(), nodes: new Map() };
      root.__ah = cache;
      clear(root, cache.box);
    }
    const common = [ctx.lang, ctx.you, ctx.seats.map((s) => [s.name, s.bot]), v.step, v.turn];
    const key = (...x) => JSON.stringify([common, ...x]);
    const decision = kept ? kept.key : '';
    const places = v.players.map((p) => [p.place, p.played, p.has_chosen, p.exhibit, p.exhibit_failed]);
    fill(cache.centre, [
      part(cache, 'auction', key(v.piles, v.safe, v.safe_size, v.auction, places, decision, busy), () => auctionHouse(ctx, d, kinds, busy)),
      part(cache, 'castle', key(v.castle, v.cage, places, decision, busy), () => castle(ctx, d, kinds, busy)),
    ]);
    fill(
      cache.players,
      order.map((p) => part(cache, `p${p.seat}`, key(p, ctx.pending.includes(p.seat)), () => playerArea(ctx, p))),
    );
    fill(cache.box, [
      part(cache, 'status', key(v.castle), () => statusLine(ctx)),
      part(cache, 'prompt', key([...kinds], d.card, me && me.resting, queued, ctx.legal.length), () => prompt(ctx, d, me, kinds)),
      part(cache, 'result', key(ctx.outcome, v.step.step === 'over' && v.players), () => (v.step.step === 'over' ? result(ctx) : null)),
      part(cache, 'track', key(v.players.map((p) => [p.position, p.colour]), v.goal), () => track(ctx)),
      cache.centre,
      cache.players,
      part(cache, 'hand', key(me, decision, JSON.stringify(d), busy, ctx.sequence), () => (me ? hand(ctx, d, me, kinds, busy) : null)),
    ]);
  },
};
