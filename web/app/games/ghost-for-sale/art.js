// Ghost for Sale's pictures: the icons of the table (ghosts, paintings, manors, castles, the
// magnifier, Mrs. Truelight, the "?" card, the back marks) as inline SVG.
// Inline SVG from the constant markup below (never from the view), parsed once and cloned:
// the board is rebuilt on every state and parsing is most of the cost of an icon.
const parsed = new Map();

export function svg(markup, cls) {
  let proto = parsed.get(markup);
  if (!proto) {
    proto = document.createElement('span');
    proto.setAttribute('aria-hidden', 'true');
    proto.innerHTML = markup;
    parsed.set(markup, proto);
  }
  const span = proto.cloneNode(true);
  span.className = 'gfs-ico' + (cls ? ' ' + cls : '');
  return span;
}

export const ICON = {
  ghost:
    '<svg viewBox="0 0 24 24"><path d="M12 2.5C7.9 2.5 4.8 5.7 4.8 9.8V21l2.4-1.8 2.4 1.8 2.4-1.8 2.4 1.8 2.4-1.8 2.4 1.8V9.8c0-4.1-3.1-7.3-7.2-7.3z" fill="#fbfbff" stroke="#3b3355" stroke-width="1.2"/><ellipse cx="9.4" cy="10" rx="1.3" ry="1.8" fill="#2b2340"/><ellipse cx="14.6" cy="10" rx="1.3" ry="1.8" fill="#2b2340"/><ellipse cx="12" cy="14.2" rx="1.6" ry="1.1" fill="#2b2340"/></svg>',
  painting:
    '<svg viewBox="0 0 24 24"><rect x="2.5" y="4" width="19" height="16" rx="1" fill="#b8892f" stroke="#5b3d10" stroke-width="1"/><rect x="5" y="6.5" width="14" height="11" fill="#cfe6f5"/><circle cx="15.5" cy="9.3" r="1.5" fill="#f4c542"/><path d="M5 17.5l4.2-5.2 3 3.3 2-2.1 4.8 4z" fill="#4f8a4b"/></svg>',
  manor:
    '<svg viewBox="0 0 32 24"><path d="M2 12 L16 3 L30 12 V22 H2 Z" fill="#4a3e63" stroke="#1e1830" stroke-width="1"/><rect x="22" y="4" width="3" height="6" fill="#4a3e63" stroke="#1e1830" stroke-width="0.8"/><rect x="13.5" y="15" width="5" height="7" fill="#1e1830"/><rect x="6" y="13" width="4" height="4" fill="#f6d66b"/><rect x="22" y="13" width="4" height="4" fill="#f6d66b"/></svg>',
  castle:
    '<svg viewBox="0 0 32 24"><path d="M2 22 V7 h3 v2 h2 V7 h3 v5 h12 V7 h3 v2 h2 V7 h3 v15 Z" fill="#4f4a5e" stroke="#1e1830" stroke-width="1"/><path d="M13 12 V5 h2 v2 h2 V5 h2 v7" fill="#4f4a5e" stroke="#1e1830" stroke-width="0.8"/><path d="M13.5 22 v-5 a2.5 2.5 0 0 1 5 0 v5 z" fill="#1e1830"/><rect x="6" y="13" width="2" height="3" fill="#f6d66b"/><rect x="24" y="13" width="2" height="3" fill="#f6d66b"/></svg>',
  magnifier:
    '<svg viewBox="0 0 24 24"><circle cx="10" cy="10" r="6" fill="#d9efff" stroke="currentColor" stroke-width="2.4"/><path d="M14.5 14.5 L21 21" stroke="currentColor" stroke-width="3" stroke-linecap="round"/></svg>',
  lady:
    '<svg viewBox="0 0 48 48"><ellipse cx="24" cy="11" rx="14" ry="3.5" fill="#2b2340"/><path d="M16 11 q8 -10 16 0z" fill="#2b2340"/><circle cx="24" cy="17" r="6.5" fill="#f3d9c4"/><path d="M10 46 q2 -18 14 -20 q12 2 14 20z" fill="#6b3f7a"/><circle cx="21.8" cy="16.5" r="0.9" fill="#2b2340"/><circle cx="26.2" cy="16.5" r="0.9" fill="#2b2340"/><circle cx="36" cy="30" r="4.5" fill="#bfe4ff" stroke="#2b2340" stroke-width="1.6"/><path d="M33 33 l-4 5" stroke="#2b2340" stroke-width="2" stroke-linecap="round"/></svg>',
  qcard:
    '<svg viewBox="0 0 24 32"><rect x="1" y="1" width="22" height="30" rx="3" fill="#2e2645" stroke="#b9a6e8" stroke-width="1.5"/><text x="12" y="22" font-size="16" text-anchor="middle" fill="#e9e0ff" font-family="serif" font-weight="bold">?</text></svg>',
  low:
    '<svg viewBox="0 0 24 24"><ellipse cx="12" cy="15" rx="7" ry="3" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="12" cy="12" rx="7" ry="3" fill="#f3d77a" stroke="#7a5a12"/></svg>',
  high:
    '<svg viewBox="0 0 24 24"><ellipse cx="7" cy="18" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="7" cy="15.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="7" cy="13" rx="5" ry="2.2" fill="#f3d77a" stroke="#7a5a12"/><ellipse cx="17" cy="18" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="15.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="13" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="17" cy="10.5" rx="5" ry="2.2" fill="#e8c25a" stroke="#7a5a12"/><ellipse cx="12" cy="8" rx="5" ry="2.2" fill="#f3d77a" stroke="#7a5a12"/></svg>',
};
