//! The server's integration tests, one binary: each file below was its own test binary,
//! and linking the whole server into each of 18 binaries was most of the test build.

mod accounts;
mod bots;
mod cluster;
mod cluster_forwarding;
mod cluster_races;
mod common;
mod hardening;
mod input;
mod lagging;
mod lease_locks;
mod lease_plans;
mod load_tables;
mod migrate;
mod nameless_nodes;
mod openapi;
mod plays_catch_up;
mod profile;
mod recommend;
mod reviews;
mod rules_version;
mod secret_steps;
mod server;
mod shelf;
mod shelf_memory;
mod storage_layout;
mod tables;
