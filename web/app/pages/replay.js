// /replay/{id}?seat=K: a finished table step by step (first/back/forward/last, a slider,
// ←/→), from a seat's or the spectator's perspective, drawn by the same board module with
// ctx.replay; the result only at the last step or when asked.
import { h, clear } from '../dom.js';
import { get } from '../api.js';
import { t } from '../i18n.js';
import { loadBoard, makeCtx, drawBoard, seatLabel } from '../board-host.js';
import { main, navigate, reroute, gameName, logText } from '../shell.js';
import { resultPanel } from './result.js';

export async function replayPage(m, params) {
  const id = Number(m[1]);
  const seatParam = params.get('seat');
  const seat = seatParam === null || seatParam === '' ? null : Number(seatParam);
  const info = await get('/api/tables/' + id);
  const data = await get('/api/tables/' + id + '/replay' + (seat === null ? '' : '?seat=' + seat));
  const mod = await loadBoard(info.game);
  const steps = data.steps || [];
  let i = Number(params.get('step') || 0);
  if (!(i >= 0 && i < steps.length)) i = 0;

  const boardRoot = h('div', { class: 'board', 'data-board': info.game });
  const logBox = h('ol', { class: 'log', 'data-log': '' });
  const pos = h('span', { 'data-step': '' });
  const range = h('input', { type: 'range', min: 0, max: Math.max(0, steps.length - 1), value: i, 'aria-label': t('replay.position'), oninput: (e) => go(Number(e.target.value)) });
  const seatSel = h(
    'select',
    { 'data-replay-seat': '', onchange: (e) => navigate('/replay/' + id + (e.target.value === '' ? '' : '?seat=' + e.target.value)) },
    h('option', { value: '', selected: seat === null || undefined }, t('replay.spectator')),
    info.seats.map((st, k) => h('option', { value: String(k), selected: seat === k || undefined }, seatLabel(st, k))),
  );
  const btn = (label, attr, f) => h('button', { [attr]: '', onclick: f }, label);
  // The outcome shows at the last step, or when asked: stepping from the start must not
  // spoil the end (issue 21).
  let resultShown = false;
  const resultHost = h('div', { 'data-replay-result': '' });

  function drawResult() {
    if (!info.outcome) {
      clear(resultHost);
      return;
    }
    if (resultShown || i === steps.length - 1) {
      clear(resultHost, resultPanel(info, info.seats, info.outcome, seat));
      return;
    }
    clear(
      resultHost,
      h('p', { class: 'muted' }, t('replay.resultHidden'), ' ', btn(t('replay.showResult'), 'data-replay-show-result', () => {
        resultShown = true;
        drawResult();
      })),
    );
  }

  function go(n) {
    i = Math.max(0, Math.min(steps.length - 1, n));
    draw();
  }

  function draw() {
    const step = steps[i];
    pos.textContent = t('replay.step', { n: i, total: Math.max(0, steps.length - 1) });
    range.value = String(i);
    document.body.dataset.replayStep = String(i);
    drawResult();
    if (!step) {
      clear(boardRoot, h('p', null, t('replay.empty')));
      return;
    }
    // Step k > 0 is action k-1: its actor and the line this perspective reads.
    // A step that revealed something (a reveal's places, cards, exhibits) adds that line.
    const entries = steps.slice(1, i + 1).flatMap((st) => [
      { seat: st.seat, text: st.log, text_ja: st.log_ja },
      ...(st.news ? [{ seat: null, text: st.news, text_ja: st.news_ja }] : []),
    ]);
    clear(
      logBox,
      entries.map((e) =>
        h('li', { class: e.seat === null ? 'news' : e.seat === seat && seat !== null ? 'mine' : '' }, h('span', { class: 'log-seat' }, e.seat === null || e.seat === undefined ? '' : seatLabel(info.seats[e.seat], e.seat) + ': '), logText(e)),
      ),
    );
    logBox.scrollTop = logBox.scrollHeight;
    const ctx = makeCtx(
      mod,
      { game: info.game, view: step.view, legal: [], you: seat, seats: info.seats, pending: [], status: i === steps.length - 1 ? info.status : 'playing', outcome: i === steps.length - 1 ? info.outcome : null, version: step.version, options: info.options, players: info.players, replay: true },
      { send: () => Promise.reject({ code: 'replay', message: '' }), draft: {}, rerender: () => draw() },
    );
    drawBoard(mod, boardRoot, ctx);
  }

  const onKey = (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowRight') go(i + 1);
    if (e.key === 'ArrowLeft') go(i - 1);
  };
  document.addEventListener('keydown', onKey);

  clear(
    main,
    h('h1', null, t('replay.title'), ' — ', gameName(info.game), ' ', h('span', { class: 'muted' }, t('table.n', { n: id }))),
    h(
      'div',
      { class: 'replay-controls row', role: 'toolbar', 'aria-label': t('replay.title') },
      btn('« ' + t('replay.first'), 'data-replay-first', () => go(0)),
      btn('◀ ' + t('replay.back'), 'data-replay-back', () => go(i - 1)),
      btn(t('replay.forward') + ' ▶', 'data-replay-forward', () => go(i + 1)),
      btn(t('replay.last') + ' »', 'data-replay-last', () => go(steps.length - 1)),
      range,
      pos,
      h('label', null, t('replay.perspective'), ' ', seatSel),
    ),
    h('div', { class: 'game-layout' }, h('div', { class: 'game-main' }, boardRoot, resultHost), h('aside', { class: 'game-side' }, h('h2', null, t('game.log')), logBox)),
  );
  draw();
  return {
    cleanup: () => {
      document.removeEventListener('keydown', onKey);
      delete document.body.dataset.replayStep;
    },
    relang: () => reroute(),
  };
}
