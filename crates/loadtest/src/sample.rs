//! The server's figures a load test reads from its `/metrics` (the names are
//! documented in docs/PERFORMANCE.md, "What /metrics tells a load test"; the server's
//! tests check they stay).

/// A histogram as `/metrics` gives it: per bucket its upper bound in seconds (from the
/// `le` label; the last `+Inf`) and the observations at or below it (cumulative).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Buckets(pub Vec<(f64, u64)>);

impl Buckets {
    /// Observations in all.
    pub fn count(&self) -> u64 {
        self.0.last().map_or(0, |&(_, n)| n)
    }

    /// What was observed between `before` and `self` (the same server's buckets).
    pub fn since(&self, before: &Buckets) -> Buckets {
        Buckets(
            self.0
                .iter()
                .zip(&before.0)
                .map(|(&(bound, a), &(_, b))| (bound, a.saturating_sub(b)))
                .collect(),
        )
    }

    /// The bucket bound (ms) at or below which a fraction `p` of the observations fell.
    pub fn quantile_ms(&self, p: f64) -> Option<f64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let &(bound, _) = self
            .0
            .iter()
            .find(|&&(_, n)| n as f64 >= p * total as f64)?;
        Some(bound * 1000.0)
    }

    /// Adds another server's observations (the same bucket bounds) to these.
    pub fn add(&mut self, other: &Buckets) {
        if self.0.is_empty() {
            self.0 = other.0.clone();
            return;
        }
        for (mine, &(_, n)) in self.0.iter_mut().zip(&other.0) {
            mine.1 += n;
        }
    }

    fn push(&mut self, labels: &str, count: f64) {
        let le = labels
            .split_once("le=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(le, _)| le);
        let bound = match le {
            Some("+Inf") => f64::INFINITY,
            Some(le) => match le.parse() {
                Ok(b) => b,
                Err(_) => return,
            },
            None => return,
        };
        self.0.push((bound, count as u64));
    }
}

/// The server's phase histograms (`takuge_server::phases`), in the order the report
/// prints them: (metric name, the report's word for it).
pub const PHASES: [(&str, &str); 8] = [
    ("takuge_action_answered_seconds", "answered"),
    ("takuge_action_queued_seconds", "queued"),
    ("takuge_action_applied_seconds", "applied"),
    ("takuge_action_writer_queue_seconds", "writer queue"),
    ("takuge_commit_wait_seconds", "commit wait"),
    ("takuge_broadcast_seconds", "broadcast"),
    (
        "takuge_writer_other_writes_seconds",
        "writer's other writes",
    ),
    ("takuge_runtime_lag_seconds", "runtime lag"),
];

#[derive(Clone, Debug, Default)]
pub(crate) struct ServerSample {
    /// [`PHASES`]' histograms, in that order.
    pub phases: [Buckets; PHASES.len()],
    pub committed: u64,
    pub commit_wait: Buckets,
    pub commit_wait_sum: f64,
    pub batches: u64,
    pub batch_sum: f64,
    pub batch_rows: u64,
    pub bot_search_decision: Buckets,
    pub bot_think: Buckets,
    pub rss: Option<u64>,
    pub cpu: Option<f64>,
    pub live_tables: i64,
    pub resident_tables: i64,
    pub finished_resident: i64,
    pub websockets: i64,
}

impl ServerSample {
    /// Adds another node's figures to these: a cluster's sample is the sum of its
    /// nodes' (RSS and CPU too: the processes of the whole cluster).
    pub fn add(&mut self, o: &ServerSample) {
        self.committed += o.committed;
        self.commit_wait.add(&o.commit_wait);
        for (mine, theirs) in self.phases.iter_mut().zip(&o.phases) {
            mine.add(theirs);
        }
        self.commit_wait_sum += o.commit_wait_sum;
        self.batches += o.batches;
        self.batch_sum += o.batch_sum;
        self.batch_rows += o.batch_rows;
        self.bot_search_decision.add(&o.bot_search_decision);
        self.bot_think.add(&o.bot_think);
        self.rss = self.rss.zip(o.rss).map(|(a, b)| a + b);
        self.cpu = self.cpu.zip(o.cpu).map(|(a, b)| a + b);
        self.live_tables += o.live_tables;
        self.resident_tables += o.resident_tables;
        self.finished_resident += o.finished_resident;
        self.websockets += o.websockets;
    }

    /// Reads the figures out of `/metrics` text.
    pub fn parse(text: &str) -> Result<ServerSample, String> {
        let mut sample = ServerSample::default();
        let mut has_committed = false;
        for line in text.lines() {
            let Some((name, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(v) = value.trim().parse::<f64>() else {
                continue;
            };
            match name {
                "takuge_actions_committed_total" => {
                    sample.committed = v as u64;
                    has_committed = true;
                }
                "takuge_commit_wait_seconds_sum" => sample.commit_wait_sum = v,
                "takuge_commit_batch_seconds_sum" => sample.batch_sum = v,
                "takuge_commit_batch_seconds_count" => sample.batches = v as u64,
                "takuge_commit_batch_rows_total" => sample.batch_rows = v as u64,
                "takuge_process_resident_memory_bytes" => sample.rss = Some(v as u64),
                "takuge_process_cpu_seconds_total" => sample.cpu = Some(v),
                "takuge_open_tables" => sample.live_tables = v as i64,
                "takuge_tables_resident" => sample.resident_tables = v as i64,
                "takuge_finished_tables_resident" => sample.finished_resident = v as i64,
                "takuge_websocket_connections" => sample.websockets = v as i64,
                _ => {
                    let Some((metric, labels)) = name.split_once('{') else {
                        continue;
                    };
                    if let Some(i) = PHASES
                        .iter()
                        .position(|(n, _)| metric.strip_suffix("_bucket") == Some(n))
                    {
                        sample.phases[i].push(labels, v);
                    }
                    let buckets = match metric {
                        "takuge_commit_wait_seconds_bucket" => &mut sample.commit_wait,
                        "takuge_bot_search_decision_seconds_bucket" => {
                            &mut sample.bot_search_decision
                        }
                        "takuge_bot_think_seconds_bucket" => &mut sample.bot_think,
                        _ => continue,
                    };
                    buckets.push(labels, v);
                }
            }
        }
        if !has_committed {
            return Err("the server's /metrics has no takuge_actions_committed_total".into());
        }
        Ok(sample)
    }
}

pub(crate) async fn server_sample(
    http: &reqwest::Client,
    base: &str,
) -> Result<ServerSample, String> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())?;
    ServerSample::parse(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const METRICS: &str = "# HELP takuge_actions_committed_total Actions committed.
takuge_actions_committed_total 40
takuge_open_tables 3
takuge_commit_wait_seconds_bucket{le=\"0.001\"} 10
takuge_commit_wait_seconds_bucket{le=\"0.02\"} 38
takuge_commit_wait_seconds_bucket{le=\"+Inf\"} 40
takuge_commit_wait_seconds_sum 0.25
takuge_commit_wait_seconds_count 40
";

    #[test]
    fn the_histograms_are_read_with_the_bounds_the_server_gives() {
        let Ok(s) = ServerSample::parse(METRICS) else {
            panic!("not read");
        };
        assert_eq!((s.committed, s.live_tables), (40, 3));
        assert_eq!(
            s.commit_wait,
            Buckets(vec![(0.001, 10), (0.02, 38), (f64::INFINITY, 40)])
        );
        assert_eq!(s.commit_wait.quantile_ms(0.25), Some(1.0));
        assert_eq!(s.commit_wait.quantile_ms(0.9), Some(20.0));
        assert_eq!(s.commit_wait.quantile_ms(0.99), Some(f64::INFINITY));
        assert_eq!(s.bot_think.quantile_ms(0.5), None);
    }

    #[test]
    fn a_delta_counts_only_what_was_observed_between_two_reads() {
        let before = Buckets(vec![(0.001, 10), (f64::INFINITY, 12)]);
        let after = Buckets(vec![(0.001, 10), (f64::INFINITY, 20)]);
        let delta = after.since(&before);
        assert_eq!(delta, Buckets(vec![(0.001, 0), (f64::INFINITY, 8)]));
        assert_eq!(delta.count(), 8);
        assert_eq!(delta.quantile_ms(0.5), Some(f64::INFINITY));
    }

    #[test]
    fn a_cluster_sample_is_the_sum_of_its_nodes() {
        let (Ok(mut a), Ok(b)) = (ServerSample::parse(METRICS), ServerSample::parse(METRICS))
        else {
            panic!("not read");
        };
        a.add(&b);
        assert_eq!((a.committed, a.live_tables), (80, 6));
        assert_eq!(
            a.commit_wait,
            Buckets(vec![(0.001, 20), (0.02, 76), (f64::INFINITY, 80)])
        );
    }

    #[test]
    fn a_server_without_the_committed_counter_is_not_taken_for_takuge() {
        assert!(ServerSample::parse("up 1\n").is_err());
    }
}
