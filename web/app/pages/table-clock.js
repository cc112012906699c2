// The table's clock box: every seat's time, built when a message arrives (draw) and then
// only its texts rewritten each second (tick), so a ticking clock never redraws the board
// or the seats. docs/WEB.md "Clocks" says what it shows and how clock skew is handled.
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { seatLabel } from '../board-host.js';
import { clockText } from '../shell.js';

// Below these a pending seat's clock shows the low-time warning.
const LOW_REAL_MS = 15000;
const LOW_TURN_MS = 3600000;

// A real-time clock's ms as m:ss (h:mm:ss from an hour), rounded up so 0:00 means out.
function clockTime(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hrs = Math.floor(total / 3600);
  const mins = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hrs ? hrs + ':' + String(mins).padStart(2, '0') + ':' + secs : mins + ':' + secs;
}

// s: the page's state ({msg, info}).
export function createClock(s) {
  const box = h('div', { class: 'clock', 'data-clock': '' });
  let rows = []; // [{seat, left, reserve}] the text nodes tick rewrites
  let skew = 0; // ms the browser's clock is known to be behind the server's (measureSkew)

  function draw() {
    const msg = s.msg;
    const c = s.info.clock;
    rows = [];
    if (!c || c.kind === 'none' || !msg || msg.status !== 'playing') {
      clear(box);
      return;
    }
    const items = (msg.seats || []).map((st, k) => {
      const row = { seat: k, left: h('span', { class: 'clock-left', 'data-clock-left': '' }), reserve: h('span', { class: 'clock-reserve muted', 'data-clock-reserve': '' }) };
      rows.push(row);
      return h('li', { 'data-clock-seat': k }, h('span', { class: 'seat-no' }, String(k + 1)), h('span', { class: 'seat-name' }, seatLabel(st, k)), ' ', row.left, ' ', row.reserve);
    });
    clear(box, h('h2', null, t('clock.title')), h('p', null, clockText(c)), h('ul', { class: 'clock-list' }, items));
    tick();
  }

  // What the server allows seat k for this move from its start, in ms (the server's
  // allowance): the reserve in the message is the one the move started with, since the
  // server charges the reserve only when the move ends.
  function allowance(k) {
    const c = s.info.clock;
    const clock = s.msg && s.msg.clock;
    if (c.kind === 'real_time') return c.per_move_seconds * 1000 + ((clock && clock.reserve_ms && clock.reserve_ms[k]) || 0);
    if (c.kind === 'turn_based') return c.hours_per_move * 3600000;
    return 0;
  }

  // The deadlines are the server's Unix ms. Each message carries the server's clock
  // when it was written (server_time_ms), so skew = server − browser clock, read when
  // the message arrives (its time in flight counts against the player, the safe side).
  // A server without it: assume the clocks agree, except that a move's time left can
  // never be more than its allowance.
  function measureSkew(msg) {
    const now = Date.now();
    if (typeof msg.server_time_ms === 'number') {
      skew = msg.server_time_ms - now;
      return;
    }
    let found = 0;
    const dl = (msg.clock && msg.clock.deadline_ms) || [];
    if (s.info.clock && s.info.clock.kind !== 'none') {
      dl.forEach((d, k) => {
        if (typeof d === 'number') found = Math.max(found, d - allowance(k) - now);
      });
    }
    skew = found;
  }

  function tick() {
    const msg = s.msg;
    const c = s.info.clock;
    if (!msg || !c || !rows.length) return;
    const clock = msg.clock || {};
    const dl = clock.deadline_ms || [];
    const reserves = clock.reserve_ms || [];
    const pending = msg.pending || [];
    const now = Date.now() + skew;
    for (const row of rows) {
      const k = row.seat;
      const deadline = pending.includes(k) && typeof dl[k] === 'number' ? dl[k] : null;
      const left = deadline === null ? null : Math.max(0, Math.min(deadline - now, allowance(k)));
      let leftText = '';
      let reserveText = '';
      let low = false;
      if (c.kind === 'real_time') {
        const reserve = reserves[k] || 0;
        if (left === null) {
          reserveText = t('clock.reserveLeft', { t: clockTime(reserve) });
        } else {
          // The move's own seconds go first, then the reserve.
          const onMove = left - reserve;
          leftText = onMove > 0 ? t('clock.moveLeft', { t: clockTime(onMove) }) : t('clock.onReserveLeft', { t: clockTime(left) });
          reserveText = t('clock.reserveLeft', { t: clockTime(Math.min(reserve, left)) });
          low = left <= LOW_REAL_MS;
        }
      } else if (c.kind === 'turn_based' && left !== null) {
        const mins = Math.floor(left / 60000);
        leftText = t('clock.hoursLeft', { h: Math.floor(mins / 60), m: mins % 60 });
        low = left <= LOW_TURN_MS;
      }
      if (row.left.textContent !== leftText) row.left.textContent = leftText;
      if (row.reserve.textContent !== reserveText) row.reserve.textContent = reserveText;
      if (left === null) delete row.left.dataset.ms;
      else row.left.dataset.ms = String(left);
      row.left.classList.toggle('clock-low', low);
      if (low) row.left.dataset.clockLow = '';
      else delete row.left.dataset.clockLow;
    }
  }

  return { box, draw, tick, measureSkew };
}
