// The board on the table page: the board module drawn with a ctx for each state, the
// player's acts sent from it (ctx.send, ctx.sendSequence), the draft's life, and, on a
// phone, the room kept at the page's bottom for the board's docked action area.
import { clear, h } from '../dom.js';
import * as live from '../live.js';
import { t } from '../i18n.js';
import { makeCtx, drawBoard } from '../board-host.js';
import { createSequencer } from '../board-sequence.js';

// This seat's decision: null unless it is pending with something to do.
function decisionKey(msg) {
  const pending = msg.you !== null && (msg.pending || []).includes(msg.you) && msg.legal.length > 0;
  return pending ? JSON.stringify([msg.you, msg.legal.map((l) => l.action)]) : null;
}

// page: {id, mod, s, boardRoot, layout, dock, fail, clearError, redrawAll}.
export function mountBoard(page) {
  const { id, mod, s, boardRoot, layout, dock, fail } = page;
  const d = {
    draft: {},
    draftVersion: -1,
    draftKey: null, // the decision the draft belongs to (see decisionKey)
    draftFrom: -1, // the version the draft was started at
  };

  function send(action) {
    const msg = s.msg;
    if (!msg) return Promise.reject({ code: 'disconnected', message: '' });
    document.body.dataset.busy = '1';
    page.clearError();
    return live.act(id, msg.version, action, msg.draft).then(
      (ack) => {
        delete document.body.dataset.busy;
        // The ack follows the state that shows this act. A draft kept across it (the seat
        // still pending on an identical set of actions) was the act just made: drop it.
        if (s.msg && s.msg.version === ack.version && d.draftFrom < ack.version) {
          d.draft = {};
          d.draftFrom = ack.version;
          draw();
        }
        return ack;
      },
      (e) => {
        delete document.body.dataset.busy;
        fail(e);
        // A refused action leaves the state as it was: draw it again so the player can
        // choose once more (and tests see the page settle).
        page.redrawAll();
        throw e;
      },
    );
  }

  const sequencer = createSequencer({ state: () => s.msg, send, redraw: () => draw() });

  // The board's action area is fixed above the dock on a phone: the page keeps room for
  // both at its bottom (--dock-h, --actions-h on the layout), measured by a ResizeObserver
  // rather than read while drawing.
  let docked = null;
  const sizes = new Map();
  const resized = new ResizeObserver((entries) => {
    for (const e of entries) sizes.set(e.target, e.borderBoxSize && e.borderBoxSize[0] ? e.borderBoxSize[0].blockSize : e.target.offsetHeight);
    layout.style.setProperty('--dock-h', (sizes.get(dock) || 0) + 'px');
    layout.style.setProperty('--actions-h', ((docked && sizes.get(docked)) || 0) + 'px');
  });
  resized.observe(dock);

  function watchActions() {
    const a = boardRoot.querySelector('[data-actions]');
    if (a === docked) return;
    if (docked) {
      resized.unobserve(docked);
      sizes.delete(docked);
    }
    docked = a;
    if (a) resized.observe(a);
    else layout.style.setProperty('--actions-h', '0px');
  }

  function draw() {
    const msg = s.msg;
    if (!msg || msg.status === 'open' || !msg.view) {
      clear(boardRoot, msg && msg.status === 'abandoned' ? h('p', null, t('table.abandoned')) : null);
      layout.hidden = !msg || msg.status === 'open';
      watchActions();
      return;
    }
    layout.hidden = false;
    // The draft lives while this seat stays pending on the same decision: during a
    // simultaneous choice another seat's move makes a new version without touching this
    // seat's choice, and must not wipe a half-built one (the server accepts an act from
    // an older version on the same grounds, docs/PROTOCOL.md).
    if (d.draftVersion !== msg.version) {
      const key = decisionKey(msg);
      if (key === null || key !== d.draftKey) {
        d.draft = {};
        d.draftFrom = msg.version;
      }
      d.draftKey = key;
      d.draftVersion = msg.version;
    }
    // The next step of a choice sent step by step goes out as soon as the state asks for
    // it, before the board draws what is left to do.
    sequencer.pump();
    const ctx = makeCtx(mod, { ...msg, options: s.info.options, players: s.info.players }, { send, draft: d.draft, rerender: () => draw(), sequencer });
    drawBoard(mod, boardRoot, ctx);
    watchActions();
  }

  return {
    draw,
    cleanup() {
      sequencer.cancel();
      resized.disconnect();
    },
  };
}
