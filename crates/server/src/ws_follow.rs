//! What one WebSocket follows, and where each table is served: here, or by the node
//! that owns it through an upstream WebSocket (`cluster::relay`). A table that moves
//! (its node lost its lease and said `moved`, or the upstream died with its node) is
//! looked up again with backoff and subscribed afresh, so the client gets a fresh
//! `table` message and plays on; its actions in flight are sent again with their ids.
//!
//! A connection another node passed here (`relayed`) is that node's upstream: it never
//! forwards further, and a `moved` goes back to that node, which looks the table up.

use crate::cluster::relay::{self, Event, Sent, Upstream};
use crate::cluster::Route;
use crate::error::ApiError;
use crate::limit::CountGuard;
use crate::outbox::Outbox;
use crate::table::{Caller, Cmd, TableId, PROTOCOL};
use crate::ws::error_msg;
use crate::AppState;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use takuge_protocol::{decode_client_message, reference_of, ClientMsg};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The first look-up again after a table moved waits this long, doubling up to
/// `REROUTE_MAX_WAIT`: during a failover the route names the dead node until its
/// leases expire (about 10–15 s).
const REROUTE_FIRST_WAIT: Duration = Duration::from_millis(100);
const REROUTE_MAX_WAIT: Duration = Duration::from_secs(2);
/// Past this without finding the table, the connection closes (1013, try again
/// later): the client reconnects and subscribes afresh.
const REROUTE_FOR: Duration = Duration::from_secs(30);

/// The code of an action refused because its table left this node before playing it
/// (nothing was written): the connection sends it again where the table went.
const TABLE_MOVED: &str = "table_moved";

/// Upstreams get ids so that a late event of one already replaced is not taken for
/// its successor's.
static NEXT_UPSTREAM: AtomicU64 = AtomicU64::new(1);

/// A table a connection follows.
struct Followed {
    /// It was over (finished or abandoned) when followed.
    over: bool,
    /// Its place in the address's count of subscriptions.
    place: CountGuard<IpAddr>,
    /// The invite code it was followed with (a private table needs it again).
    invite: Option<String>,
    at: At,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum At {
    Here,
    /// Through the upstream to this node.
    Node(Arc<str>),
    /// Being looked up again (`Connection::lost`).
    Lost,
}

/// A table being looked up again, and the client's actions for it that wait.
struct Retry {
    attempt: u32,
    due: Instant,
    since: Instant,
    acts: Vec<String>,
}

/// Why a look-up again did not place the table yet.
struct Again;

pub struct Connection<'s> {
    state: &'s Arc<AppState>,
    conn: u64,
    caller: Caller,
    ip: IpAddr,
    tx: Outbox,
    relayed: bool,
    subscribed: HashMap<TableId, Followed>,
    upstreams: HashMap<Arc<str>, (u64, Upstream)>,
    events: mpsc::Sender<Event>,
    lost: HashMap<TableId, Retry>,
}

impl<'s> Connection<'s> {
    pub fn new(
        state: &'s Arc<AppState>,
        conn: u64,
        caller: Caller,
        ip: IpAddr,
        tx: Outbox,
        relayed: bool,
        events: mpsc::Sender<Event>,
    ) -> Self {
        Connection {
            state,
            conn,
            caller,
            ip,
            tx,
            relayed,
            subscribed: HashMap::new(),
            upstreams: HashMap::new(),
            events,
            lost: HashMap::new(),
        }
    }

    /// A message to the client, after whatever is queued for it (one that does not
    /// fit closes the connection: `crate::outbox`).
    pub fn reply(&self, text: String) {
        let _ = self.tx.send(text.into());
    }

    /// When the next look-up again is due, if any table is lost.
    pub fn next_reroute(&self) -> Option<Instant> {
        self.lost.values().map(|r| r.due).min()
    }

    /// A message from a table here: `true` when it was this node's `moved` for a table
    /// the connection follows here, which the connection then looks up again (the
    /// client never sees it). An upstream passes it on to its node.
    pub fn local_moved(&mut self, text: &str) -> bool {
        let Some(table) = relay::moved_table(text) else {
            return false;
        };
        if self.relayed {
            return false;
        }
        if let Some(f) = self.subscribed.get_mut(&table) {
            if f.at == At::Here {
                f.at = At::Lost;
                self.lose(table, Vec::new());
            }
        }
        true
    }

    /// What an upstream said: the text to relay to the client, if any.
    pub fn upstream_event(&mut self, event: Event) -> Option<String> {
        match event {
            Event::Closed { node, id, lagging } => {
                // The owner closed it because it fell behind: so does the client's
                // socket (the owner's messages reach the client through it alone).
                if lagging {
                    self.tx.lag().mark();
                }
                if self.upstreams.get(&node).is_some_and(|(i, _)| *i == id) {
                    self.drop_upstream(&node);
                }
                None
            }
            Event::Message { node, id, text } => {
                let Some(peek) = relay::peek(&text) else {
                    return Some(text);
                };
                let current = self.upstreams.get(&node).is_some_and(|(i, _)| *i == id);
                match (peek.kind.as_str(), peek.table) {
                    // The upstream's own greeting: the client had its own.
                    ("hello", _) => None,
                    ("moved", Some(table)) => {
                        if current {
                            self.moved_at(&node, table, Vec::new());
                        }
                        None
                    }
                    (kind, Some(table)) if current => {
                        let answered = self
                            .upstreams
                            .get_mut(&node)
                            .and_then(|(_, up)| up.answer(table, kind));
                        let at_node = self
                            .subscribed
                            .get(&table)
                            .is_some_and(|f| f.at == At::Node(node.clone()));
                        match answered {
                            Some(Sent::Subscribe) if kind == "error" && at_node => {
                                self.subscribed.remove(&table);
                            }
                            // The owner lost the table before playing it: played where
                            // it is found instead (the client never hears of it).
                            Some(Sent::Act(act)) if peek.code.as_deref() == Some(TABLE_MOVED) => {
                                self.moved_at(&node, table, vec![act]);
                                return None;
                            }
                            _ => {}
                        }
                        Some(text)
                    }
                    _ => Some(text),
                }
            }
        }
    }

    /// Starts looking `table` up again, with `acts` to send once it is found.
    fn lose(&mut self, table: TableId, acts: Vec<String>) {
        if let Some(retry) = self.lost.get_mut(&table) {
            retry.acts.extend(acts);
            return;
        }
        self.state.metrics.reroutes.fetch_add(1, Ordering::Relaxed);
        let now = Instant::now();
        self.lost.insert(
            table,
            Retry {
                attempt: 0,
                due: now,
                since: now,
                acts,
            },
        );
    }

    /// The node of an upstream said `table` moved: it no longer serves it. Its
    /// unanswered actions (after `acts`, older) are sent again where it is found.
    fn moved_at(&mut self, node: &Arc<str>, table: TableId, mut acts: Vec<String>) {
        if let Some(queue) = self
            .upstreams
            .get_mut(node)
            .and_then(|(_, up)| up.pending.remove(&table))
        {
            acts.extend(unanswered_acts(queue));
        }
        let followed = match self.subscribed.get_mut(&table) {
            Some(f) if f.at == At::Node(node.clone()) => {
                f.at = At::Lost;
                true
            }
            _ => false,
        };
        if followed || !acts.is_empty() {
            self.lose(table, acts);
        }
    }

    /// An upstream closed or failed: every table it served is looked up again.
    fn drop_upstream(&mut self, node: &Arc<str>) {
        let Some((_, mut up)) = self.upstreams.remove(node) else {
            return;
        };
        let mut waiting: HashMap<TableId, Vec<String>> = std::mem::take(&mut up.pending)
            .into_iter()
            .map(|(t, q)| (t, unanswered_acts(q)))
            .collect();
        for (table, f) in self.subscribed.iter_mut() {
            if f.at == At::Node(node.clone()) {
                f.at = At::Lost;
                waiting.entry(*table).or_default();
            }
        }
        for (table, acts) in waiting {
            let followed = self
                .subscribed
                .get(&table)
                .is_some_and(|f| f.at == At::Lost);
            if followed || !acts.is_empty() {
                self.lose(table, acts);
            }
        }
    }

    /// The upstream to node `name`, opened if there is none.
    async fn upstream(&mut self, name: &str, url: &str) -> Result<&mut Upstream, Again> {
        if !self.upstreams.contains_key(name) {
            let Some(me) = self.state.cluster.node() else {
                return Err(Again);
            };
            let id = NEXT_UPSTREAM.fetch_add(1, Ordering::Relaxed);
            let up = Upstream::open(
                me,
                (name, url),
                (self.caller.user_id, self.ip),
                (id, self.events.clone(), self.tx.lag()),
                self.state.metrics.clone(),
            )
            .await
            .map_err(|e| {
                tracing::warn!(conn = self.conn, error = %e, "cannot open an upstream");
                Again
            })?;
            self.upstreams.insert(Arc::from(name), (id, up));
        }
        self.upstreams.get_mut(name).map(|(_, up)| up).ok_or(Again)
    }

    /// Passes a client's message to the upstream of `node`; a failure drops that
    /// upstream (its tables are looked up again).
    fn send_up(&mut self, node: &Arc<str>, table: TableId, sent: Sent, text: &str) -> bool {
        let ok = self
            .upstreams
            .get_mut(node)
            .is_some_and(|(_, up)| up.send(table, sent, text));
        if !ok {
            self.drop_upstream(node);
        }
        ok
    }

    /// Where `table` is served, as this connection may use it: a connection passed on
    /// by a node serves only what this node owns, and tells that node `moved` otherwise.
    async fn route(&self, table: TableId) -> Result<Option<Route>, ApiError> {
        let route = self.state.cluster.route(table).await?;
        if self.relayed && route != Route::Here {
            self.reply(json!({"protocol": PROTOCOL, "type": "moved", "table": table}).to_string());
            return Ok(None);
        }
        Ok(Some(route))
    }

    /// One client message.
    pub async fn handle(&mut self, text: &str) {
        let msg = match decode_client_message(text) {
            Ok(m) => m,
            Err(refusal) => {
                let (table, reference) = reference_of(text);
                self.reply(error_msg(table, reference.as_ref(), &refusal.into()));
                return;
            }
        };
        match msg {
            ClientMsg::Ping { reference } => {
                self.reply(
                    json!({ "protocol": PROTOCOL, "type": "pong", "ref": reference }).to_string(),
                );
            }
            ClientMsg::Subscribe {
                table,
                invite,
                reference,
            } => self.subscribe(table, invite, reference, text).await,
            ClientMsg::Unsubscribe { table, reference } => {
                self.unsubscribe(table, reference, text).await
            }
            act @ ClientMsg::Act { table, .. } => self.act(table, act, text).await,
        }
    }

    async fn subscribe(
        &mut self,
        table: TableId,
        invite: Option<String>,
        reference: Option<Value>,
        text: &str,
    ) {
        // Over when followed: those are capped per connection (each one followed
        // cost the server a load from the database and a replay).
        let over = self.subscribed.values().filter(|f| f.over).count();
        let room_for_over = self.subscribed.get(&table).is_some_and(|f| f.over)
            || over < self.state.config.max_finished_subscriptions;
        let (place, was_over) = match self.subscribed.remove(&table) {
            // Being looked up already: the client gets the table once it is found.
            Some(f) if f.at == At::Lost => {
                self.subscribed.insert(table, f);
                return;
            }
            Some(f) => (f.place, f.over),
            None => match self.state.subscriptions.acquire(self.ip) {
                Some(place) => (place, false),
                None => {
                    let e = ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        "too_many_subscriptions",
                        format!(
                            "this address already follows {} tables; unsubscribe from some first",
                            self.state.config.subscriptions_per_ip
                        ),
                    );
                    self.reply(error_msg(Some(table), reference.as_ref(), &e));
                    return;
                }
            },
        };
        let route = match self.route(table).await {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(e) => {
                self.reply(error_msg(Some(table), reference.as_ref(), &e));
                return;
            }
        };
        match route {
            Route::Here => match self
                .subscribe_here(table, invite.clone(), room_for_over)
                .await
            {
                Ok(live) => {
                    let at = At::Here;
                    self.subscribed.insert(
                        table,
                        Followed {
                            over: !live,
                            place,
                            invite,
                            at,
                        },
                    );
                }
                Err(e) => self.reply(error_msg(Some(table), reference.as_ref(), &e)),
            },
            Route::Node { name, url } => {
                let node: Arc<str> = Arc::from(name.as_str());
                let sent = match self.upstream(&name, &url).await {
                    Ok(_) => self.send_up(&node, table, Sent::Subscribe, text),
                    Err(Again) => false,
                };
                let at = if sent { At::Node(node) } else { At::Lost };
                self.subscribed.insert(
                    table,
                    Followed {
                        over: was_over,
                        place,
                        invite,
                        at,
                    },
                );
                if !sent {
                    self.lose(table, Vec::new());
                }
            }
        }
    }

    /// Follows `table` here: its state comes at once (`Ok(live)`).
    async fn subscribe_here(
        &self,
        table: TableId,
        invite: Option<String>,
        room_for_over: bool,
    ) -> Result<bool, ApiError> {
        let caller = self.caller.clone();
        let (conn, tx) = (self.conn, self.tx.clone());
        self.state
            .hub
            .ask(table, |reply| Cmd::Subscribe {
                caller,
                conn,
                invite,
                tx,
                room_for_over,
                reply,
            })
            .await
    }

    async fn unsubscribe(&mut self, table: TableId, reference: Option<Value>, text: &str) {
        match self.subscribed.remove(&table).map(|f| f.at) {
            Some(At::Here) => {
                let cmd = Cmd::Unsubscribe { conn: self.conn };
                self.state.hub.send_if_running(table, cmd).await;
            }
            // The owner answers `unsubscribed` itself.
            Some(At::Node(node)) if self.send_up(&node, table, Sent::Unsubscribe, text) => return,
            // Actions waiting for it are still sent once it is found.
            Some(At::Lost) if self.lost.get(&table).is_some_and(|r| r.acts.is_empty()) => {
                self.lost.remove(&table);
            }
            Some(At::Node(_) | At::Lost) | None => {}
        }
        self.reply(
            json!({ "protocol": PROTOCOL, "type": "unsubscribed", "table": table, "ref": reference })
                .to_string(),
        );
    }

    async fn act(&mut self, table: TableId, act: ClientMsg, text: &str) {
        let at = match self.subscribed.get(&table).map(|f| f.at.clone()) {
            Some(at) => at,
            // Acting on a table not followed: wherever it is.
            None => match self.route(table).await {
                Ok(Some(Route::Here)) => At::Here,
                Ok(Some(Route::Node { name, url })) => match self.upstream(&name, &url).await {
                    Ok(_) => At::Node(Arc::from(name.as_str())),
                    Err(Again) => At::Lost,
                },
                Ok(None) => return,
                Err(e) => {
                    let (_, reference) = reference_of(text);
                    self.reply(error_msg(Some(table), reference.as_ref(), &e));
                    return;
                }
            },
        };
        match at {
            At::Here => self.act_here(act, text).await,
            At::Node(node) => {
                if !self.send_up(&node, table, Sent::Act(text.to_owned()), text) {
                    self.lose(table, vec![text.to_owned()]);
                }
            }
            At::Lost => self.lose(table, vec![text.to_owned()]),
        }
    }

    /// Plays `act` (the client's `text`) on the table here. Refused as `table_moved`
    /// (this node lost the table meanwhile; nothing was written), it is sent again
    /// once the table is found, as an action in flight on a dead upstream is.
    async fn act_here(&mut self, act: ClientMsg, text: &str) {
        let ClientMsg::Act {
            table,
            version,
            draft,
            action,
            seat,
            id,
            reference,
        } = act
        else {
            return;
        };
        let caller = self.caller.clone();
        let read = std::time::Instant::now();
        let r = self
            .state
            .hub
            .ask(table, |reply| Cmd::Act {
                caller,
                seat,
                version,
                draft,
                action,
                id,
                asked: std::time::Instant::now(),
                reply,
            })
            .await;
        self.state.metrics.phases.answered.observe(read.elapsed());
        if let Err(e) = &r {
            if e.code == TABLE_MOVED && !self.relayed {
                if let Some(f) = self.subscribed.get_mut(&table) {
                    f.at = At::Lost;
                }
                self.lose(table, vec![text.to_owned()]);
                return;
            }
        }
        self.reply(match r {
            Ok(v) => json!({ "protocol": PROTOCOL, "type": "ack", "table": table, "ref": reference, "version": v }).to_string(),
            Err(e) => error_msg(Some(table), reference.as_ref(), &e),
        });
    }

    /// Looks up the lost tables that are due; `false` when one stayed lost too long
    /// (the connection then closes, and the client starts afresh).
    pub async fn reroute_due(&mut self) -> bool {
        let now = Instant::now();
        let due: Vec<TableId> = self
            .lost
            .iter()
            .filter(|(_, r)| r.due <= now)
            .map(|(t, _)| *t)
            .collect();
        for table in due {
            let Some(mut retry) = self.lost.remove(&table) else {
                continue;
            };
            if let Err(Again) = self.reroute(table, &mut retry).await {
                if retry.since.elapsed() > REROUTE_FOR {
                    return false;
                }
                retry.attempt += 1;
                let wait = REROUTE_FIRST_WAIT
                    .saturating_mul(1 << retry.attempt.min(8))
                    .min(REROUTE_MAX_WAIT);
                retry.due = Instant::now() + wait;
                // Actions the client sent meanwhile joined another entry.
                if let Some(newer) = self.lost.remove(&table) {
                    retry.acts.extend(newer.acts);
                }
                self.lost.insert(table, retry);
            }
        }
        true
    }

    /// Finds `table` again: subscribes where it now is (if still followed) and sends
    /// the actions that waited.
    async fn reroute(&mut self, table: TableId, retry: &mut Retry) -> Result<(), Again> {
        let route = self.state.cluster.reroute(table).await.map_err(|_| Again)?;
        let follow = self
            .subscribed
            .get(&table)
            .filter(|f| f.at == At::Lost)
            .map(|f| f.invite.clone());
        match route {
            Route::Here => {
                if let Some(invite) = follow {
                    match self.subscribe_here(table, invite, true).await {
                        Ok(live) => {
                            if let Some(f) = self.subscribed.get_mut(&table) {
                                (f.at, f.over) = (At::Here, !live);
                            }
                        }
                        Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE.as_u16() => {
                            return Err(Again)
                        }
                        Err(e) => {
                            self.subscribed.remove(&table);
                            self.reply(error_msg(Some(table), None, &e));
                        }
                    }
                }
                for text in std::mem::take(&mut retry.acts) {
                    if let Ok(act @ ClientMsg::Act { .. }) = decode_client_message(&text) {
                        self.act_here(act, &text).await;
                    }
                }
            }
            Route::Node { name, url } => {
                self.upstream(&name, &url).await?;
                let node: Arc<str> = Arc::from(name.as_str());
                if let Some(invite) = follow {
                    let again = ClientMsg::Subscribe {
                        table,
                        invite,
                        reference: None,
                    };
                    let text = serde_json::to_string(&again).map_err(|_| Again)?;
                    if !self.send_up(&node, table, Sent::Subscribe, &text) {
                        return Err(Again);
                    }
                    if let Some(f) = self.subscribed.get_mut(&table) {
                        f.at = At::Node(node.clone());
                    }
                }
                for text in std::mem::take(&mut retry.acts) {
                    if !self.send_up(&node, table, Sent::Act(text.clone()), &text) {
                        retry.acts.push(text);
                        return Err(Again);
                    }
                }
            }
        }
        Ok(())
    }

    /// The connection closed: the tables here forget it; each upstream closes, and
    /// its node's tables forget it in turn.
    pub async fn close(mut self) {
        self.upstreams.clear();
        // A table not in memory has forgotten its followers already: not loaded for this.
        for (table, f) in self.subscribed.drain() {
            if f.at == At::Here {
                let cmd = Cmd::Unsubscribe { conn: self.conn };
                self.state.hub.send_if_running(table, cmd).await;
            }
        }
    }
}

/// The actions among unanswered messages, as the client sent them.
fn unanswered_acts(queue: std::collections::VecDeque<Sent>) -> Vec<String> {
    queue
        .into_iter()
        .filter_map(|s| match s {
            Sent::Act(text) => Some(text),
            _ => None,
        })
        .collect()
}
