// The table's log: drawn line by line, and on a phone (style.css, max-width 600px) a
// drawer hidden behind the dock's "Log" button (with the count of lines not seen yet),
// drawn over the page when open, closed by its button or Escape. On a wider screen it is
// the side column's log.
import { h, clear } from '../dom.js';
import { t, lang } from '../i18n.js';
import { seatLabel } from '../board-host.js';
import { logText } from '../shell.js';

// s: the page's state ({msg, log: Map index → entry}).
export function createLog(id, s) {
  const logBox = h('ol', { class: 'log', 'data-log': '' });
  const logId = 'table-log-' + id;
  const head = h('h2', { id: logId + '-title' }, t('game.log'));
  const close = h('button', { type: 'button', class: 'log-close', 'data-log-close': '', onclick: () => setOpen(false) }, t('game.logClose'));
  const drawer = h('section', { class: 'log-drawer', id: logId, 'data-log-drawer': '', 'aria-labelledby': logId + '-title' }, h('div', { class: 'log-drawer-head' }, head, close), logBox);
  const toggle = h('button', { type: 'button', class: 'log-toggle', 'data-log-toggle': '', 'aria-expanded': 'false', 'aria-controls': logId, onclick: () => setOpen(!open) });

  let open = false;
  let seen = -1; // lines drawn when the log was last in sight (-1: not drawn yet)

  function setOpen(on, focus = true) {
    open = on;
    drawer.classList.toggle('open', on);
    toggle.setAttribute('aria-expanded', String(on));
    drawToggle();
    if (on) {
      logBox.scrollTop = logBox.scrollHeight;
      if (focus) close.focus();
    } else if (focus && drawer.contains(document.activeElement)) {
      toggle.focus();
    }
  }

  function onKey(ev) {
    if (ev.key === 'Escape' && open) {
      ev.preventDefault();
      setOpen(false);
      toggle.focus();
    }
  }
  document.addEventListener('keydown', onKey);

  function drawToggle() {
    const n = drawn.size;
    if (seen < 0 || open) seen = n;
    const unseen = Math.max(0, n - seen);
    clear(toggle, t('game.log'), unseen ? h('span', { class: 'log-unseen', 'data-log-unseen': unseen }, t('game.logNew', { n: unseen })) : null);
  }

  // The log grows by a few lines per message, so only the new lines are added; the whole
  // list is drawn again only when what a line shows changes (language, seat names).
  // Following the newest line waits for the next frame: reading the box's geometry while
  // drawing would force a layout of everything drawn so far in this message (the top
  // script cost of a redraw in a profile), whereas a frame lays out anyway. The reader
  // was at the bottom if the view reached the height the log had at the last frame.
  const drawn = new Map(); // index -> li
  let labels = '';
  let height = 0; // scrollHeight as of the last frame that looked
  let scroll = 0;

  function follow() {
    scroll = 0;
    if (logBox.scrollTop + logBox.clientHeight >= height - 4) logBox.scrollTop = logBox.scrollHeight;
    height = logBox.scrollHeight;
  }

  function line(e, you) {
    const seats = s.msg.seats;
    return h('li', { 'data-log-index': e.index, class: e.seat === null ? 'news' : e.seat === you && you !== null ? 'mine' : '' }, h('span', { class: 'log-seat' }, e.seat === null || e.seat === undefined ? '' : seatLabel(seats[e.seat], e.seat) + ': '), logText(e));
  }

  function draw() {
    if (!s.msg) return;
    const you = s.msg.you;
    const now = JSON.stringify([lang(), you, s.msg.seats.map((st, k) => seatLabel(st, k))]);
    if (now !== labels) {
      labels = now;
      drawn.clear();
      height = 0;
      clear(logBox);
    }
    const fresh = [];
    for (const e of s.log.values()) if (!drawn.has(e.index)) fresh.push(e);
    if (!fresh.length) {
      drawToggle();
      return;
    }
    fresh.sort((a, b) => a.index - b.index);
    let last = logBox.lastElementChild ? Number(logBox.lastElementChild.dataset.logIndex) : -Infinity;
    for (const e of fresh) {
      const li = line(e, you);
      drawn.set(e.index, li);
      if (e.index > last) {
        logBox.appendChild(li);
        last = e.index;
      } else {
        // A line older than the newest drawn (a resubscribe filling a gap): in its place.
        const after = [...logBox.children].find((x) => Number(x.dataset.logIndex) > e.index);
        logBox.insertBefore(li, after || null);
      }
    }
    if (!scroll) scroll = requestAnimationFrame(follow);
    drawToggle();
  }

  return {
    drawer,
    toggle,
    draw,
    relang() {
      head.textContent = t('game.log');
      close.textContent = t('game.logClose');
    },
    cleanup() {
      if (scroll) cancelAnimationFrame(scroll);
      document.removeEventListener('keydown', onKey);
    },
  };
}
