//! The table's followers (WebSocket connections of players and spectators) and what
//! each is sent: after every change, its own view, legal actions and the log lines it
//! has not had yet, as its viewer may read them. Connections of one viewer share one
//! rendering; a connection that falls behind is dropped, never waited for, and its
//! queue marks it so that it closes (`crate::outbox`): the client reconnects.

use super::clock::{Clocks, Now};
use super::log::acted;
use super::model::Model;
use crate::message::{table_message, LogLine, TableHead};
use crate::outbox::Outbox;
use axum::extract::ws::Utf8Bytes;
use std::borrow::Cow;
use std::collections::HashMap;
use takuge_engine::{Lang, Seat, Viewer};
use takuge_protocol::PROTOCOL;

/// How many messages a connection may fall behind before it is unsubscribed (and closed).
pub const CONNECTION_BACKLOG: usize = 1024;

struct Sub {
    user_id: i64,
    tx: Outbox,
    sent_log: usize,
}

/// A viewer (and the seat it acts for) with its view and legal actions as JSON.
type Written = (Viewer, Option<Seat>, Vec<u8>, Vec<u8>);

#[derive(Default)]
pub(super) struct Followers {
    subs: HashMap<u64, Sub>,
    /// Set by a draft step: the next broadcast goes to this seat only (`crate::moves`).
    only_to: Option<Seat>,
}

impl Followers {
    /// The next broadcast goes to `seat` alone (it made a draft step).
    pub fn only_to(&mut self, seat: Seat) {
        self.only_to = Some(seat);
    }

    /// Follows connection `conn` of account `user_id`, which is sent the whole table at
    /// once; a connection whose queue is full already is not added (it is closing).
    pub fn subscribe(
        &mut self,
        (model, clocks, now): (&Model, &Clocks, Now),
        conn: u64,
        user_id: i64,
        tx: Outbox,
    ) {
        let (viewer, acts) = model.viewer_of(user_id);
        let (view, legal) = model.view_and_legal(viewer, acts);
        let msg = message_for((model, clocks, now), viewer, 0, &view, &legal);
        if tx.send(msg) {
            self.subs.insert(
                conn,
                Sub {
                    user_id,
                    tx,
                    sent_log: model.log.len(),
                },
            );
        }
    }

    /// Tells every follower the table moved to another node, and lets them go.
    pub fn moved(&mut self, table: super::TableId) {
        let msg = crate::message::moved_message(table);
        for (_, sub) in self.subs.drain() {
            let _ = sub.tx.send(msg.clone());
        }
    }

    pub fn unsubscribe(&mut self, conn: u64) {
        self.subs.remove(&conn);
    }

    /// Sends every follower (or only the drafting seat's) the table as it is now.
    pub fn broadcast(&mut self, (model, clocks, now): (&Model, &Clocks, Now)) {
        let log_len = model.log.len();
        let mut dead = Vec::new();
        // After a draft step only its seat hears of it (`crate::moves`).
        let only = self.only_to.take();
        // Connections of the same viewer (a player's tabs, the spectators) share one
        // view and one list of legal actions.
        let mut written: Vec<Written> = Vec::new();
        let mut msgs = Vec::with_capacity(self.subs.len());
        for (conn, sub) in &self.subs {
            let (viewer, acts) = model.viewer_of(sub.user_id);
            if only.is_some_and(|seat| viewer != Viewer::Seat(seat)) {
                continue;
            }
            let i = match written
                .iter()
                .position(|(v, a, _, _)| *v == viewer && *a == acts)
            {
                Some(i) => i,
                None => {
                    let (view, legal) = model.view_and_legal(viewer, acts);
                    written.push((viewer, acts, view, legal));
                    written.len() - 1
                }
            };
            let (_, _, view, legal) = &written[i];
            msgs.push((
                *conn,
                message_for((model, clocks, now), viewer, sub.sent_log, view, legal),
            ));
        }
        for (conn, text) in msgs {
            if let Some(sub) = self.subs.get_mut(&conn) {
                if !sub.tx.send(text) {
                    dead.push(conn);
                } else {
                    sub.sent_log = log_len;
                }
            }
        }
        for conn in dead {
            tracing::warn!(
                table = model.meta.id,
                conn,
                "connection fell behind (it closes) or closed; unsubscribed"
            );
            self.subs.remove(&conn);
        }
    }
}

/// The message for one connection: its own view, legal actions, and the log lines
/// from `from_log` on as it may read them.
fn message_for(
    (model, clocks, now): (&Model, &Clocks, Now),
    viewer: Viewer,
    from_log: usize,
    view: &[u8],
    legal: &[u8],
) -> Utf8Bytes {
    let meta = &model.meta;
    let viewer_index = match viewer {
        Viewer::Seat(s) => s.index(),
        Viewer::Spectator => meta.players,
    };
    fn line(lines: &[Option<String>], i: usize, seat: Option<Seat>, lang: Lang) -> Cow<'_, str> {
        match (lines.get(i), seat) {
            (Some(Some(text)), _) => Cow::Borrowed(text.as_str()),
            (_, Some(seat)) => Cow::Owned(acted(seat, lang)),
            (_, None) => Cow::Borrowed(""),
        }
    }
    let log = model
        .log
        .iter()
        .enumerate()
        .skip(from_log)
        .map(|(index, e)| LogLine {
            index,
            seat: e.seat,
            text: line(&e.lines, viewer_index, e.seat, Lang::En),
            text_ja: line(&e.lines_ja, viewer_index, e.seat, Lang::Ja),
        })
        .collect();
    let head = TableHead {
        protocol: PROTOCOL,
        kind: "table",
        table: meta.id,
        game: &meta.game,
        status: meta.status,
        abandoned_reason: meta.abandoned_reason.map(|r| model.reason(r)),
        host: meta.host,
        seats: &meta.seats,
        you: match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        },
        version: model.version(),
        draft: match viewer {
            Viewer::Seat(s) if model.moves.has_draft(s) => Some(model.moves.draft_steps(s)),
            _ => None,
        },
        pending: model
            .state
            .as_ref()
            .map(|s| s.to_move().iter().map(|s| s.0).collect())
            .unwrap_or_default(),
        log,
        outcome: meta.outcome.as_ref(),
        clock: clocks.out(now),
        server_time_ms: now.unix_ms,
    };
    table_message(&head, view, legal)
}
