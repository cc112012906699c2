// /login: play as a guest, log in, sign up (a guest registers here and keeps its account).
import { h, clear } from '../dom.js';
import { post } from '../api.js';
import * as live from '../live.js';
import { t } from '../i18n.js';
import { app, main, navigate, errorBox, showError } from '../shell.js';

export async function loginPage(m, params) {
  const next = params.get('next') || '/';
  const safeNext = next.startsWith('/') && !next.startsWith('//') ? next : '/';
  const done = (user) => {
    app.me = user;
    live.start();
    navigate(safeNext, true);
  };
  const loginErr = errorBox();
  const regErr = errorBox();
  const guestErr = errorBox();
  const busy = (form, on) => form.querySelectorAll('button,input').forEach((e) => (e.disabled = on));

  const loginForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'login',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        busy(f, true);
        try {
          const r = await post('/api/login', { name: f.name.value.trim(), password: f.password.value });
          done(r.user);
        } catch (e) {
          showError(loginErr, e);
        } finally {
          busy(f, false);
        }
      },
    },
    h('h2', null, t('login.title')),
    h('label', null, t('login.name'), h('input', { name: 'name', autocomplete: 'username', required: true })),
    h('label', null, t('login.password'), h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    loginErr,
    h('button', { type: 'submit', class: 'primary' }, t('login.submit')),
  );

  const guest = app.me && app.me.guest;
  const regForm = h(
    'form',
    {
      class: 'card',
      'data-form': 'register',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const f = ev.target;
        busy(f, true);
        try {
          const r = await post('/api/register', { name: f.name.value.trim(), password: f.password.value });
          done(r.user);
        } catch (e) {
          showError(regErr, e);
        } finally {
          busy(f, false);
        }
      },
    },
    h('h2', null, guest ? t('register.fromGuest') : t('register.title')),
    guest && h('p', { class: 'muted' }, t('register.keeps')),
    h('label', null, t('login.name'), h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 32, pattern: '[A-Za-z0-9_.\\-]+' })),
    h('p', { class: 'hint' }, t('register.nameHint')),
    h('label', null, t('login.password'), h('input', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 256 })),
    regErr,
    h('button', { type: 'submit', class: 'primary' }, t('register.submit')),
  );

  const guestCard = !app.me
    ? h(
        'div',
        { class: 'card' },
        h('h2', null, t('guest.title')),
        h('p', { class: 'muted' }, t('guest.text')),
        guestErr,
        h(
          'button',
          {
            class: 'primary',
            'data-action': 'guest',
            onclick: async (ev) => {
              ev.target.disabled = true;
              try {
                const r = await post('/api/guest');
                done(r.user);
              } catch (e) {
                showError(guestErr, e);
                ev.target.disabled = false;
              }
            },
          },
          t('guest.submit'),
        ),
      )
    : null;

  // A field the browser refuses (too short, a bad character) never reaches the server:
  // the last server error, about an earlier try, must not stay beside it (issue 21).
  for (const [form, box] of [[loginForm, loginErr], [regForm, regErr]]) form.addEventListener('invalid', () => showError(box, null), true);
  clear(main, h('h1', null, t('login.heading')), h('div', { class: 'cards' }, guestCard, guest ? null : loginForm, regForm));
  return {};
}
