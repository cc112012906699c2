// Ghost for Sale (ゴースト売ります): the table as players lay it out — the six manors (or
// castles) in alphabetical order with their declaration tokens and bids, Mrs. Truelight and
// the "?" pile beside them, and every player's character card with its "?" card, tokens,
// bidding cards and bought properties.
//
// Turns that the game splits into several actions are built locally first (ctx.draft) and
// only then sent, one action after another, by the host (ctx.sendSequence): each action is
// sent once the state it is legal in has arrived, so it always carries the current version.
// A keyboard player's focus is kept across redraws by the host too (buttons go by their
// accessible name).
import { h } from '../../dom.js';
import { messages } from './messages.js';
import { rules } from './rules.js';
import { svg, ICON } from './art.js';

const GAME = 'ghost-for-sale';

// ---------------------------------------------------------------------------------------
// Small helpers.

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function targetKey(target) {
  if (target === 'truelight' || target === 'pile') return target;
  if (target && typeof target === 'object' && 'property' in target) return 'p' + target.property;
  return '?';
}

// A bidding card's back mark: printed on the card, given by the view (card_marks, values
// 1 to 10).
function markTable(view) {
  const marks = view.card_marks || [];
  return (value) => marks[value - 1] || 'low';
}

function count(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

function removeOne(list, x) {
  const i = list.indexOf(x);
  if (i >= 0) list.splice(i, 1);
  return list;
}

// Simultaneous secret choices (setting cards aside, truth or lie) are kept across versions:
// other seats' choices bump the version while this player is still picking.
const picks = new Map();

function pickState(ctx, kind) {
  const v = ctx.view;
  const key = `${location.pathname}#${ctx.you}#${v.round}#${kind}`;
  let p = picks.get(key);
  if (!p) {
    p = { values: [], card: null };
    picks.set(key, p);
  }
  return p;
}

// The cards picked to set aside, still in hand and no more than are still needed.
function asidePicks(ctx) {
  const p = pickState(ctx, 'aside');
  const me = ctx.view.me;
  const need = me ? 4 - me.set_aside.length : 0;
  const avail = me ? me.hand.slice() : [];
  p.values = p.values.filter((x) => (avail.includes(x) ? (removeOne(avail, x), true) : false)).slice(0, Math.max(need, 0));
  return { p, need };
}

// ---------------------------------------------------------------------------------------
// The model of one render: what the view says plus what this seat may do now.

function model(ctx) {
  const v = ctx.view;
  const t = ctx.t;
  const me = ctx.you === null || ctx.you === undefined ? null : ctx.you;
  const legal = ctx.replay ? [] : ctx.legal || [];
  const legalActions = legal.map((l) => l.action);
  const has = (a) => legalActions.some((x) => same(x, a));
  const kindOf = (a) => (typeof a === 'string' ? a : Object.keys(a)[0]);
  const legalKinds = new Set(legalActions.map(kindOf));
  const round = v.round;
  const props = v.properties.filter((p) => p.round === round);
  const older = v.properties.filter((p) => p.round < round);
  const mark = markTable(v);
  const info = v.auctions.find((a) => a.round === round && a.kind === 'information');
  const propAuction = v.auctions.find((a) => a.round === round && a.kind === 'property');
  const step = v.step.step;
  const name = (k) => (k === me ? `${ctx.seatName(k)} (${t('gfs.you')})` : ctx.seatName(k));
  const propName = (p) =>
    t('gfs.propName', { name: placeName(t, p), kind: t(p.kind === 'castle' ? 'gfs.castle' : 'gfs.manor') });
  const busy = !!ctx.sequence;
  return { ctx, v, t, me, legal, has, legalKinds, round, props, older, mark, info, propAuction, step, name, propName, busy };
}

// ---------------------------------------------------------------------------------------
// Drawing.

function seatClass(k) {
  return `gfs-seat-${k}`;
}

function tokenEl(face, seat, opts = {}) {
  return h(
    opts.button ? 'button' : 'span',
    {
      class: `gfs-token ${face} ${seat === null ? 'neutral' : seatClass(seat)}${opts.cls ? ' ' + opts.cls : ''}`,
      title: opts.title,
      type: opts.button ? 'button' : null,
      'data-choice': opts.button ? '' : null,
      onclick: opts.onclick,
      'aria-label': opts.label,
    },
    svg(ICON[face === 'ghost' ? 'ghost' : 'painting']),
    opts.badge ? h('span', { class: 'gfs-token-badge' }, opts.badge) : null,
  );
}

// A bidding card lying on the table: its owner's colour, its back mark, and its value when
// this viewer may see it.
function bidCardEl(m, bid, revealed) {
  const own = bid.seat === m.me;
  const secret = own && !revealed && bid.value !== null && bid.value !== undefined;
  return h(
    'span',
    {
      class: `gfs-bid ${seatClass(bid.seat)} ${bid.mark}${bid.value !== null && bid.value !== undefined ? ' known' : ''}`,
      title: `${m.name(bid.seat)} · ${m.t('gfs.back', { mark: m.t(bid.mark === 'low' ? 'gfs.lowMark' : 'gfs.highMark') })}`,
      'data-secret': secret ? `gfs-bid-${m.me}-${bid.value}` : null,
    },
    bid.value !== null && bid.value !== undefined
      ? h('span', { class: 'gfs-bid-value' }, String(bid.value))
      : svg(ICON[bid.mark], 'gfs-mark'),
  );
}

function bidsOn(m, auction, key) {
  if (!auction) return [];
  return auction.bids.filter((b) => targetKey(b.target) === key);
}

function bidRow(m, auction, key) {
  const bids = bidsOn(m, auction, key);
  if (bids.length === 0) return null;
  const revealed = auction.revealed;
  const row = h('div', { class: 'gfs-bids' }, bids.map((b) => bidCardEl(m, b, revealed)));
  if (revealed) {
    // The standings after the reveal, as the rules rank them (the view's ranking: total,
    // then highest card, then who played that card first).
    const spot = (auction.ranking || []).find((r) => targetKey(r.target) === key);
    const totals = spot ? spot.bidders : [];
    row.appendChild(
      h(
        'div',
        { class: 'gfs-totals' },
        totals.map((e) => h('span', { class: `gfs-total ${seatClass(e.seat)}` }, `${m.ctx.seatName(e.seat)} ${e.total}`)),
      ),
    );
  }
  return row;
}

function pointsTable(m, p) {
  const cells = [];
  for (let g = 0; g <= 5; g++) {
    const pts = g < 5 ? p.points[g] : 0;
    const hit = p.ghosts !== null && p.ghosts !== undefined && (g === p.ghosts || (g === 5 && p.ghosts >= 5));
    cells.push(
      h(
        'span',
        { class: `gfs-pt${hit ? ' hit' : ''}` },
        h('span', { class: 'g' }, g === 5 ? '5+' : String(g)),
        h('span', { class: 'n' }, String(pts)),
      ),
    );
  }
  return h(
    'div',
    { class: 'gfs-points', title: m.t('gfs.ptsTable'), 'aria-label': m.t('gfs.ptsTable') },
    h('span', { class: 'gfs-pt head' }, svg(ICON.ghost), h('span', { class: 'n' }, '★')),
    cells,
  );
}

function specialEl(m, card, small) {
  return h(
    'div',
    { class: `gfs-special sp-${card}${small ? ' small' : ''}`, title: m.t('gfs.spd.' + card) },
    h('span', { class: 'gfs-special-name' }, m.t('gfs.sp.' + card)),
    small ? null : h('span', { class: 'gfs-special-desc' }, m.t('gfs.spd.' + card)),
  );
}

// ---------------------------------------------------------------------------------------
// The turn being built: what may be clicked next.

// The steps of an auction turn: server state (cards already placed, a target already sent)
// plus the local draft [{target, value}] and a target picked but no card yet.
function auctionPlan(m) {
  const { ctx, v } = m;
  const turn = v.turn;
  const mine = turn && turn.seat === m.me && !m.busy && (m.legalKinds.has('bid') || m.legalKinds.has('play') || m.legalKinds.has('done') || m.legalKinds.has('pass'));
  if (!mine) return null;
  const d = ctx.draft;
  d.steps = d.steps || [];
  const hand = (v.me ? v.me.hand : []).slice();
  for (const s of d.steps) removeOne(hand, s.value);
  const serverTarget = turn.placing_on; // a target already sent (a reload mid-turn)
  const pendingTarget = d.steps.length === 0 && serverTarget ? serverTarget : d.target || null;
  const placed = turn.cards_placed + d.steps.length;
  const ended = d.steps.length > 0 && (placed >= 2 || hand.length === 0 || turn.last_card);
  const targets = [];
  if (!ended && !pendingTarget) {
    if (d.steps.length === 0) {
      for (const l of m.legal) if (l.action && l.action.bid) targets.push(l.action.bid.target);
    } else {
      // A second card may go on any target of this auction.
      if (m.step === 'information_auction') {
        targets.push('truelight');
        if (v.players > 3) targets.push('pile');
      } else {
        for (const p of m.props) targets.push({ property: p.index });
      }
    }
  }
  const canPass = d.steps.length === 0 && !pendingTarget && m.has('pass');
  const canDone = !ended && !pendingTarget && (d.steps.length > 0 || m.has('done'));
  return { hand, pendingTarget, placed, ended, targets, canPass, canDone, steps: d.steps };
}

function planActions(m, plan, withDone) {
  const out = [];
  const serverTarget = m.v.turn.placing_on;
  plan.steps.forEach((s, i) => {
    if (!(i === 0 && serverTarget)) out.push({ bid: { target: s.target } });
    out.push({ play: { value: s.value } });
  });
  if (withDone) out.push('done');
  return out;
}

function pickTarget(m, target) {
  m.ctx.draft.target = target;
  m.ctx.rerender();
}

function pickCard(m, plan, value) {
  const d = m.ctx.draft;
  d.steps = d.steps || [];
  d.steps.push({ target: plan.pendingTarget, value });
  d.target = null;
  m.ctx.rerender();
}

function undoAuction(m) {
  const d = m.ctx.draft;
  // Undo walks back one click at a time: a card back to the hand (its target still chosen),
  // then the target.
  if (d.target) d.target = null;
  else if (d.steps && d.steps.length) {
    const last = d.steps.pop();
    if (!(d.steps.length === 0 && m.v.turn.placing_on)) d.target = last.target;
  }
  m.ctx.rerender();
}

function targetLabel(m, target) {
  if (target === 'truelight') return m.t('gfs.truelight');
  if (target === 'pile') return m.t('gfs.pile');
  const p = m.props.find((x) => x.index === target.property);
  return p ? m.propName(p) : '?';
}

// ---------------------------------------------------------------------------------------
// Sections.

function headerEl(m) {
  const { v, t } = m;
  const steps = ['truth_or_lie', 'declarations', 'information_auction', 'property_auction'];
  const current = m.step === 'special_card' ? 'property_auction' : m.step;
  return h(
    'div',
    { class: 'gfs-head' },
    h('div', { class: 'gfs-round' }, svg(ICON[m.round === 1 ? 'manor' : 'castle'], 'big'), t(m.round === 1 ? 'gfs.round1' : 'gfs.round2')),
    h(
      'ol',
      { class: 'gfs-steps' },
      m.step === 'set_aside' ? h('li', { class: 'current' }, t('gfs.step.set_aside')) : null,
      steps.map((s) =>
        h(
          'li',
          { class: s === current ? 'current' : steps.indexOf(s) < steps.indexOf(current) || m.step === 'game_over' ? 'past' : '' },
          t(s === 'property_auction' ? `gfs.step.property_auction.${m.round}` : `gfs.step.${s}`),
        ),
      ),
      m.step === 'game_over' ? h('li', { class: 'current' }, t('gfs.step.game_over')) : null,
    ),
    v.spare_special_cards.length
      ? h('div', { class: 'gfs-spare' }, h('span', { class: 'lbl' }, t('gfs.spare')), v.spare_special_cards.map((c) => specialEl(m, c, true)))
      : null,
  );
}

// The prompt and the controls of the turn being built.
function promptEl(m) {
  const { v, t, ctx } = m;
  const bar = h('div', { class: 'gfs-prompt', role: 'status', 'data-actions': '' });
  const text = h('p', { class: 'gfs-hint' });
  const buttons = h('div', { class: 'gfs-controls' });
  bar.append(text, buttons);
  const waitNames = (v.to_move || []).map((k) => m.name(k)).join(', ');
  if (m.busy) {
    text.textContent = t('gfs.sending');
    return bar;
  }
  if (m.step === 'game_over') {
    text.textContent = t('gfs.hint.over');
    return bar;
  }
  const mineNow = m.legal.length > 0;
  if (!mineNow) {
    const secret = m.step === 'set_aside' || m.step === 'truth_or_lie';
    text.textContent = waitNames ? t(secret ? 'gfs.hint.waitSecret' : 'gfs.hint.wait', { names: waitNames }) : '';
    return bar;
  }
  if (m.step === 'set_aside') {
    const { p, need } = asidePicks(ctx);
    text.textContent = p.values.length >= need ? t('gfs.hint.setAsideReady') : t('gfs.hint.setAside', { n: need - p.values.length });
    if (p.values.length) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { p.values.pop(); ctx.rerender(); } }, t('gfs.undo')),
        h(
          'button',
          {
            type: 'button',
            class: 'gfs-btn primary',
            'data-choice': '',
            onclick: () => {
              const vals = p.values.splice(0);
              ctx.sendSequence(vals.map((value) => ({ set_aside: { value } })));
            },
          },
          t('gfs.setAsideConfirm'),
        ),
      );
    }
  } else if (m.step === 'truth_or_lie') {
    const p = pickState(ctx, 'choose');
    text.textContent = p.card ? t('gfs.hint.chooseReady') : t('gfs.hint.choose');
    if (p.card) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { p.card = null; ctx.rerender(); } }, t('gfs.undo')),
        h(
          'button',
          {
            type: 'button',
            class: 'gfs-btn primary',
            'data-choice': '',
            onclick: () => {
              const card = p.card;
              p.card = null;
              ctx.sendSequence([{ choose: { card } }]);
            },
          },
          t('gfs.playQ'),
        ),
      );
    }
  } else if (m.step === 'declarations') {
    const d = ctx.draft;
    text.textContent = d.token ? t('gfs.hint.declareWhere', { kind: t(m.round === 1 ? 'gfs.manor' : 'gfs.castle') }) : t('gfs.hint.declare');
    if (d.token) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => { d.token = null; ctx.rerender(); } }, t('gfs.undo')));
    }
  } else if (m.step === 'information_auction' || m.step === 'property_auction') {
    const plan = auctionPlan(m);
    if (!plan) return bar;
    if (plan.pendingTarget) text.textContent = t('gfs.hint.card', { target: targetLabel(m, plan.pendingTarget) });
    else if (plan.ended) text.textContent = t('gfs.hint.ready');
    else if (plan.steps.length > 0 || v.turn.cards_placed > 0) text.textContent = t('gfs.hint.second');
    else if (v.turn.last_card) text.textContent = t('gfs.hint.lastCard');
    else text.textContent = plan.canPass ? t('gfs.hint.bid') : t('gfs.hint.bidNoPass');
    if (ctx.draft.target || plan.steps.length) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-undo': '', onclick: () => undoAuction(m) }, t('gfs.undo')));
    }
    if (plan.ended) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn primary', 'data-choice': '', onclick: () => ctx.sendSequence(planActions(m, plan, false)) }, t('gfs.placeCards')),
      );
    } else if (plan.canDone) {
      buttons.append(
        h('button', { type: 'button', class: 'gfs-btn primary gfs-end', 'data-choice': '', onclick: () => ctx.sendSequence(planActions(m, plan, true)) }, t('gfs.endTurn')),
      );
    }
    if (plan.canPass) {
      buttons.append(h('button', { type: 'button', class: 'gfs-btn pass', 'data-choice': '', onclick: () => ctx.sendSequence(['pass']) }, t('gfs.pass')));
    }
  } else if (m.step === 'special_card') {
    const sc = v.step;
    const p = m.props.find((x) => x.index === sc.property && x.round === sc.round) || v.properties.find((x) => x.index === sc.property && x.round === sc.round);
    const prop = p ? m.propName(p) : '';
    if (sc.card === 'magic_mirror') {
      text.textContent = t('gfs.hint.mirror', { prop });
      for (const l of m.legal) {
        if (l.action && l.action.remove_ghost) {
          const owner = l.action.remove_ghost.owner;
          buttons.append(
            h(
              'button',
              { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => ctx.sendSequence([l.action]) },
              tokenEl('ghost', owner, {}),
              t('gfs.removeGhostOf', { name: m.name(owner) }),
            ),
          );
        }
      }
    } else if (sc.card === 'secret_crypt') {
      text.textContent = t('gfs.hint.crypt', { prop });
      if (m.has('add_ghost')) buttons.append(h('button', { type: 'button', class: 'gfs-btn primary', 'data-choice': '', onclick: () => ctx.sendSequence(['add_ghost']) }, svg(ICON.ghost), t('gfs.addGhost')));
    } else if (sc.card === 'crystal_ball') {
      text.textContent = t('gfs.hint.crystal', { prop });
      for (const l of m.legal) {
        if (l.action && l.action.guess) {
          const n = l.action.guess.ghosts;
          buttons.append(h('button', { type: 'button', class: 'gfs-btn gfs-guess', 'data-choice': '', onclick: () => ctx.sendSequence([l.action]) }, svg(ICON.ghost), t('gfs.guess', { n })));
        }
      }
    }
    if (m.has('decline')) buttons.append(h('button', { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => ctx.sendSequence(['decline']) }, t('gfs.decline')));
  }
  return bar;
}

function truelightEl(m, plan) {
  const { t, v } = m;
  const isTarget = plan && plan.targets.some((x) => x === 'truelight');
  const chosen = plan && plan.pendingTarget === 'truelight';
  const looks = v.looks.filter((l) => l.round === m.round);
  const body = [
    h('div', { class: 'gfs-target-art' }, svg(ICON.lady, 'lady')),
    h('div', { class: 'gfs-target-name' }, t('gfs.truelight')),
    h('div', { class: 'gfs-target-hint' }, t('gfs.truelightHint')),
    bidRow(m, m.info, 'truelight'),
    draftBids(m, plan, 'truelight'),
    looks.length
      ? h(
          'ol',
          { class: 'gfs-looks' },
          looks.map((l) =>
            h(
              'li',
              { 'data-secret': l.seen && l.looker === m.me && !roundOpen(m, l.round) ? `gfs-look-${m.me}-${l.round}` : null },
              h('span', { class: 'rank' }, t('gfs.rank', { n: l.rank })),
              h('span', { class: `gfs-chip ${seatClass(l.looker)}` }, m.ctx.seatName(l.looker)),
              svg(ICON.magnifier, `gfs-mag ${seatClass(l.looked_at)}`),
              h('span', { class: `gfs-chip ${seatClass(l.looked_at)}` }, m.ctx.seatName(l.looked_at)),
              l.seen ? h('span', { class: `gfs-qface ${l.seen}` }, t(l.seen === 'truth' ? 'gfs.truth' : 'gfs.lie')) : null,
            ),
          ),
        )
      : null,
  ];
  return targetBox(m, 'truelight', body, isTarget, chosen);
}

function roundOpen(m, r) {
  return r < m.round || m.step === 'game_over';
}

function pileEl(m, plan) {
  const { t, v } = m;
  if (v.players <= 3) {
    return h('div', { class: 'gfs-target disabled' }, h('div', { class: 'gfs-target-art' }, svg(ICON.qcard, 'qpile')), h('div', { class: 'gfs-target-hint' }, t('gfs.noPile')));
  }
  const isTarget = plan && plan.targets.some((x) => x === 'pile');
  const chosen = plan && plan.pendingTarget === 'pile';
  const seen = v.pile.find((p) => p.round === m.round);
  const body = [
    h('div', { class: 'gfs-target-art' }, svg(ICON.qcard, 'qpile'), svg(ICON.qcard, 'qpile'), svg(ICON.qcard, 'qpile')),
    h('div', { class: 'gfs-target-name' }, t('gfs.pile')),
    h('div', { class: 'gfs-target-hint' }, t('gfs.pileHint')),
    bidRow(m, m.info, 'pile'),
    draftBids(m, plan, 'pile'),
    seen
      ? h(
          'div',
          { class: 'gfs-pileseen', 'data-secret': seen.seen && seen.seer === m.me && !roundOpen(m, seen.round) ? `gfs-pile-${m.me}-${seen.round}` : null },
          h('span', { class: `gfs-chip ${seatClass(seen.seer)}` }, m.ctx.seatName(seen.seer)),
          ' ',
          seen.seen ? t('gfs.pileCounts', seen.seen) : t('gfs.pileSeen'),
        )
      : null,
  ];
  return targetBox(m, 'pile', body, isTarget, chosen);
}

// The cards of the turn being built, shown where they will lie (dashed: not sent yet).
function draftBids(m, plan, key) {
  if (!plan) return null;
  const cards = plan.steps.filter((s) => targetKey(s.target) === key);
  if (cards.length === 0) return null;
  return h(
    'div',
    { class: 'gfs-bids draft' },
    cards.map((s) => h('span', { class: `gfs-bid ${seatClass(m.me)} known draft`, 'data-secret': `gfs-draft-${m.me}-${s.value}` }, h('span', { class: 'gfs-bid-value' }, String(s.value)))),
  );
}

function targetBox(m, target, body, isTarget, chosen) {
  const cls = `gfs-target${chosen ? ' chosen' : ''}${isTarget ? ' choosable' : ''}`;
  if (isTarget) {
    return h('button', { type: 'button', class: cls, 'data-choice': '', onclick: () => pickTarget(m, target), 'aria-label': targetLabel(m, target) }, body);
  }
  return h('div', { class: cls }, body);
}

function propertyEl(m, p, plan) {
  const { t, v, ctx } = m;
  const current = p.round === m.round && m.step !== 'game_over';
  const target = { property: p.index };
  const isTarget = current && plan && plan.targets.some((x) => same(x, target));
  const chosen = current && plan && plan.pendingTarget && same(plan.pendingTarget, target);
  const d = ctx.draft;
  const declaring = current && m.step === 'declarations' && d.token && !m.busy;
  const declAction = declaring ? { declare: { property: p.index, token: d.token } } : null;
  const canDeclare = declaring && m.has(declAction);
  const decidingHere = m.step === 'special_card' && v.step.round === p.round && v.step.property === p.index;
  const mirrorHere = decidingHere && v.step.card === 'magic_mirror' && m.legal.length > 0 && !m.busy;

  const tokens = [];
  p.declarations.forEach((st, seat) => {
    for (let i = 0; i < st.ghost; i++) {
      const removable = mirrorHere && i === 0 && m.has({ remove_ghost: { owner: seat } });
      tokens.push(
        tokenEl('ghost', seat, {
          button: removable,
          title: `${m.ctx.seatName(seat)}: ${t('gfs.ghost')}`,
          label: removable ? t('gfs.removeGhostOf', { name: m.ctx.seatName(seat) }) : null,
          cls: removable ? 'removable' : '',
          onclick: removable ? () => ctx.sendSequence([{ remove_ghost: { owner: seat } }]) : null,
        }),
      );
    }
    for (let i = 0; i < st.painting; i++) tokens.push(tokenEl('painting', seat, { title: `${m.ctx.seatName(seat)}: ${t('gfs.painting')}` }));
  });
  if (p.crypt_ghost_added) tokens.push(tokenEl('ghost', null, { title: t('gfs.cryptAdded') }));

  const status = [];
  if (p.mirror_removed !== null && p.mirror_removed !== undefined) status.push(h('div', { class: 'gfs-note' }, t('gfs.mirrorRemoved', { name: m.ctx.seatName(p.mirror_removed) })));
  if (p.crystal_guess !== null && p.crystal_guess !== undefined) status.push(h('div', { class: 'gfs-note' }, t('gfs.crystalGuess', { n: p.crystal_guess })));
  if (p.owner !== null && p.owner !== undefined) status.push(h('div', { class: `gfs-owner ${seatClass(p.owner)}` }, t('gfs.owner', { name: m.name(p.owner) })));
  if (p.boxed) status.push(h('div', { class: 'gfs-boxed' }, t('gfs.boxed')));
  if (p.ghosts !== null && p.ghosts !== undefined) {
    status.push(
      h('div', { class: 'gfs-result' }, h('span', null, svg(ICON.ghost), ' ', t('gfs.ghostsN', { n: p.ghosts })), h('b', null, t('gfs.score', { n: p.score ?? 0 }))),
    );
  }

  const body = [
    h('div', { class: 'gfs-prop-head' }, svg(ICON[p.kind === 'castle' ? 'castle' : 'manor'], 'house'), h('span', { class: 'gfs-prop-name' }, m.propName(p))),
    p.special ? specialEl(m, p.special, false) : null,
    pointsTable(m, p),
    h('div', { class: 'gfs-decl' }, tokens),
    current ? bidRow(m, m.propAuction, 'p' + p.index) : null,
    current ? draftBids(m, plan, 'p' + p.index) : null,
    status,
  ];
  const owned = p.owner !== null && p.owner !== undefined ? ` owned ${seatClass(p.owner)}` : '';
  const cls = `gfs-prop ${p.kind}${owned}${p.boxed ? ' boxed' : ''}${chosen ? ' chosen' : ''}${isTarget || canDeclare ? ' choosable' : ''}${decidingHere ? ' deciding' : ''}`;
  if (isTarget) {
    return h('button', { type: 'button', class: cls, 'data-choice': '', onclick: () => pickTarget(m, target), 'aria-label': targetLabel(m, target) }, body);
  }
  if (canDeclare) {
    return h(
      'button',
      {
        type: 'button',
        class: cls,
        'data-choice': '',
        'aria-label': m.propName(p),
        onclick: () => {
          d.token = null;
          ctx.sendSequence([declAction]);
        },
      },
      body,
    );
  }
  return h('div', { class: cls }, body);
}

// A property's name in the page's language (a name the messages do not know, from an
// edited data file, as it is written).
function placeName(t, p) {
  const key = 'gfs.n.' + p.name;
  const n = t(key);
  return n && n !== key ? n : p.name;
}

function miniProp(m, p) {
  return h(
    'div',
    { class: `gfs-mini ${p.kind}`, title: m.propName(p) },
    svg(ICON[p.kind === 'castle' ? 'castle' : 'manor'], 'house'),
    h('span', { class: 'nm' }, placeName(m.t, p)),
    p.ghosts !== null && p.ghosts !== undefined ? h('span', { class: 'gh' }, svg(ICON.ghost), String(p.ghosts)) : null,
    p.score !== null && p.score !== undefined ? h('b', null, t2(m, 'gfs.score', { n: p.score })) : null,
    p.special === 'crystal_ball' || p.special === 'family_portrait' ? null : null,
  );
}

function t2(m, k, p) {
  return m.t(k, p);
}

// One player's area: character card, "?" card, tokens, bidding cards, bought properties.
function seatEl(m, seat, mine) {
  const { v, t, ctx } = m;
  const s = v.seats[seat];
  const turn = v.turn && v.turn.seat === seat;
  const pending = (v.to_move || []).includes(seat);
  const first = v.first_player === seat;
  const owned = v.properties.filter((p) => p.owner === seat);
  const looks = v.looks.filter((l) => l.round === m.round && l.looker === seat);
  const revealedNow = s.revealed_cards.length >= m.round;
  const secretStep = m.step === 'set_aside' || m.step === 'truth_or_lie';

  // The "?" card in front of the player.
  let qcard;
  const myQ = mine && v.me && v.me.question_card;
  if (revealedNow) {
    const c = s.revealed_cards[m.round - 1];
    qcard = h('div', { class: `gfs-q face ${c}` }, h('span', { class: 'q-lbl' }, t(c === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')));
  } else if (myQ) {
    qcard = h('div', { class: `gfs-q face ${myQ} mine`, 'data-secret': `gfs-q-${seat}-${m.round}` }, h('span', { class: 'q-lbl' }, t(myQ === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')));
  } else if (s.has_chosen) {
    qcard = h('div', { class: 'gfs-q down', title: t('gfs.chosen') }, svg(ICON.qcard));
  } else {
    qcard = h('div', { class: 'gfs-q empty', title: t('gfs.choosing') }, '?');
  }
  const prevCards = s.revealed_cards
    .slice(0, Math.min(s.revealed_cards.length, m.round - 1))
    .map((c, i) => h('span', { class: `gfs-qsmall ${c}`, title: `R${i + 1}` }, t(c === 'truth' ? 'gfs.truth' : 'gfs.lie')));

  const tokensLeft = h(
    'div',
    { class: 'gfs-supply', title: t('gfs.tokens') },
    s.tokens_left.ghost ? tokenEl('ghost', seat, { badge: `×${s.tokens_left.ghost}`, title: t('gfs.ghost') }) : null,
    s.tokens_left.painting ? tokenEl('painting', seat, { badge: `×${s.tokens_left.painting}`, title: t('gfs.painting') }) : null,
    s.tokens_left.double_faced ? tokenEl('ghost', seat, { cls: 'double', badge: `×${s.tokens_left.double_faced}`, title: t('gfs.double') }) : null,
  );

  const head = h(
    'div',
    { class: 'gfs-seat-head' },
    h('span', { class: `gfs-chip ${seatClass(seat)}` }, m.name(seat)),
    first ? h('span', { class: 'gfs-badge first', title: t('gfs.firstPlayer') }, t('gfs.firstShort')) : null,
    s.passed ? h('span', { class: 'gfs-badge passed' }, t('gfs.passed')) : null,
    secretStep && pending ? h('span', { class: 'gfs-badge choosing' }, t('gfs.choosing')) : null,
    secretStep && !pending && m.step === 'truth_or_lie' && s.has_chosen ? h('span', { class: 'gfs-badge chosen' }, t('gfs.chosen')) : null,
    h('span', { class: 'gfs-score' }, t('gfs.score', { n: s.score })),
  );

  const handBacks = h(
    'div',
    { class: 'gfs-handcount', title: t('gfs.handCount', { n: s.hand_count }) },
    h('span', { class: 'gfs-backs' }, Array.from({ length: Math.min(s.hand_count, 12) }, () => h('span', { class: `gfs-back ${seatClass(seat)}` }))),
    h('span', { class: 'n' }, t('gfs.handCount', { n: s.hand_count })),
  );
  const aside =
    s.set_aside_count > 0 || m.round === 1
      ? h('div', { class: 'gfs-asidecount' }, t('gfs.setAsideCount', { n: s.set_aside_count }))
      : null;

  const extras = [];
  if (s.crystal_ball) extras.push(specialEl(m, 'crystal_ball', true));
  if (s.family_portrait) extras.push(specialEl(m, 'family_portrait', true));

  return h(
    'section',
    { class: `gfs-seat ${seatClass(seat)}${turn ? ' turn' : ''}${pending ? ' pending' : ''}${mine ? ' mine' : ''}`, 'aria-label': m.name(seat) },
    head,
    h(
      'div',
      { class: 'gfs-seat-body' },
      h('div', { class: 'gfs-char' }, h('div', { class: `gfs-charcard ${seatClass(seat)}`, title: t('gfs.character') }, svg(ICON.ghost, 'char')), qcard, prevCards.length ? h('div', { class: 'gfs-prevq' }, prevCards) : null),
      h(
        'div',
        { class: 'gfs-seat-info' },
        tokensLeft,
        mine ? null : handBacks,
        mine ? null : aside,
        looks.length
          ? h(
              'div',
              { class: 'gfs-mags' },
              looks.map((l) =>
                h(
                  'span',
                  { class: 'gfs-magtok', title: t('gfs.looked', { name: ctx.seatName(l.looked_at) }), 'data-secret': mine && l.seen && !roundOpen(m, l.round) ? `gfs-look2-${seat}-${l.round}` : null },
                  svg(ICON.magnifier, `gfs-mag ${seatClass(l.looked_at)}`),
                  l.seen ? t('gfs.lookedSeen', { name: ctx.seatName(l.looked_at), card: t(l.seen === 'truth' ? 'gfs.truth' : 'gfs.lie') }) : t('gfs.looked', { name: ctx.seatName(l.looked_at) }),
                ),
              ),
            )
          : null,
        owned.length ? h('div', { class: 'gfs-owned', title: t('gfs.owned') }, owned.map((p) => miniProp(m, p))) : null,
        // Paid cards are public (turned up, then boxed): what a player has left follows from them.
        s.paid.length ? h('div', { class: 'gfs-paid' }, h('span', { class: 'lbl' }, t('gfs.paid')), s.paid.map((x) => h('span', { class: 'gfs-paidcard' }, String(x)))) : null,
        extras.length ? h('div', { class: 'gfs-extras' }, extras) : null,
      ),
    ),
  );
}

// This player's own hand: the bidding cards (with the back mark each shows when played),
// the cards hidden for round 2, the two "?" cards and the declaration tokens.
function handEl(m) {
  const { v, t, ctx } = m;
  if (!v.me) return null;
  const me = m.me;
  const hand = v.me.hand.slice();
  const area = h('div', { class: 'gfs-hand-area' });

  // What a click on a hand card does now.
  let pickable = () => false;
  let onPick = null;
  let picked = [];
  if (!m.busy && m.step === 'set_aside' && m.legal.length) {
    const { p, need } = asidePicks(ctx);
    picked = p.values.slice();
    pickable = () => p.values.length < need;
    onPick = (value) => {
      p.values.push(value);
      ctx.rerender();
    };
  }
  const plan = m.step === 'information_auction' || m.step === 'property_auction' ? auctionPlan(m) : null;
  if (plan) {
    picked = plan.steps.map((s) => s.value);
    if (plan.pendingTarget) {
      pickable = () => true;
      onPick = (value) => pickCard(m, plan, value);
    }
  }

  const remaining = hand.slice();
  for (const x of picked) removeOne(remaining, x);
  const shown = [...count(remaining).entries()].sort((a, b) => a[0] - b[0]);
  const cards = [];
  // Both copies of a value (two 3s, two 8s) are alike: either one picks the value.
  for (const [value, n] of shown) {
    for (let i = 0; i < n; i++) {
      const mk = m.mark(value);
      const choosable = onPick && pickable(value);
      cards.push(
        h(
          choosable ? 'button' : 'div',
          {
            type: choosable ? 'button' : null,
            class: `gfs-card ${mk}${choosable ? ' choosable' : ''}`,
            'data-choice': choosable ? '' : null,
            'data-secret': `gfs-hand-${me}-${value}-${i}`,
            'aria-label': `${value} (${t('gfs.back', { mark: t(mk === 'low' ? 'gfs.lowMark' : 'gfs.highMark') })})`,
            onclick: choosable ? () => onPick(value) : null,
          },
          h('span', { class: 'gfs-card-value' }, String(value)),
          h('span', { class: 'gfs-card-mark', title: t('gfs.back', { mark: t(mk === 'low' ? 'gfs.lowMark' : 'gfs.highMark') }) }, svg(ICON[mk]), t(mk === 'low' ? 'gfs.low' : 'gfs.high')),
        ),
      );
    }
  }
  const pickedCards = picked.map((value, i) =>
    h(
      'div',
      { class: `gfs-card ${m.mark(value)} picked`, 'data-secret': `gfs-pick-${me}-${value}-${i}` },
      h('span', { class: 'gfs-card-value' }, String(value)),
    ),
  );

  area.append(
    h('div', { class: 'gfs-hand-title' }, t('gfs.hand'), ` (${hand.length})`),
    h('div', { class: 'gfs-hand' }, cards, pickedCards.length && m.step === 'set_aside' ? h('div', { class: 'gfs-picked' }, h('span', { class: 'lbl' }, '→ ', t('gfs.setAside')), pickedCards) : null),
  );
  if (v.me.set_aside.length) {
    area.append(
      h(
        'div',
        { class: 'gfs-aside' },
        h('span', { class: 'lbl' }, t('gfs.setAside')),
        v.me.set_aside.map((value, i) => h('div', { class: `gfs-card small ${m.mark(value)}`, 'data-secret': `gfs-aside-${me}-${value}-${i}` }, h('span', { class: 'gfs-card-value' }, String(value)))),
      ),
    );
  }

  // Truth or lie: both "?" cards, face up to their owner.
  if (m.step === 'truth_or_lie' && m.legal.length && !m.busy) {
    const p = pickState(ctx, 'choose');
    area.append(
      h(
        'div',
        { class: 'gfs-qchoice' },
        ['truth', 'lie'].map((card) => {
          const choosable = !p.card && m.has({ choose: { card } });
          return h(
            choosable ? 'button' : 'div',
            {
              type: choosable ? 'button' : null,
              class: `gfs-q face big ${card}${p.card === card ? ' chosen' : ''}${choosable ? ' choosable' : ''}`,
              'data-choice': choosable ? '' : null,
              onclick: choosable ? () => { p.card = card; ctx.rerender(); } : null,
            },
            h('span', { class: 'q-lbl' }, t(card === 'truth' ? 'gfs.truthCard' : 'gfs.lieCard')),
          );
        }),
      ),
    );
  }

  // Declarations: the tokens to pick up.
  if (m.step === 'declarations' && m.legal.length && !m.busy) {
    const d = ctx.draft;
    const kinds = [
      ['ghost', 'ghost', 'gfs.ghost', v.seats[me].tokens_left.ghost],
      ['painting', 'painting', 'gfs.painting', v.seats[me].tokens_left.painting],
      ['double_ghost', 'ghost', 'gfs.doubleGhost', v.seats[me].tokens_left.double_faced],
      ['double_painting', 'painting', 'gfs.doublePainting', v.seats[me].tokens_left.double_faced],
    ];
    area.append(
      h(
        'div',
        { class: 'gfs-tokpick' },
        kinds.map(([token, face, label, n]) => {
          const offered = m.legal.some((l) => l.action && l.action.declare && l.action.declare.token === token);
          if (!offered && n === 0) return null;
          const choosable = offered && !d.token;
          return h(
            choosable ? 'button' : 'div',
            {
              type: choosable ? 'button' : null,
              class: `gfs-tokopt${d.token === token ? ' chosen' : ''}${choosable ? ' choosable' : ''}${offered ? '' : ' off'}`,
              'data-choice': choosable ? '' : null,
              onclick: choosable ? () => { d.token = token; ctx.rerender(); } : null,
            },
            tokenEl(face, me, { cls: token.startsWith('double') ? 'double' : '' }),
            h('span', null, t(label), ` ×${n}`),
          );
        }),
      ),
    );
  }
  return area;
}

function finalEl(m) {
  const { v, t, ctx } = m;
  if (m.step !== 'game_over') return null;
  const ranks = ctx.outcome && ctx.outcome.ranks ? ctx.outcome.ranks : null;
  const order = v.seats.map((s) => s.seat).sort((a, b) => (ranks ? ranks[a] - ranks[b] : v.seats[b].score - v.seats[a].score));
  return h(
    'div',
    { class: 'gfs-final' },
    h('h3', null, t('gfs.final')),
    h(
      'ol',
      null,
      order.map((k) =>
        h(
          'li',
          { class: ranks && ranks[k] === 1 ? 'gfs-winner' : '' },
          h('span', { class: `gfs-chip ${seatClass(k)}` }, m.name(k)),
          ' ',
          h('b', null, t('gfs.score', { n: v.seats[k].score })),
          ranks && ranks[k] === 1 ? h('span', { class: 'gfs-badge win' }, t('gfs.winner')) : null,
        ),
      ),
    ),
  );
}

function render(root, ctx) {
  const v = ctx.view;
  if (!v) {
    root.replaceChildren(h('div', { class: 'gfs-board' }, h('p', { class: 'gfs-hint' }, '…')));
    return;
  }
  const m = model(ctx);
  if (m.step !== 'declarations' && ctx.draft.token) ctx.draft.token = null;
  const plan = m.step === 'information_auction' || m.step === 'property_auction' ? auctionPlan(m) : null;

  const others = [];
  const n = v.players;
  const start = m.me === null ? 0 : m.me + 1;
  for (let i = 0; i < n; i++) {
    const k = (start + i) % n;
    if (k !== m.me) others.push(k);
  }

  const centre = h(
    'div',
    { class: 'gfs-centre' },
    h('div', { class: 'gfs-info' }, truelightEl(m, plan), pileEl(m, plan)),
    h('div', { class: 'gfs-props' }, m.props.map((p) => propertyEl(m, p, plan))),
  );

  const board = h(
    'div',
    { class: `gfs-board players-${n}`, 'data-game': GAME, 'data-step': m.step, 'data-round': m.round },
    headerEl(m),
    finalEl(m),
    h('div', { class: 'gfs-others' }, others.map((k) => seatEl(m, k, false))),
    centre,
    promptEl(m),
    m.me !== null && v.seats[m.me] ? h('div', { class: 'gfs-mine' }, seatEl(m, m.me, true), handEl(m)) : null,
    m.older.length
      ? h(
          'details',
          { class: 'gfs-history' },
          h('summary', null, m.t('gfs.history')),
          h('div', { class: 'gfs-props old' }, m.older.map((p) => propertyEl(m, p, null))),
        )
      : null,
  );
  root.replaceChildren(board);
  // Every legal state must offer something to click. Should a state arrive that the drawing
  // above does not cover, the legal actions are offered as they are rather than stalling.
  if (!m.busy && m.legal.length && !board.querySelector('[data-choice]')) {
    board.querySelector('.gfs-controls').append(
      ...m.legal.map((l) => h('button', { type: 'button', class: 'gfs-btn', 'data-choice': '', onclick: () => ctx.sendSequence([l.action]) }, l.label)),
    );
  }
}

// The first player is the table's call (「一番幽霊に見えるプレイヤーが最初のプレイヤーとなります」):
// random, or a seat of the chosen player count.
function optionFields(optionSets, players, t) {
  const seats = [{ value: null, label: t('gfs.opt.random') }];
  for (let k = 0; k < (players || 5); k++) seats.push({ value: k, label: t('gfs.opt.seat', { n: k + 1 }) });
  return [
    {
      key: 'special_cards',
      label: t('gfs.opt.special'),
      values: [
        { value: false, label: t('gfs.opt.basic') },
        { value: true, label: t('gfs.opt.advanced') },
      ],
    },
    { key: 'first_player', label: t('gfs.opt.first'), values: seats },
  ];
}

export default { messages, rules, optionFields, render };
