//! The servers a load runs against (one, or every node of a cluster), and HTTP requests
//! that survive a node going away: a request that finds no answer, or a 5xx, is tried
//! again on the next node, as a load balancer in front of the nodes would, until a
//! deadline. Which node a client starts on spreads the clients of one table over the
//! nodes, so that a table has players on two or three of them (issue 19: a request for a
//! table owned elsewhere must reach its owner).

use crate::sample::{server_sample, ServerSample};
use serde_json::Value;
use std::time::Duration;

/// How long a request keeps being tried on the nodes before it is an error: longer than
/// a failover (a node's tables are claimed by another within 15 s).
pub const RETRY_FOR: Duration = Duration::from_secs(40);
/// The pause between two tries (and before trying the next node).
const RETRY_PAUSE: Duration = Duration::from_millis(250);

/// An answer the server gave (not a failure to reach it).
#[derive(Debug)]
pub struct Refused {
    pub status: u16,
    pub code: String,
    pub body: Value,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.body)
    }
}

#[derive(Clone)]
pub struct Nodes {
    urls: Vec<String>,
    http: reqwest::Client,
}

impl Nodes {
    /// `urls` without their trailing `/`; at least one.
    pub fn new(urls: &[String]) -> Result<Nodes, String> {
        let urls: Vec<String> = urls
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect();
        if urls.is_empty() {
            return Err("no server to load".into());
        }
        Ok(Nodes {
            urls,
            http: crate::http_client(),
        })
    }

    pub fn len(&self) -> usize {
        self.urls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.urls.is_empty()
    }

    /// The `i`-th node (wrapping around).
    pub fn url(&self, i: usize) -> &str {
        &self.urls[i % self.urls.len()]
    }

    /// POSTs `body` to `path`, first on node `first`: the answer's JSON, or the
    /// server's refusal (a 4xx). No answer, a 5xx or a 429 is tried again, on the next
    /// node after a failure to connect, until [`RETRY_FOR`] has passed. `tries` counts
    /// the tries made, so a caller can tell a retry's refusal ("already done") apart.
    pub async fn post(
        &self,
        first: usize,
        path: &str,
        token: Option<&str>,
        body: &Value,
        tries: &mut u32,
    ) -> Result<Value, Result<Refused, String>> {
        let until = tokio::time::Instant::now() + RETRY_FOR;
        let mut node = first;
        loop {
            *tries += 1;
            let mut req = self
                .http
                .post(format!("{}{path}", self.url(node)))
                .header("x-takuge", "1")
                .json(body);
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            let last = match req.send().await {
                Ok(res) => {
                    let status = res.status();
                    let body: Value = res.json().await.unwrap_or(Value::Null);
                    if status.is_success() {
                        return Ok(body);
                    }
                    let refused = Refused {
                        status: status.as_u16(),
                        code: body["code"].as_str().unwrap_or("").to_string(),
                        body,
                    };
                    if !(status.is_server_error() || status.as_u16() == 429) {
                        return Err(Ok(refused));
                    }
                    refused.to_string()
                }
                Err(e) => {
                    node += 1;
                    e.to_string()
                }
            };
            if tokio::time::Instant::now() + RETRY_PAUSE >= until {
                return Err(Err(format!("POST {path}: {last} (for {RETRY_FOR:?})")));
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    /// Every node's `/metrics`, added up: a cluster's committed actions are the sum of
    /// its nodes'. A node that does not answer (stopped, being restarted) is left out;
    /// an error only when none answers.
    pub(crate) async fn sample(&self) -> Result<ServerSample, String> {
        let mut sum: Option<ServerSample> = None;
        let mut last_error = String::new();
        for url in &self.urls {
            match server_sample(&self.http, url).await {
                Ok(s) => match &mut sum {
                    Some(total) => total.add(&s),
                    None => sum = Some(s),
                },
                Err(e) => last_error = format!("{url}: {e}"),
            }
        }
        sum.ok_or(last_error)
    }
}

/// A pause that doubles from 250 ms to 2 s: between reconnections to a node.
pub(crate) fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(250u64 << attempt.min(3))
}
