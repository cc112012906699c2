// Shared messages and the language switch. The choice is remembered in localStorage; the
// first visit follows the browser's language.
import ja from './i18n/ja.js';
import en from './i18n/en.js';

const shared = { ja, en };
const KEY = 'takuge.lang';
const listeners = new Set();

function initial() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === 'ja' || saved === 'en') return saved;
  } catch {
    // Storage may be disabled; fall back to the browser's language.
  }
  return (navigator.language || '').toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

let current = initial();
document.documentElement.lang = current;

export function lang() {
  return current;
}

export function setLang(l) {
  if (l !== 'ja' && l !== 'en') return;
  current = l;
  document.documentElement.lang = l;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    // Not remembered, but still switched for this page.
  }
  for (const f of listeners) f(l);
}

export function onLang(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

// Look a key up in `extra` (a game's messages: {ja: {...}, en: {...}}) first, then in the
// shared messages; an unknown key shows itself, which makes a missing translation visible.
export function t(key, params, extra) {
  const l = current;
  const fromExtra = extra && extra[l] && extra[l][key];
  const text = fromExtra !== undefined ? fromExtra : shared[l][key] !== undefined ? shared[l][key] : shared.en[key];
  if (text === undefined) return key;
  if (typeof text === 'function') return text(params || {});
  return fill(text, params);
}

// A server error in words: the message for its code when we have one, else the server's.
export function errorText(err) {
  if (!err) return '';
  const k = 'err.' + err.code;
  const local = shared[current][k];
  if (local !== undefined) return local;
  return err.message || err.code || String(err);
}
