// The card art, drawn here as inline SVG (no images to fetch). Every string is a constant
// of this file, so setting it as markup never carries anything from the server.
const NS = 'http://www.w3.org/2000/svg';

function svg(viewBox, body, cls) {
  const el = document.createElementNS(NS, 'svg');
  el.setAttribute('viewBox', viewBox);
  el.setAttribute('aria-hidden', 'true');
  el.setAttribute('focusable', 'false');
  if (cls) el.setAttribute('class', cls);
  el.innerHTML = body;
  return el;
}

const ROLE_ART = {
  // A tiara over a rose: 姫.
  princess: `
    <circle cx="32" cy="34" r="22" fill="#fbe3ea"/>
    <path d="M14 30 L20 14 L27 24 L32 9 L37 24 L44 14 L50 30 Z" fill="#e8b530" stroke="#9a6b08" stroke-width="1.5" stroke-linejoin="round"/>
    <rect x="14" y="29" width="36" height="6" rx="2" fill="#e8b530" stroke="#9a6b08" stroke-width="1.5"/>
    <circle cx="32" cy="18" r="2.6" fill="#d2365a"/><circle cx="20" cy="20" r="1.8" fill="#3d7bd8"/><circle cx="44" cy="20" r="1.8" fill="#3d7bd8"/>
    <path d="M32 39c-5 0-8 4-8 8s4 8 8 8 8-4 8-8-3-8-8-8z" fill="#d2365a"/>
    <path d="M28 45c2-3 6-3 8 0M27 49c3 2 7 2 10 0" stroke="#8e1533" stroke-width="1.4" fill="none"/>`,
  // A wide-brimmed hat and a staff: 旅人.
  traveller: `
    <circle cx="32" cy="34" r="22" fill="#fbe9d6"/>
    <path d="M47 10 L40 56" stroke="#7a4a22" stroke-width="3" stroke-linecap="round"/>
    <ellipse cx="28" cy="30" rx="19" ry="5" fill="#6b4b2b"/>
    <path d="M17 29c1-10 5-15 11-15s10 5 11 15z" fill="#8a6238"/>
    <path d="M18 25h20" stroke="#c59a55" stroke-width="2.5"/>
    <path d="M21 40c3 8 11 12 14 12" stroke="#b27a45" stroke-width="2" fill="none" stroke-dasharray="2 3"/>
    <circle cx="47" cy="10" r="3" fill="#c59a55"/>`,
  // An edict with a seal: 大臣.
  minister: `
    <circle cx="32" cy="34" r="22" fill="#dfe8fb"/>
    <rect x="18" y="16" width="28" height="34" rx="3" fill="#fff8e6" stroke="#5a6a8a" stroke-width="1.5"/>
    <rect x="15" y="13" width="34" height="6" rx="3" fill="#2f4f8f"/>
    <rect x="15" y="47" width="34" height="6" rx="3" fill="#2f4f8f"/>
    <path d="M23 25h18M23 30h18M23 35h12" stroke="#8a96b0" stroke-width="2"/>
    <circle cx="38" cy="41" r="5" fill="#c0392b"/><path d="M36 41h4M38 39v4" stroke="#fff" stroke-width="1.2"/>`,
  // A candle in a lantern: 僧侶.
  monk: `
    <circle cx="32" cy="34" r="22" fill="#fbf1d8"/>
    <path d="M32 12c4 5 5 9 0 14-5-5-4-9 0-14z" fill="#f5a623"/>
    <path d="M32 16c2 3 2 5 0 8-2-3-2-5 0-8z" fill="#fff2b3"/>
    <rect x="27" y="26" width="10" height="20" rx="1.5" fill="#fffdf5" stroke="#b9a27a" stroke-width="1.5"/>
    <path d="M20 48h24l-3 5H23z" fill="#8a6a3a"/>
    <circle cx="32" cy="30" r="14" fill="none" stroke="#f5c96a" stroke-width="1" stroke-dasharray="1 3"/>`,
  // A spear and a shield: 兵士.
  soldier: `
    <circle cx="32" cy="34" r="22" fill="#e3e9f3"/>
    <path d="M44 8 L20 56" stroke="#6b5533" stroke-width="2.6" stroke-linecap="round"/>
    <path d="M44 8 l-1 9 l6 -5 z" fill="#9aa6b8" stroke="#5a6578" stroke-width="1"/>
    <path d="M22 22h20v12c0 9-7 14-10 16-3-2-10-7-10-16z" fill="#3a5a9a" stroke="#1f355f" stroke-width="1.6"/>
    <path d="M32 24v24M24 32h16" stroke="#e0c25a" stroke-width="2.2"/>`,
  // A domino mask: 盗賊.
  thief: `
    <circle cx="32" cy="34" r="22" fill="#e6e0f0"/>
    <path d="M12 30c6-6 14-6 20-2 6-4 14-4 20 2-2 8-8 11-13 10-4-1-5-4-7-4s-3 3-7 4c-5 1-11-2-13-10z" fill="#2b2340"/>
    <ellipse cx="23" cy="31" rx="4.5" ry="2.8" fill="#e6e0f0"/><ellipse cx="41" cy="31" rx="4.5" ry="2.8" fill="#e6e0f0"/>
    <path d="M52 30c3-1 5 1 6 3M12 30c-3-1-5 1-6 3" stroke="#2b2340" stroke-width="2" fill="none"/>
    <path d="M22 47c5 4 15 4 20 0" stroke="#6b5a8a" stroke-width="2" fill="none"/>`,
};

export function roleArt(role) {
  return svg('0 0 64 64', ROLE_ART[role] || '', `sm-art role-art-${role}`);
}

// The back of every card: a crescent moon over the garden wall.
export function cardBack(small) {
  return svg(
    '0 0 64 88',
    `<rect x="2" y="2" width="60" height="84" rx="6" fill="#1c2550"/>
     <rect x="6" y="6" width="52" height="76" rx="4" fill="none" stroke="#c9a94f" stroke-width="1.2"/>
     <path d="M38 22a14 14 0 1 0 0 26a11 11 0 1 1 0-26z" fill="#f3e3a2"/>
     <circle cx="18" cy="20" r="1.2" fill="#f3e3a2"/><circle cx="46" cy="60" r="1" fill="#f3e3a2"/><circle cx="22" cy="66" r="1.4" fill="#f3e3a2"/><circle cx="48" cy="18" r="0.9" fill="#f3e3a2"/>
     ${small ? '' : '<path d="M8 78h48v-8l-6-3-6 3-6-3-6 3-6-3-6 3-6-3-6 3z" fill="#121936"/>'}`,
    'sm-art sm-back-art',
  );
}

// An action-order card (行動順カード): its number under a small moon.
export function orderArt(n) {
  return svg(
    '0 0 48 64',
    `<rect x="1.5" y="1.5" width="45" height="61" rx="5" fill="#fdf6e3" stroke="#8a7444" stroke-width="1.5"/>
     <path d="M29 9a7 7 0 1 0 0 12a5.5 5.5 0 1 1 0-12z" fill="#d9b84a"/>
     <text x="24" y="50" text-anchor="middle" font-size="24" font-weight="700" font-family="Georgia, 'Times New Roman', serif" fill="#1c2550">${Number(n) || '?'}</text>`,
    'sm-art sm-order-art',
  );
}

export function eyeIcon() {
  return svg(
    '0 0 24 16',
    `<path d="M1 8c3-5 7-7 11-7s8 2 11 7c-3 5-7 7-11 7S4 13 1 8z" fill="currentColor"/>
     <circle cx="12" cy="8" r="4" fill="#fff"/><circle cx="12" cy="8" r="2" fill="#111"/>`,
    'sm-eye-art',
  );
}

export function shieldIcon() {
  return svg('0 0 24 24', `<path d="M12 2l8 3v6c0 6-4 9-8 11-4-2-8-5-8-11V5z" fill="#3d9a6a" stroke="#fff" stroke-width="1.5"/>`, 'sm-shield-art');
}

// The round track: one moon per round, fuller as the night goes on.
export function moonIcon(i) {
  const shapes = [
    '<circle cx="12" cy="12" r="9" fill="#2a3260"/><path d="M12 3a9 9 0 0 1 0 18a6 9 0 0 0 0-18z" fill="#f3e3a2"/>',
    '<circle cx="12" cy="12" r="9" fill="#2a3260"/><path d="M12 3a9 9 0 0 1 0 18z" fill="#f3e3a2"/>',
    '<circle cx="12" cy="12" r="9" fill="#f3e3a2"/>',
  ];
  return svg('0 0 24 24', shapes[i] || shapes[0], 'sm-moon-art');
}
