// The table's seats: the players panel beside the board (who is who, host, bot, replaced,
// thinking), the seating card while the table is open, and "leave" / "abandon" in play.
import { h, clear } from '../dom.js';
import { get, post } from '../api.js';
import { t } from '../i18n.js';
import { seatLabel, botHint } from '../board-host.js';
import { app, gameInfo } from '../shell.js';

export function seatsList(s) {
  const msg = s.msg;
  const info = s.info;
  const seats = msg ? msg.seats : info.seats;
  const pending = msg ? msg.pending || [] : [];
  const you = msg ? msg.you : null;
  const host = msg ? msg.host : info.host;
  return h(
    'ul',
    { class: 'seat-list' },
    seats.map((st, k) =>
      h(
        'li',
        {
          'data-seat': k,
          class: [pending.includes(k) ? 'pending' : '', you === k ? 'you' : ''].join(' '),
        },
        h('span', { class: 'seat-no' }, String(k + 1)),
        h('span', { class: 'seat-name' }, seatLabel(st, k)),
        you === k && h('span', { class: 'tag tag-you' }, t('seat.you')),
        st && st.user_id === host && st.user_id !== null && h('span', { class: 'tag' }, t('seat.host')),
        st && st.bot && !st.replaced && h('span', { class: 'tag tag-bot', 'data-bot': st.bot }, t('seat.botTag')),
        st && st.replaced && h('span', { class: 'tag tag-replaced', 'data-replaced': '' }, t('seat.replaced', { bot: st.bot || '' })),
        pending.includes(k) && h('span', { class: 'tag tag-pending', 'data-pending': '' }, t('seat.thinking')),
      ),
    ),
  );
}

// The seating card while the table is open: take a seat, leave; the host fills empty
// seats with bots, picks each bot's level, starts or abandons; the invite link.
// page: {id, invite, q, s, fail, clearError}.
export function drawSeating(seatingBox, page) {
  const { id, invite, q, s, fail } = page;
  const msg = s.msg;
  const info = s.info;
  const status = msg ? msg.status : info.status;
  if (status !== 'open') {
    clear(seatingBox);
    return;
  }
  const seats = msg ? msg.seats : info.seats;
  const seated = seats.some((st) => st && st.user_id === app.me.id);
  const isHost = (msg ? msg.host : info.host) === app.me.id;
  const empty = seats.filter((st) => !st || (!st.user_id && !st.bot)).length;
  const g = gameInfo(info.game);
  const inviteUrl = location.origin + '/t/' + id + (info.invite_code || invite ? '?invite=' + encodeURIComponent(info.invite_code || invite) : '');
  const botSel = h('select', { 'data-bot-select': '' }, ((g && g.bots) || []).map((b) => h('option', { value: b }, botHint(b))));
  const act = (fn) => async (ev) => {
    const b = ev.currentTarget;
    b.disabled = true;
    try {
      await fn(ev);
      s.info = await get('/api/tables/' + id + q);
      page.clearError();
    } catch (e) {
      fail(e);
    } finally {
      b.disabled = false;
    }
  };
  clear(
    seatingBox,
    h(
      'section',
      { class: 'card' },
      h('h2', null, t('table.seating')),
      h(
        'ul',
        { class: 'seat-list' },
        seats.map((st, k) =>
          h(
            'li',
            { 'data-seat': k },
            h('span', { class: 'seat-no' }, String(k + 1)),
            h('span', { class: 'seat-name' }, seatLabel(st, k)),
            st && st.bot && h('span', { class: 'tag tag-bot' }, t('seat.botTag')),
            // The host picks each bot seat's level (an empty seat gets a bot, a bot
            // seat changes level); the first bot seat's level also replaces a player
            // who leaves or runs out of time.
            isHost &&
              !(st && st.user_id) &&
              h(
                'select',
                {
                  'data-seat-bot': k,
                  'aria-label': t('seat.level', { n: k + 1 }),
                  onchange: act((ev) => post('/api/tables/' + id + '/bots', { bot: ev.target.value, seat: k })),
                },
                !(st && st.bot) && h('option', { value: '', selected: true, disabled: true }, t('seat.pickBot')),
                ((g && g.bots) || []).map((b) => h('option', { value: b, selected: (st && st.bot === b) || undefined }, botHint(b))),
              ),
            !seated &&
              (!st || (!st.user_id && !st.bot)) &&
              h(
                'button',
                {
                  'data-sit': k,
                  onclick: act(async () => {
                    await post('/api/tables/' + id + '/sit', { seat: k, invite: invite || undefined });
                  }),
                },
                t('table.sit'),
              ),
          ),
        ),
      ),
      h(
        'div',
        { class: 'row' },
        seated && h('button', { 'data-leave': '', onclick: act(() => post('/api/tables/' + id + '/leave')) }, t('table.leave')),
        isHost && empty > 0 && [botSel, h('button', { 'data-fill-bots': '', onclick: act(() => post('/api/tables/' + id + '/bots', { bot: botSel.value })) }, t('table.fillBots'))],
        isHost && h('button', { class: 'primary', 'data-start': '', disabled: empty > 0 || undefined, onclick: act(() => post('/api/tables/' + id + '/start')) }, t('table.start')),
        isHost && h('button', { class: 'danger', 'data-abandon': '', onclick: act(() => post('/api/tables/' + id + '/abandon')) }, t('table.abandon')),
      ),
      h(
        'p',
        { class: 'invite' },
        t('table.invite'),
        ' ',
        h('input', { readonly: true, value: inviteUrl, 'data-invite': '', size: 40, onfocus: (e) => e.target.select() }),
        ' ',
        h(
          'button',
          {
            onclick: (e) => {
              const b = e.currentTarget;
              navigator.clipboard && navigator.clipboard.writeText(inviteUrl).then(() => (b.textContent = t('table.copied')), () => {});
            },
          },
          t('table.copy'),
        ),
      ),
      !isHost && h('p', { class: 'muted' }, t('table.waitHost')),
    ),
  );
}

// Leaving a running game hands the seat to a bot for good; abandoning ends it for all.
export function drawPlayActions(playActions, { id, s, fail }) {
  const msg = s.msg;
  if (!msg || msg.status !== 'playing') {
    clear(playActions);
    return;
  }
  const mine = msg.you !== null ? msg.seats[msg.you] : null;
  const confirmThen = (question, path) => async () => {
    if (!window.confirm(question)) return;
    try {
      await post(path);
    } catch (e) {
      fail(e);
    }
  };
  clear(
    playActions,
    mine && !mine.replaced && h('button', { 'data-leave-game': '', onclick: confirmThen(t('game.leaveConfirm'), '/api/tables/' + id + '/leave') }, t('game.leave')),
    msg.host === app.me.id && h('button', { class: 'danger', 'data-abandon': '', onclick: confirmThen(t('game.abandonConfirm'), '/api/tables/' + id + '/abandon') }, t('table.abandon')),
  );
}
