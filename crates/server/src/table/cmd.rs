//! What a table's task is asked to do: the commands in its mailbox.

use super::meta::{Caller, TableInfo, Turn};
use crate::error::ApiError;
use serde_json::Value;
use takuge_engine::{MatchRecord, Seat};
use tokio::sync::oneshot;

pub(super) type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

pub enum Cmd {
    /// The node's heartbeat found the table's lease taken by another node: the table
    /// stops at once (several nodes).
    LeaseLost,
    Info {
        caller: Caller,
        invite: Option<String>,
        reply: Reply<TableInfo>,
    },
    Sit {
        caller: Caller,
        seat: Option<u8>,
        invite: Option<String>,
        reply: Reply<TableInfo>,
    },
    Leave {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    FillBots {
        caller: Caller,
        bot: Option<String>,
        /// One seat (free, or a bot's); `None`: every free seat.
        seat: Option<u8>,
        reply: Reply<TableInfo>,
    },
    Start {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    Abandon {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    Act {
        caller: Caller,
        seat: Option<u8>,
        version: u64,
        /// The draft steps the client had seen (`crate::moves`).
        draft: Option<u64>,
        action: Value,
        /// The client's id for the action (`crate::action_id`).
        id: Option<String>,
        /// When it was sent to the table (its time in the mailbox: `crate::phases`).
        asked: std::time::Instant,
        reply: Reply<u64>,
    },
    BotMove {
        seat: Seat,
        /// The committed step count the move was chosen at.
        version: u64,
        action: Value,
        /// The seat's kept bot, back from its search (`crate::kept_bots`).
        kept: Option<crate::kept_bots::Lent>,
    },
    /// Answers whether the table is live (open or playing).
    Subscribe {
        caller: Caller,
        conn: u64,
        invite: Option<String>,
        tx: crate::outbox::Outbox,
        /// Whether the connection may follow one more table that is over
        /// (`Config::max_finished_subscriptions`).
        room_for_over: bool,
        reply: Reply<bool>,
    },
    Unsubscribe {
        conn: u64,
    },
    Record {
        caller: Caller,
        reply: Reply<MatchRecord>,
    },
    /// Whether account `user_id` is to act here now (its profile's "waiting for you").
    Turn {
        caller: Caller,
        reply: Reply<Turn>,
    },
    /// Closes the table if it was never started (`caps::expire_loop`).
    Expire {
        reply: Reply<()>,
    },
}
