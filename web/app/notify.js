// "Your turn" when you are away (issue 21, item 6): a short sound (off by default) and a
// browser notification while the tab is hidden. Both are remembered in localStorage. The
// notification permission is asked once, only from a click on the switch (never on page
// load); a browser that refused it, or a prompt dismissed once, is not asked again — the
// switch then says to allow notifications in the browser's settings.
//
// Every browser API goes through `notifier` (window.takuge.notifier), so a test replaces
// its methods and counts what would have been shown, asked or played.
import { h } from './dom.js';
import { t } from './i18n.js';

const SOUND = 'takuge.sound';
const NOTIFY = 'takuge.notify';
const ASKED = 'takuge.notifyAsked';

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not remembered; still on for this page.
  }
}

let audio = null;

export const notifier = {
  supported: () => typeof Notification !== 'undefined',
  permission: () => (typeof Notification !== 'undefined' ? Notification.permission : 'denied'),
  request: () => Notification.requestPermission(),
  hidden: () => document.hidden,
  show(title, options) {
    try {
      const n = new Notification(title, options);
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some browsers only notify from a service worker; the sound still plays.
    }
  },
  // Two short tones (WebAudio: no file to load).
  beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      audio = audio || new Ctx();
      const now = audio.currentTime;
      for (const [at, freq] of [
        [0, 660],
        [0.16, 880],
      ]) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.15);
      }
    } catch {
      // No sound; nothing else depends on it.
    }
  },
};

// Tests put a stub here before the page loads (an init script), so that even a call made
// while the page starts would be counted.
if (typeof window !== 'undefined' && window.takugeTestNotifier) Object.assign(notifier, window.takugeTestNotifier);

export function soundOn() {
  return read(SOUND) === '1';
}

export function setSound(on) {
  write(SOUND, on ? '1' : null);
  // A click is the gesture that lets the browser start audio: play once so the player
  // hears what it will sound like.
  if (on) notifier.beep();
}

export function notifyOn() {
  return read(NOTIFY) === '1' && notifier.permission() === 'granted';
}

// Whether asking again could help: not once asked, and not refused by the browser.
function mayAsk() {
  return notifier.supported() && notifier.permission() === 'default' && read(ASKED) !== '1';
}

// From a click only. Resolves to whether notifications are now on.
export async function setNotify(on) {
  if (!on) {
    write(NOTIFY, null);
    return false;
  }
  if (notifier.permission() !== 'granted') {
    if (!mayAsk()) return false;
    write(ASKED, '1');
    let answer = 'default';
    try {
      answer = await notifier.request();
    } catch {
      answer = 'denied';
    }
    if (answer !== 'granted') return false;
  }
  write(NOTIFY, '1');
  return true;
}

// The table calls this when it becomes this player's move.
export function yourTurn(title, body) {
  if (soundOn()) notifier.beep();
  if (notifyOn() && notifier.hidden()) notifier.show(title, { body, tag: 'takuge-turn' });
}

// The two switches, for the profile and the table page.
export function alertSettings() {
  const note = h('span', { class: 'muted', 'data-notify-note': '' });
  const sound = h('input', {
    type: 'checkbox',
    'data-sound-toggle': '',
    checked: soundOn(),
    onchange: () => setSound(sound.checked),
  });
  const notify = h('input', {
    type: 'checkbox',
    'data-notify-toggle': '',
    checked: notifyOn(),
    onchange: async () => {
      const on = await setNotify(notify.checked);
      notify.checked = on;
      showNote();
    },
  });
  function showNote() {
    const blocked = notify.checked ? '' : notifier.supported() && !mayAsk() && notifier.permission() !== 'granted' ? t('alert.blocked') : '';
    note.textContent = blocked;
  }
  showNote();
  return h(
    'div',
    { class: 'alert-settings', 'data-alert-settings': '' },
    h('label', { class: 'check' }, sound, t('alert.sound')),
    h('label', { class: 'check' }, notify, t('alert.notify')),
    note,
  );
}
