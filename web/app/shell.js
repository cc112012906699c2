// What every page shares: the signed-in user and the game catalog (`app`), the page's
// <main>, links that route without a reload, error boxes, names of games and clocks, and
// navigation (the router in app.js registers itself here, so pages need not import it).
import { h } from './dom.js';
import { get } from './api.js';
import { t, lang, errorText } from './i18n.js';

export const main = document.getElementById('main');

export const app = {
  me: null,
  games: null, // [{meta, default_options, option_sets, bots}]
  page: null, // {cleanup?, relang?}
};

let router = () => {};

// app.js hands over its router once it is set up.
export function setRouter(route) {
  router = route;
}

export function navigate(path, replace) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  router();
}

// Draw the current page again (a page without its own relang, on a language change).
export function reroute() {
  router();
}

export function gameInfo(id) {
  return (app.games || []).find((g) => g.meta.id === id) || null;
}

export function gameName(id) {
  const g = gameInfo(id);
  if (!g) return id;
  return lang() === 'ja' ? g.meta.name_ja : g.meta.name_en;
}

export async function ensureGames() {
  if (!app.games) {
    const data = await get('/api/games');
    app.games = data.games;
  }
  return app.games;
}

export function link(href, ...children) {
  return h('a', { href, 'data-link': '' }, ...children);
}

export function errorBox() {
  return h('p', { class: 'error', role: 'alert', 'aria-live': 'assertive', 'data-error': '', hidden: true });
}

export function showError(box, err) {
  if (!err) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = typeof err === 'string' ? err : errorText(err);
}

// A table's clock setting in words (the lobby, the table's head, the clock box).
export function clockText(clock) {
  if (!clock || clock.kind === 'none') return t('clock.none');
  if (clock.kind === 'real_time') return t('clock.realTime', { s: clock.per_move_seconds, r: clock.reserve_seconds });
  if (clock.kind === 'turn_based') return t('clock.turnBased', { h: clock.hours_per_move });
  return '';
}

// The log line in the page's language; the server sends both (docs/PROTOCOL.md).
export function logText(e) {
  return (lang() === 'ja' && e.text_ja) || e.text;
}
