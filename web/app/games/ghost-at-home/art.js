// Ghost at Home's pictures: the icons (inline SVG from the constants below, never from the
// view) and a card's face. A card is drawn from its printed facts, which the view gives
// (`view.cards`: floor, light bulbs, special), never read from its name.
import { h } from '../../dom.js';

const FLOORS = ['first', 'second', 'third'];

export const svg = (html, cls) => h('span', { class: 'gah-ico ' + (cls || ''), 'aria-hidden': 'true', html });

export const ICON = {
  ghost:
    '<svg viewBox="0 0 40 44"><path d="M20 2C10 2 4 10 4 20v22l6-5 5 5 5-5 5 5 5-5 6 5V20C36 10 30 2 20 2z" fill="#f5f2ff" stroke="#5b4a8a" stroke-width="2"/><circle cx="14" cy="18" r="3" fill="#2a1f4a"/><circle cx="26" cy="18" r="3" fill="#2a1f4a"/><ellipse cx="20" cy="28" rx="3.5" ry="4.5" fill="#2a1f4a"/></svg>',
  cat:
    '<svg viewBox="0 0 40 44"><path d="M9 3l6 8h10l6-8v17c0 5-2 9-5 11 5 2 8 6 8 12H6c0-6 3-10 8-12-3-2-5-6-5-11z" fill="#1d1b22"/><path d="M33 40c5-1 5-8 1-10" stroke="#1d1b22" stroke-width="3" fill="none" stroke-linecap="round"/><ellipse cx="15.5" cy="18" rx="2.2" ry="2.6" fill="#ffd23f"/><ellipse cx="24.5" cy="18" rx="2.2" ry="2.6" fill="#ffd23f"/><path d="M19 23h2l-1 1.4z" fill="#ff9bb0"/></svg>',
  bulb:
    '<svg viewBox="0 0 24 24"><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#ffd84a" stroke="#8a6d00" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#8a8a8a"/></svg>',
  bulbOff:
    '<svg viewBox="0 0 24 24"><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#3b3f55" stroke="#9aa0c0" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#6a6a6a"/></svg>',
  space_time_hole:
    '<svg viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#12082a"/><path d="M20 20m-2 0a2 2 0 1 1 4 0a5 5 0 1 1-10 0a8 8 0 1 1 16 0a11 11 0 1 1-22 0a14 14 0 1 1 28 0" fill="none" stroke="#b48cff" stroke-width="2.2"/></svg>',
  light_bulb:
    '<svg viewBox="0 0 24 24"><circle cx="12" cy="10" r="10" fill="#fff3b0" opacity=".6"/><path d="M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" fill="#ffd84a" stroke="#8a6d00" stroke-width="1.2"/><rect x="8.5" y="18" width="7" height="3.2" rx="1" fill="#8a8a8a"/></svg>',
  cat_food:
    '<svg viewBox="0 0 40 40"><path d="M4 22h32c0 9-7 14-16 14S4 31 4 22z" fill="#e0553d"/><ellipse cx="20" cy="22" rx="16" ry="4" fill="#a83a28"/><path d="M11 17c4-6 12-6 16 0-4 5-12 5-16 0zm16 0l6-4v8z" fill="#8fc1e3"/><circle cx="15" cy="16" r="1.2" fill="#123"/></svg>',
  elevator:
    '<svg viewBox="0 0 40 40"><rect x="7" y="3" width="26" height="34" rx="3" fill="#8d99ae" stroke="#2b2d42" stroke-width="2"/><line x1="20" y1="3" x2="20" y2="37" stroke="#2b2d42" stroke-width="2"/><path d="M13 16l-4 5h8zM27 24l4-5h-8z" fill="#ffd23f"/></svg>',
  lightning:
    '<svg viewBox="0 0 40 40"><path d="M24 2L8 23h10l-4 15 18-22H21z" fill="#ffe14d" stroke="#8a6d00" stroke-width="1.5" stroke-linejoin="round"/></svg>',
  wild_room:
    '<svg viewBox="0 0 40 40"><rect x="6" y="6" width="28" height="30" rx="2" fill="#fff" stroke="#333" stroke-width="2"/><path d="M6 14h28" stroke="#e63946" stroke-width="4"/><path d="M6 20h28" stroke="#f4a261" stroke-width="4"/><path d="M6 26h28" stroke="#2a9d8f" stroke-width="4"/><text x="20" y="27" text-anchor="middle" font-size="18" font-weight="bold" fill="#222">?</text></svg>',
  roof:
    '<svg viewBox="0 0 200 60" preserveAspectRatio="none"><rect x="146" y="6" width="16" height="30" fill="#4a3a5a"/><path d="M4 58L100 4l96 54z" fill="#5b3f6e" stroke="#2a1d38" stroke-width="3" stroke-linejoin="round"/><circle cx="100" cy="38" r="9" fill="#2a1d38"/><circle cx="100" cy="38" r="6" fill="#ffe9a8" opacity=".5"/></svg>',
  room:
    '<svg viewBox="0 0 40 30"><rect x="3" y="4" width="14" height="12" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.5"/><path d="M10 4v12M3 10h14" stroke="#3a2e22" stroke-width="1.2"/><rect x="23" y="8" width="12" height="20" rx="1" fill="#7a4e2d" stroke="#3a2e22" stroke-width="1.5"/><circle cx="32" cy="18" r="1.2" fill="#ffd23f"/></svg>',
  room2:
    '<svg viewBox="0 0 40 30"><rect x="24" y="2" width="11" height="9" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.3"/><path d="M29.5 2v9" stroke="#3a2e22" stroke-width="1"/><rect x="4" y="15" width="32" height="8" rx="2" fill="#c0504d" stroke="#3a2e22" stroke-width="1.5"/><rect x="5" y="11" width="9" height="6" rx="2" fill="#fff" stroke="#3a2e22" stroke-width="1.2"/><path d="M5 23v5M35 23v5" stroke="#3a2e22" stroke-width="2"/></svg>',
  room3:
    '<svg viewBox="0 0 40 30"><path d="M3 28L20 3l17 25z" fill="#a98b6d" stroke="#3a2e22" stroke-width="1.5" stroke-linejoin="round"/><circle cx="20" cy="18" r="5" fill="#f7e9c3" stroke="#3a2e22" stroke-width="1.2"/><path d="M20 13v10M15 18h10" stroke="#3a2e22" stroke-width="1"/><path d="M31 27c0-3 3-3 3-6" stroke="#e6e6e6" stroke-width=".8" fill="none"/><circle cx="34" cy="20" r="1" fill="#222"/></svg>',
  back:
    '<svg viewBox="0 0 40 56"><rect x="1" y="1" width="38" height="54" rx="4" fill="#3d2a5c" stroke="#1c1230" stroke-width="2"/><path d="M20 12c-5 0-8 4-8 9v13l3-2 2.5 2 2.5-2 2.5 2 2.5-2 3 2V21c0-5-3-9-8-9z" fill="#c9b8ff" opacity=".55"/></svg>',
};

// The floor's number as printed (1 for the first floor).
export const floorNumber = (floor) => FLOORS.indexOf(floor) + 1;

export function cardName(ctx, f) {
  if (f.floor) return ctx.t('gah.roomCard', { floor: ctx.t('gah.floor.' + f.floor), bulbs: f.bulbs });
  return ctx.t('gah.card.' + f.card);
}

function bulbs(n, cls) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(svg(ICON.bulb, 'gah-bulb'));
  return h('span', { class: 'gah-bulbs ' + (cls || '') }, out);
}

// A card face: room cards show their floor in the lower-left corner, as printed, and their
// light-bulb icons; the others their picture and name.
export function cardFace(ctx, f, size) {
  const c = f.card;
  const n = f.floor ? floorNumber(f.floor) : 0;
  const kind = f.floor ? 'room f' + n : c === 'ghost' || c === 'cat' ? c : 'special ' + c;
  const body = f.floor
    ? [
        h('span', { class: 'gah-card-title' }, ctx.t('gah.room')),
        svg(ICON[n === 1 ? 'room' : 'room' + n], 'gah-card-pic'),
        bulbs(f.bulbs),
        h('span', { class: 'gah-card-floor' }, ctx.t('gah.floorMark', { n })),
      ]
    : [h('span', { class: 'gah-card-title' }, ctx.t('gah.card.' + c)), svg(ICON[c], 'gah-card-pic')];
  return h('span', { class: `gah-card gah-card-${size || 'hand'} ${kind}`, 'data-card': c }, body);
}
