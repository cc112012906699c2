// Collectors & Thieves' pieces: the action cards, the art cards (face and back) and the
// pawns, drawn with the board's stylesheet (board.css paints them; img/ holds its pictures).
import { h } from '../../dom.js';

// Thousands separators by hand: toLocaleString is slow (measured: the largest cost of a
// redraw), and both languages write 15,000.
export function money(ctx, value) {
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}

export function actionLabel(ctx, c) {
  switch (c.kind) {
    case 'money':
      return `${ctx.t('ah.money')} ${money(ctx, c.value)}`;
    case 'thief':
      return `${ctx.t('ah.thief')} ${c.value}`;
    case 'detective':
      return ctx.t('ah.detective');
    default:
      return ctx.t('ah.exhibit');
  }
}

export function actionCard(ctx, c, attrs = {}, tag = 'div', extra = null) {
  const { class: cls = '', ...rest } = attrs;
  const big = c.kind === 'money' ? String(c.value / 1000) : c.kind === 'thief' ? String(c.value) : '';
  return h(
    tag,
    {
      class: `ah-card ah-act col-${c.colour} k-${c.kind} ${cls}`,
      title: actionLabel(ctx, c),
      'data-card': c.id,
      ...rest,
      // A stable key keeps a keyboard player's focus on this card across redraws (board-host.js).
      ...(tag === 'button' ? { type: 'button', 'aria-label': attrs['aria-label'] || actionLabel(ctx, c), 'data-focus-key': `card ${c.id}` } : {}),
    },
    h('span', { class: 'ah-act-icon' }),
    big ? h('span', { class: 'ah-act-value' }, big) : null,
    h('span', { class: 'ah-act-name' }, c.kind === 'money' ? ctx.t('ah.money') : actionLabel(ctx, c).replace(/ \d+$/, '')),
    extra,
  );
}

export function artLabel(ctx, a) {
  return `${ctx.t('ah.art')} ${a.series} (${a.year})`;
}

export function artCard(ctx, a, attrs = {}, tag = 'div') {
  const { class: cls = '', ...rest } = attrs;
  return h(
    tag,
    {
      class: `ah-card ah-art s-${a.series} ${cls}`,
      title: artLabel(ctx, a),
      'data-art': a.id,
      ...rest,
      ...(tag === 'button' ? { type: 'button', 'aria-label': attrs['aria-label'] || artLabel(ctx, a), 'data-focus-key': `art ${a.id}` } : {}),
    },
    h('span', { class: 'ah-art-letter' }, a.series),
    h('span', { class: 'ah-art-paint' }),
    h('span', { class: 'ah-art-year' }, a.year),
  );
}

export function artBack(n, cls = '') {
  return h('div', { class: `ah-card ah-art-back ${cls}` }, n > 1 ? h('span', null, `×${n}`) : null);
}

export function pawn(ctx, p) {
  return h('span', { class: `ah-pawn col-${p.colour}`, title: ctx.seatName(p.seat) }, String(p.seat + 1));
}
