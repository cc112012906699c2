// /t/{id}: a table — the seating while it is open, then the game: the head, whose turn
// it is, the board (table-board.js), the players (table-seating.js), the clock
// (table-clock.js), the log (table-log.js) and at the end the result (result.js). This
// file lays the page out, follows the table's messages and draws the parts.
import { h, clear } from '../dom.js';
import { get } from '../api.js';
import * as live from '../live.js';
import { t } from '../i18n.js';
import { loadBoard, seatLabel } from '../board-host.js';
import { yourTurn, alertSettings } from '../notify.js';
import { main, link, errorBox, showError, gameName, clockText } from '../shell.js';
import { seatsList, drawSeating, drawPlayActions } from './table-seating.js';
import { createClock } from './table-clock.js';
import { createLog } from './table-log.js';
import { mountBoard } from './table-board.js';
import { resultPanel } from './result.js';

function drawHead(top, id, s) {
  const info = s.info;
  const status = s.msg ? s.msg.status : info.status;
  clear(
    top,
    h(
      'h1',
      null,
      gameName(info.game),
      ' ',
      h('span', { class: 'muted' }, t('table.n', { n: id })),
      ' ',
      h('span', { class: 'status status-' + status, 'data-status': status }, t('status.' + status)),
    ),
    h(
      'p',
      { class: 'muted' },
      t('players.n', { n: info.players }),
      ' · ',
      clockText(info.clock),
      info.private ? ' · ' + t('create.private') : '',
      ' · ',
      // In a tab of its own: reading the rules must not leave the table (issue 21).
      h('a', { href: '/rules/' + info.game, target: '_blank', rel: 'noopener', 'data-rules-link': '' }, t('nav.rulesOf'), ' ↗'),
    ),
  );
}

// Whose turn it is: above the board and, on a phone, in a word in the dock.
function drawTurn(turnBox, dockTurn, s) {
  const msg = s.msg;
  if (!msg || msg.status !== 'playing') {
    dockTurn.textContent = msg && msg.status === 'finished' ? t('game.over') : '';
    clear(turnBox, msg && msg.status === 'finished' ? h('strong', null, t('game.over')) : null);
    return;
  }
  const pending = msg.pending || [];
  const yours = isYours(msg);
  // "Your turn!" already says you are waited for: the others only.
  const names = pending.filter((k) => !(yours && k === msg.you)).map((k) => seatLabel(msg.seats[k], k));
  document.title = (yours ? '● ' : '') + gameName(s.info.game) + ' — takuge';
  dockTurn.textContent = yours ? t('game.yourTurn') : names.length ? t('game.waitingFor', { names: names.join(', ') }) : '';
  dockTurn.classList.toggle('your-turn', yours);
  clear(
    turnBox,
    yours ? h('strong', { class: 'your-turn', 'data-your-turn': '' }, t('game.yourTurn')) : null,
    names.length ? h('span', null, ' ', t('game.waitingFor', { names: names.join(', ') })) : null,
  );
}

function drawResult(resultBox, id, s) {
  const msg = s.msg;
  if (!msg || msg.status !== 'finished' || !msg.outcome) {
    clear(resultBox);
    return;
  }
  clear(resultBox, resultPanel(s.info, msg.seats, msg.outcome, msg.you), h('p', { class: 'row' }, link('/replay/' + id + (msg.you !== null ? '?seat=' + msg.you : ''), t('result.replay')), link('/', t('nav.lobby'))));
}

// This seat is waited for, with something to do.
const isYours = (msg) => !!msg && msg.status === 'playing' && msg.you !== null && (msg.pending || []).includes(msg.you) && msg.legal.length > 0;

export async function tablePage(m, params) {
  const id = Number(m[1]);
  const invite = params.get('invite') || '';
  const q = invite ? '?invite=' + encodeURIComponent(invite) : '';
  const info = await get('/api/tables/' + id + q);
  const mod = await loadBoard(info.game);

  const s = {
    info, // the table (GET /api/tables/{id}); fetched again after a seating change
    msg: null, // the last table message
    log: new Map(), // index -> entry
  };

  const top = h('div', { class: 'table-head' });
  const seatsBox = h('div', { class: 'seats', 'data-seats': '' });
  const playActions = h('div', { class: 'row play-actions' });
  const turnBox = h('div', { class: 'turn', 'data-turn': '', 'aria-live': 'polite' });
  const alertBox = h('div', { class: 'table-alerts' }, alertSettings());
  const err = errorBox();
  const boardRoot = h('div', { class: 'board', 'data-board': info.game });
  const resultBox = h('div', { class: 'result-box' });
  const seatingBox = h('div', { class: 'seating' });
  const clock = createClock(s);
  const log = createLog(id, s);
  const dockTurn = h('span', { class: 'dock-turn', 'aria-hidden': 'true' });
  // The phone's bottom bar (hidden on wider screens): the turn in a word and the log button.
  // The board's own action area (`[data-actions]`, docs/WEB.md) sits fixed just above it.
  const dock = h('div', { class: 'phone-dock', 'data-phone-dock': '' }, dockTurn, log.toggle);
  const sidePlayers = h('h2', null, t('game.players'));
  const layout = h(
    'div',
    { class: 'game-layout' },
    h('div', { class: 'game-main' }, turnBox, err, resultBox, boardRoot),
    h('aside', { class: 'game-side' }, sidePlayers, seatsBox, playActions, clock.box, alertBox, log.drawer),
    dock,
  );
  clear(main, top, seatingBox, layout);

  const fail = (e) => showError(err, e);
  const clearError = () => showError(err, null);
  const board = mountBoard({ id, mod, s, boardRoot, layout, dock, fail, clearError, redrawAll: () => draw() });

  function draw() {
    drawHead(top, id, s);
    drawSeating(seatingBox, { id, invite, q, s, fail, clearError });
    clear(seatsBox, seatsList(s));
    drawPlayActions(playActions, { id, s, fail });
    drawTurn(turnBox, dockTurn, s);
    clock.draw();
    log.draw();
    board.draw();
    drawResult(resultBox, id, s);
  }

  const unsub = live.subscribe(id, invite || info.invite_code, (msg) => {
    // "Your turn" when away (notify.js): only when the move comes to this seat, not for
    // the state the page opened on.
    if (s.msg && !isYours(s.msg) && isYours(msg)) yourTurn(t('alert.turnTitle'), t('alert.turnBody', { game: gameName(info.game) }));
    // An error belongs to the state it was made in; a new state makes it old news.
    if (s.msg && s.msg.version !== msg.version) clearError();
    s.msg = msg;
    for (const e of msg.log || []) s.log.set(e.index, e);
    clock.measureSkew(msg);
    document.body.dataset.version = String(msg.version);
    // A step of a secret choice of several steps keeps the version (docs/PROTOCOL.md).
    document.body.dataset.draft = String(msg.draft || 0);
    document.body.dataset.status = msg.status;
    draw();
  });
  const offErr = live.onError((e) => {
    if (e.table === id) fail(e);
  });
  const tick = setInterval(clock.tick, 1000);
  draw();
  return {
    cleanup: () => {
      unsub();
      offErr();
      clearInterval(tick);
      delete document.body.dataset.version;
      delete document.body.dataset.status;
      log.cleanup();
      board.cleanup();
    },
    relang: () => {
      sidePlayers.textContent = t('game.players');
      log.relang();
      clear(alertBox, alertSettings());
      draw();
    },
  };
}
