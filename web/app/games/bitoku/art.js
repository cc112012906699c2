// Bitoku's pieces. The board has no pictures: cards, tiles and tokens are boxes of words
// from the component data (components.js) painted by board.css. What is drawn the same
// everywhere lives here: a seat's chip (the Tengu's reads 天) and a die.
import { h } from '../../dom.js';

// The Tengu, the solo game's rival, sits at seat 7 in the view.
export const TENGU_SEAT = 7;

export function chip(seat, title) {
  if (seat === TENGU_SEAT) return h('span', { class: 'bk-chip seat-7', title }, '天');
  return h('span', { class: `bk-chip seat-${seat}`, title }, String(seat + 1));
}

export function dieFace(value, seat, extra = '') {
  return h('span', { class: `bk-die seat-${seat} ${extra}`, 'aria-label': String(value) }, String(value));
}
