//! innkeep: a property-management system for small hotels, in one binary.
//!
//! - `api` speaks HTTP (poem-openapi): thin handlers, problem+json, pagination,
//!   idempotency, ETags. It calls `service`.
//! - `service` holds the use cases: it opens the write transaction, applies `domain`
//!   rules to what `store` reads, writes, and records events in the same transaction.
//! - `domain` is pure: stay dates, availability, the reservation state machine, rules.
//! - `store` is SQL per aggregate; `db` owns SQLite: pragmas, migrations, the read pool and
//!   the single group-committing writer thread.
//! - `model` holds the public shapes of resources, shared by the API and event snapshots.
//! - `app` runs the server; `cli` is the admin command line; `config` reads settings.

#[macro_use]
pub mod domain;
pub mod api;
pub mod app;
pub mod auth;
pub mod backup;
pub mod channel;
pub mod cli;
pub mod clock;
pub mod compliance;
pub mod config;
pub mod cursor;
pub mod db;
pub mod desk;
pub mod durable;
pub mod error;
pub mod i18n;
pub mod ids;
pub mod jobs;
pub mod mail;
pub mod memory;
pub mod model;
pub mod outbound;
pub mod packed;
pub mod printed;
pub mod refusal;
pub mod service;
pub mod store;
pub mod templates;
pub mod tls;
pub mod web;
