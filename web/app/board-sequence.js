// ctx.sendSequence: a choice the game takes in several steps (an art-heist exhibit: its
// letters, then each letter's cards; a Ghost for Sale turn of several placements) sent one
// step at a time, each when the table asks for it, so every step carries the state it was
// chosen in. One sequencer per table page; the page calls pump() for every state it draws.
//
// The rules (they were art-heist's own queue's):
// - one step in flight at a time; the next goes out once the previous one is acknowledged
//   and the newest state offers it among the legal actions;
// - a step the newest state does not offer is waited for while that state is the one the
//   previous step was sent at (the `table` message that shows a step comes before its ack,
//   but a draft step keeps the version: states are told apart by (version, draft),
//   docs/PROTOCOL.md); once a newer state still does not offer it, the rest is dropped
//   (the table moved on: the turn passed, the seat was replaced, a rival's move changed
//   what is legal);
// - a refused step drops the rest (the shell shows the refusal; the player chooses again);
// - starting a new sequence drops the one under way; a different seat drops it too.
// The seat stays pending until its last step (the server's rule for secret choices of
// several steps), so a board that shows "sending…" from status() shows nothing to rivals.

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const stampOf = (st) => [st.version, st.draft || 0];
const newer = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

// hooks: state() → the newest table message ({version, draft, legal, you}) or null;
// send(action) → Promise (the page's send: it shows errors); redraw() draws the board.
export function createSequencer(hooks) {
  let seq = null;

  function stop(q, done) {
    if (seq !== q) return;
    seq = null;
    q.resolve(done);
  }

  function pump() {
    const q = seq;
    if (!q || q.inflight) return;
    const st = hooks.state();
    if (!st || st.you !== q.you) return stop(q, false);
    if (q.next >= q.actions.length) return stop(q, true);
    const entry = (st.legal || []).find((l) => same(l.action, q.actions[q.next]));
    if (!entry) {
      if (newer(stampOf(st), q.sentAt)) stop(q, false);
      return;
    }
    q.inflight = true;
    q.sentAt = stampOf(st);
    hooks.send(entry.action).then(
      () => {
        if (seq !== q) return;
        q.inflight = false;
        q.next += 1;
        pump();
        hooks.redraw();
      },
      () => {
        stop(q, false);
        hooks.redraw();
      },
    );
  }

  return {
    // Resolves to true once every step is acknowledged, false if the rest was dropped.
    start(actions) {
      const st = hooks.state();
      if (seq) stop(seq, false);
      if (!st || !actions.length) return Promise.resolve(false);
      return new Promise((resolve) => {
        seq = { actions: actions.slice(), next: 0, inflight: false, sentAt: stampOf(st), you: st.you, resolve };
        pump();
        hooks.redraw();
      });
    },
    pump,
    // What the board shows while a sequence is under way: null, or {step, total, inflight}.
    status() {
      return seq ? { step: seq.next, total: seq.actions.length, inflight: seq.inflight } : null;
    },
    // The page is left.
    cancel() {
      if (seq) stop(seq, false);
    },
  };
}
