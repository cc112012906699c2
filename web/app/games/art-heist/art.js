// Small SVG drawings for the cards and places (drawn for takuge; no outside artwork).
const svg = (body, vb = '0 0 24 24') =>
  `<svg viewBox="${vb}" aria-hidden="true" focusable="false">${body}</svg>`;

export const icons = {
  // A cheque: a note with a seal.
  money: svg(
    '<rect x="2" y="6" width="20" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3" fill="currentColor"/>',
  ),
  // A thief: the burglar's eye mask.
  thief: svg(
    '<path d="M2 10c3-3 7-3 10-1 3-2 7-2 10 1-1 4-4 5-6 5-2 0-3-1-4-2-1 1-2 2-4 2-2 0-5-1-6-5z" fill="currentColor"/><circle cx="7.5" cy="11" r="1.6" fill="#fff"/><circle cx="16.5" cy="11" r="1.6" fill="#fff"/>',
  ),
  // A detective: the magnifying glass.
  detective: svg(
    '<circle cx="10" cy="10" r="6" fill="none" stroke="currentColor" stroke-width="2.5"/><path d="M14.5 14.5l6 6" stroke="currentColor" stroke-width="3" stroke-linecap="round"/>',
  ),
  // The exhibition card: a framed picture.
  exhibit: svg(
    '<rect x="3" y="4" width="18" height="16" fill="none" stroke="currentColor" stroke-width="2.5"/><path d="M6 17l4-5 3 3 2-2 3 4z" fill="currentColor"/>',
  ),
  // The auction house: the auctioneer's hammer.
  auction: svg(
    '<rect x="4" y="4" width="10" height="6" rx="1" transform="rotate(-35 9 7)" fill="currentColor"/><path d="M11 11l8 8" stroke="currentColor" stroke-width="3" stroke-linecap="round"/><rect x="2" y="19" width="10" height="3" rx="1" fill="currentColor"/>',
  ),
  // The castle: towers and battlements.
  castle: svg(
    '<path d="M3 21V8h3v2h2V8h3v2h2V8h3v2h2V8h3v13h-7v-5a2 2 0 0 0-4 0v5z" fill="currentColor"/>',
  ),
  // The safe.
  safe: svg(
    '<rect x="3" y="3" width="18" height="17" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="11.5" r="4" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 11.5l2-2" stroke="currentColor" stroke-width="2"/>',
  ),
  // The cage: bars.
  cage: svg(
    '<rect x="3" y="3" width="18" height="18" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8 3v18M12 3v18M16 3v18" stroke="currentColor" stroke-width="2"/>',
  ),
  // A face-down choice.
  back: svg('<rect x="5" y="3" width="14" height="18" rx="2" fill="currentColor"/><path d="M8 7h8M8 11h8M8 15h8" stroke="#fff" stroke-width="1.2" opacity=".6"/>'),
};

// One little painting per series, so the letters are told apart at a glance.
const paintings = {
  A: '<rect width="40" height="30" fill="#f4d58d"/><circle cx="30" cy="9" r="5" fill="#e4572e"/><path d="M0 30l12-14 9 9 7-6 12 11z" fill="#4b7f52"/>',
  B: '<rect width="40" height="30" fill="#cfe3f2"/><path d="M16 27c-5-3-5-11 0-14v-4h8v4c5 3 5 11 0 14z" fill="#2e5e8e"/><path d="M15 18h10" stroke="#f2c14e" stroke-width="2"/>',
  C: '<rect width="40" height="30" fill="#3b2e2a"/><ellipse cx="20" cy="13" rx="6" ry="7" fill="#e8c4a0"/><path d="M8 30c1-8 6-10 12-10s11 2 12 10z" fill="#7a2e2e"/>',
  D: '<rect width="40" height="30" fill="#a9d6e5"/><path d="M0 24h40v6H0z" fill="#2a6f97"/><path d="M12 23h18l-3 3H15z" fill="#5b3a29"/><path d="M20 6v16l-8 0z" fill="#fff"/><path d="M21 9v13h7z" fill="#f1f1f1"/>',
  E: '<rect width="40" height="30" fill="#fbe8d3"/><path d="M0 30l14-20 8 10 5-6 13 16z" fill="#6c757d"/><path d="M14 10l-3 4h6z" fill="#fff"/>',
  F: '<rect width="40" height="30" fill="#e9f5db"/><path d="M20 30V15" stroke="#40916c" stroke-width="2"/><circle cx="20" cy="12" r="4" fill="#f28482"/><circle cx="15" cy="12" r="3" fill="#f5cac3"/><circle cx="25" cy="12" r="3" fill="#f5cac3"/><circle cx="20" cy="7" r="3" fill="#f5cac3"/><circle cx="20" cy="12" r="2" fill="#f6bd60"/>',
};

export function painting(series) {
  return svg(paintings[series] || '<rect width="40" height="30" fill="#ccc"/>', '0 0 40 30');
}
