// The shell: the router, the header and the start. The pages are in pages/ (login, lobby
// with the create form, table, replay, rules) and in shelf.js, recommend.js, profile.js;
// what they share (the user, the catalog, links, errors, navigation) in shell.js.
import { h, clear } from './dom.js';
import { get, post } from './api.js';
import * as live from './live.js';
import { t, lang, setLang, onLang, errorText } from './i18n.js';
import { shelfRoutes } from './shelf.js';
import { recommendRoutes } from './recommend.js';
import { profileRoutes } from './profile.js';
import { notifier } from './notify.js';
import { app, main, setRouter, navigate, ensureGames, link, errorBox, showError, gameName } from './shell.js';
import { loginPage } from './pages/login.js';
import { lobbyPage } from './pages/lobby.js';
import { tablePage } from './pages/table.js';
import { replayPage } from './pages/replay.js';
import { rulesPage } from './pages/rules.js';

const header = document.getElementById('header');
const banner = document.getElementById('banner');

// ---- router ----

const routes = [
  [/^\/$/, lobbyPage, true],
  [/^\/login$/, loginPage, false],
  [/^\/t\/(\d+)$/, tablePage, true],
  [/^\/replay\/(\d+)$/, replayPage, true],
  [/^\/rules(?:\/([\w-]+))?$/, rulesPage, false],
];
// The shelf's pages (shelf.js), given the helpers they share with these.
routes.push(...shelfRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r) }));
routes.push(...recommendRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r) }));
routes.push(...profileRoutes({ app, main, link, errorBox, showError, navigate: (p, r) => navigate(p, r), gameName, drawHeader: () => drawHeader() }));

async function route() {
  if (app.page && app.page.cleanup) app.page.cleanup();
  app.page = null;
  document.body.removeAttribute('data-busy');
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  drawHeader();
  for (const [re, page, needsUser] of routes) {
    const m = path.match(re);
    if (!m) continue;
    if (needsUser && !app.me) {
      navigate('/login?next=' + encodeURIComponent(path + location.search), true);
      return;
    }
    const token = {};
    app.page = token;
    document.title = 'takuge';
    clear(main, h('p', { class: 'muted' }, t('loading')));
    try {
      await ensureGames();
      if (app.page !== token) return;
      const result = await page(m, params);
      if (app.page === token && result) Object.assign(token, result);
      else if (app.page !== token && result && result.cleanup) result.cleanup();
    } catch (e) {
      if (app.page === token) clear(main, h('p', { class: 'error', role: 'alert' }, errorText(e)), link('/', t('nav.lobby')));
    }
    return;
  }
  clear(main, h('h1', null, t('notFound')), link('/', t('nav.lobby')));
}

setRouter(route);

document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[data-link]');
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

onLang(() => {
  drawHeader();
  if (app.page && app.page.relang) app.page.relang();
  else route();
});

live.onStatus((up) => {
  banner.hidden = up;
  banner.textContent = up ? '' : t('reconnecting');
  document.body.dataset.connected = up ? '1' : '0';
});

// ---- header ----

function drawHeader() {
  clear(
    header,
    h(
      'nav',
      { class: 'topnav', 'aria-label': t('nav.main') },
      link('/', h('strong', { class: 'brand' }, '卓ゲ takuge')),
      app.me && link('/', t('nav.lobby')),
      link('/rules', t('nav.rules')),
      app.me && link('/profile', t('nav.profile')),
      app.me && !app.me.guest && link('/shelf', t('nav.shelf')),
      app.me && !app.me.guest && link('/plays', t('nav.plays')),
      app.me && !app.me.guest && link('/admin', t('nav.admin')),
      app.me && !app.me.guest && link('/for-you', t('nav.forYou')),
      h('span', { class: 'spacer' }),
      app.me &&
        h(
          'a',
          { class: 'me', href: '/profile', 'data-link': '', 'data-me': app.me.name },
          app.me.guest ? t('me.guest', { name: app.me.display_name || app.me.name }) : app.me.display_name || app.me.name,
        ),
      app.me && app.me.guest && link('/login', t('nav.register')),
      app.me && h('button', { class: 'link', onclick: logout }, t('nav.logout')),
      h(
        'span',
        { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
        h('button', { 'data-lang': 'ja', 'aria-pressed': String(lang() === 'ja'), onclick: () => setLang('ja') }, '日本語'),
        h('button', { 'data-lang': 'en', 'aria-pressed': String(lang() === 'en'), onclick: () => setLang('en') }, 'English'),
      ),
    ),
  );
}

async function logout() {
  try {
    await post('/api/logout');
  } catch {
    // Logged out locally either way.
  }
  app.me = null;
  location.href = '/login';
}

// ---- start ----

async function boot() {
  try {
    app.me = await get('/api/me');
  } catch {
    app.me = null;
  }
  if (app.me) live.start();
  route();
}

// Tests and debugging reach the live connection through here.
window.takuge = { live, navigate, notifier };
boot();
